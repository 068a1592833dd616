// libFuzzer target: the IB-over-Ethernet frame decoder (decode_iboe_frame, decode_mad_frame), with
// the ICRC checked and not. A refusal names a reason and a place inside the frame; a frame that
// decodes encodes again (local route) and decodes back to the same headers and payload.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "weft/sm/iboe_frame.hpp"
#include "weft/sm/mad_frame.hpp"

namespace {

using namespace weft::sm;

void check(std::span<const std::uint8_t> frame, const IboeDecode &d) {
    if (!d) {
        if (d.error->reason >= FrameDrop::kCount || d.error->offset > frame.size()) std::abort();
        if (d.error->message().empty()) std::abort();
        return;
    }
    const IboePacket &p = d.packet;
    if (p.payload.size() > kMaxIboePayload || p.payload.data() < frame.data() ||
        p.payload.data() + p.payload.size() > frame.data() + frame.size())
        std::abort();
    if (p.headers.grh) return;  // GRHs are read, never written
    const std::vector<std::uint8_t> again = encode_iboe_frame(p.headers, p.payload);
    const IboeDecode back = decode_iboe_frame(again);
    if (!back || !(back.packet.headers == p.headers)) std::abort();
    if (!std::equal(p.payload.begin(), p.payload.end(), back.packet.payload.begin(),
                    back.packet.payload.end()))
        std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::span<const std::uint8_t> frame(data, size);
    check(frame, decode_iboe_frame(frame));
    check(frame, decode_iboe_frame(frame, IboeFrameConfig{kIboeEtherType, false}));
    const IboeDecode mad = decode_mad_frame(frame, IboeFrameConfig{kIboeEtherType, false});
    check(frame, mad);
    if (mad && mad.packet.payload.size() != kSmpSize) std::abort();
    return 0;
}
