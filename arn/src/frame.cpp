// Ethernet framing of an ARN.
#include "weft/arn/frame.hpp"

#include <algorithm>
#include <stdexcept>

#include "l2.hpp"
#include "wire.hpp"

namespace weft::arn {

namespace {

constexpr std::uint16_t kEtherTypeVlan = 0x8100;
constexpr std::uint16_t kEtherTypeQinQ = 0x88A8;
constexpr int kMaxVlanTags = 2;  // as weft's dataplane parser

ArnFrameDecode refuse(ArnDrop reason, std::size_t offset, std::uint64_t value) {
    ArnFrameDecode d;
    d.error = ArnError{reason, offset, value};
    return d;
}

}  // namespace

std::size_t arn_frame_size(const ArnMessage &m, bool vlan_tag) {
    return std::max(kArnEthHeaderSize + (vlan_tag ? kArnVlanTagSize : 0) + arn_size(m), kArnMinFrameSize);
}

std::size_t encode_arn_frame(const ArnFrameHeaders &h, const ArnMessage &m, std::span<std::uint8_t> out,
                             const ArnEthernetConfig &config) {
    const std::size_t size = arn_frame_size(m, h.vlan_tci.has_value());
    if (out.size() < size) throw std::invalid_argument("ARN frame: output buffer too small");
    std::uint8_t *f = out.data();
    std::fill(f, f + size, std::uint8_t{0});
    std::copy(h.dst_mac.begin(), h.dst_mac.end(), f);
    std::copy(h.src_mac.begin(), h.src_mac.end(), f + 6);
    std::size_t at = 12;
    if (h.vlan_tci) {
        wire::put16(f + at, kEtherTypeVlan);
        wire::put16(f + at + 2, *h.vlan_tci);
        at += kArnVlanTagSize;
    }
    wire::put16(f + at, config.ethertype);
    at += 2;
    encode_arn(m, out.subspan(at, size - at));
    return size;
}

std::vector<std::uint8_t> encode_arn_frame(const ArnFrameHeaders &h, const ArnMessage &m,
                                           const ArnEthernetConfig &config) {
    std::vector<std::uint8_t> out(arn_frame_size(m, h.vlan_tci.has_value()));
    encode_arn_frame(h, m, out, config);
    return out;
}

namespace l2 {

std::optional<ArnError> read(std::span<const std::uint8_t> frame, Header &out) {
    const std::uint8_t *f = frame.data();
    if (frame.size() < kArnEthHeaderSize) return ArnError{ArnDrop::kEthTruncated, 0, frame.size()};
    std::copy_n(f, 6, out.headers.dst_mac.begin());
    std::copy_n(f + 6, 6, out.headers.src_mac.begin());
    std::size_t at = 12;
    std::uint16_t type = wire::be16(f + at);
    for (int tags = 0; (type == kEtherTypeVlan || type == kEtherTypeQinQ) && tags < kMaxVlanTags; ++tags) {
        if (frame.size() < at + kArnVlanTagSize + 2) return ArnError{ArnDrop::kVlanTruncated, at, type};
        if (tags == 0) out.headers.vlan_tci = wire::be16(f + at + 2);
        at += kArnVlanTagSize;
        type = wire::be16(f + at);
    }
    out.type_at = at;
    out.type = type;
    return std::nullopt;
}

}  // namespace l2

ArnFrameDecode decode_arn_frame(std::span<const std::uint8_t> frame, const ArnEthernetConfig &config) {
    l2::Header h;
    if (const auto e = l2::read(frame, h)) return refuse(e->reason, e->offset, e->value);
    ArnFrameDecode d;
    d.headers = h.headers;
    if (h.type != config.ethertype) return refuse(ArnDrop::kNotArn, h.type_at, h.type);
    const std::size_t at = h.type_at + 2;
    const ArnDecode arn = decode_arn(frame.subspan(at), Trailing::kZeroPadding, at);
    if (!arn) return refuse(arn.error->reason, arn.error->offset, arn.error->value);
    d.message = arn.message;
    d.arn_offset = at;
    return d;
}

}  // namespace weft::arn
