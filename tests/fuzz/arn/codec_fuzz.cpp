// libFuzzer target: the ARN decoders, on the input as a UDP payload (nothing may trail), as a
// padded message, as an Ethernet frame and as a UDP frame (IPv4 or IPv6). A refusal names a known reason and
// a place inside the input; a message that decodes encodes again, decodes back to itself, and (nothing
// trailing) to the very bytes it came from but the Reserved nibble: the encoding is canonical.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "weft/arn/codec.hpp"
#include "weft/arn/frame.hpp"
#include "weft/arn/udp_frame.hpp"

namespace {

using namespace weft::arn;

void check_error(std::span<const std::uint8_t> input, const ArnError &e) {
    if (e.reason >= ArnDrop::kCount || e.offset > input.size() || e.message().empty()) std::abort();
}

void check_message(const ArnMessage &m) {
    const std::vector<std::uint8_t> again = encode_arn(m);
    const ArnDecode back = decode_arn(again);
    if (!back) std::abort();
    ArnMessage expected = m;
    expected.reserved = 0;
    if (!(back.message == expected)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::span<const std::uint8_t> input(data, size);

    const ArnDecode exact = decode_arn(input);
    if (exact) {
        if (exact.size != size) std::abort();
        check_message(exact.message);
        std::vector<std::uint8_t> bytes = encode_arn(exact.message);
        bytes[1] |= static_cast<std::uint8_t>(exact.message.reserved);
        if (!std::equal(bytes.begin(), bytes.end(), input.begin(), input.end())) std::abort();
    } else {
        check_error(input, *exact.error);
    }

    const ArnDecode padded = decode_arn(input, Trailing::kZeroPadding);
    if (padded) {
        if (padded.size > size) std::abort();
        check_message(padded.message);
    } else {
        check_error(input, *padded.error);
    }
    // A message nothing trails is accepted with or without padding allowed, and alike.
    if (exact && !(padded && padded.message == exact.message)) std::abort();

    const ArnFrameDecode frame = decode_arn_frame(input);
    if (frame) {
        if (frame.arn_offset > size) std::abort();
        check_message(frame.message);
        const std::vector<std::uint8_t> again = encode_arn_frame(frame.headers, frame.message);
        const ArnFrameDecode back = decode_arn_frame(again);
        ArnMessage expected = frame.message;
        expected.reserved = 0;
        if (!back || !(back.message == expected) || !(back.headers == frame.headers)) std::abort();
    } else {
        check_error(input, *frame.error);
    }

    // Over UDP: what decodes goes out again in a datagram of ours that decodes to it.
    const ArnFrameDecode udp = decode_arn_udp_frame(input);
    if (udp) {
        if (udp.arn_offset > size) std::abort();
        check_message(udp.message);
        ArnMessage expected = udp.message;
        expected.reserved = 0;
        for (const bool ipv6 : {false, true}) {
            ArnUdpHeaders h;
            h.ipv6 = ipv6;
            h.src_mac = udp.headers.src_mac;
            const ArnFrameDecode back = decode_arn_udp_frame(encode_arn_udp_frame(h, udp.message));
            if (!back || !(back.message == expected)) std::abort();
        }
    } else {
        check_error(input, *udp.error);
    }
    return 0;
}
