// The IB-over-Ethernet frame codec: Ethernet, LRH, [GRH], BTH, DETH, payload, pad, ICRC.
#include "weft/sm/iboe_frame.hpp"

#include <algorithm>
#include <stdexcept>

#include "weft/sm/icrc.hpp"

namespace weft::sm {

namespace {

constexpr std::uint16_t kEtherTypeVlan = 0x8100;
constexpr std::uint16_t kEtherTypeQinQ = 0x88A8;
constexpr int kMaxVlanTags = 2;  // as weft's dataplane parser
constexpr std::uint8_t kLnhIbaLocal = 2;
constexpr std::uint8_t kLnhIbaGlobal = 3;
constexpr std::uint8_t kGrhNextHeaderIba = 0x1B;

std::uint16_t be16(const std::uint8_t *p) {
    return static_cast<std::uint16_t>((p[0] << 8) | p[1]);
}
std::uint32_t be24(const std::uint8_t *p) {
    return (std::uint32_t{p[0]} << 16) | (std::uint32_t{p[1]} << 8) | p[2];
}
std::uint32_t be32(const std::uint8_t *p) {
    return (std::uint32_t{p[0]} << 24) | be24(p + 1);
}
void put16(std::uint8_t *p, std::uint32_t v) {
    p[0] = static_cast<std::uint8_t>(v >> 8);
    p[1] = static_cast<std::uint8_t>(v);
}
void put24(std::uint8_t *p, std::uint32_t v) {
    p[0] = static_cast<std::uint8_t>(v >> 16);
    put16(p + 1, v);
}
void put32(std::uint8_t *p, std::uint32_t v) {
    p[0] = static_cast<std::uint8_t>(v >> 24);
    put24(p + 1, v);
}

std::size_t padded(std::size_t payload) {
    return (payload + 3) & ~std::size_t{3};
}

IboeDecode refuse(FrameDrop reason, std::size_t offset, std::uint64_t value) {
    IboeDecode d;
    d.error = FrameError{reason, offset, value};
    return d;
}

}  // namespace

std::size_t iboe_frame_size(std::size_t payload_size, bool vlan_tag) {
    const std::size_t n = kEthHeaderSize + (vlan_tag ? kVlanTagSize : 0) + kLrhSize + kBthSize + kDethSize +
                          padded(payload_size) + kIcrcSize;
    return std::max(n, kMinEthFrameSize);
}

std::size_t encode_iboe_frame(const IboeHeaders &h, std::span<const std::uint8_t> payload,
                              std::span<std::uint8_t> out, const IboeFrameConfig &config) {
    if (h.vl > 15 || h.sl > 15) throw std::invalid_argument("IBoE frame: VL and SL are 4 bits");
    if (h.dest_qp > 0xFFFFFF || h.src_qp > 0xFFFFFF || h.psn > 0xFFFFFF)
        throw std::invalid_argument("IBoE frame: QPs and PSN are 24 bits");
    if (h.grh) throw std::invalid_argument("IBoE frame: only the local route (LNH 2) is encoded");
    if (payload.size() > kMaxIboePayload)
        throw std::invalid_argument("IBoE frame: payload over PktLen's reach");
    const std::size_t size = iboe_frame_size(payload.size(), h.vlan_tci.has_value());
    if (out.size() < size) throw std::invalid_argument("IBoE frame: output buffer too small");

    std::uint8_t *f = out.data();
    std::fill(f, f + size, std::uint8_t{0});
    std::copy(h.dst_mac.begin(), h.dst_mac.end(), f);
    std::copy(h.src_mac.begin(), h.src_mac.end(), f + 6);
    std::size_t off = 12;
    if (h.vlan_tci) {
        put16(f + off, kEtherTypeVlan);
        put16(f + off + 2, *h.vlan_tci);
        off += kVlanTagSize;
    }
    put16(f + off, config.ethertype);
    off += 2;

    const std::size_t pad = padded(payload.size()) - payload.size();
    const std::size_t pkt = kLrhSize + kBthSize + kDethSize + payload.size() + pad + kIcrcSize;
    std::uint8_t *lrh = f + off;
    lrh[0] = static_cast<std::uint8_t>(h.vl << 4);  // LVer 0
    lrh[1] = static_cast<std::uint8_t>(h.sl << 4 | kLnhIbaLocal);
    put16(lrh + 2, h.dlid);
    put16(lrh + 4, static_cast<std::uint32_t>(pkt / 4));
    put16(lrh + 6, h.slid);

    std::uint8_t *bth = lrh + kLrhSize;
    bth[0] = kBthOpUdSendOnly;
    bth[1] = static_cast<std::uint8_t>((h.solicited ? 0x80 : 0) | pad << 4);  // M 0, TVer 0
    put16(bth + 2, h.p_key);
    put24(bth + 5, h.dest_qp);
    put24(bth + 9, h.psn);

    std::uint8_t *deth = bth + kBthSize;
    put32(deth, h.q_key);
    put24(deth + 5, h.src_qp);

    std::uint8_t *data = deth + kDethSize;
    std::copy(payload.begin(), payload.end(), data);
    const std::uint32_t icrc = iba_icrc(std::span<const std::uint8_t>(lrh, pkt - kIcrcSize));
    std::uint8_t *crc = lrh + pkt - kIcrcSize;
    for (int i = 0; i < 4; ++i) crc[i] = static_cast<std::uint8_t>(icrc >> (8 * i));
    return size;
}

std::vector<std::uint8_t> encode_iboe_frame(const IboeHeaders &h, std::span<const std::uint8_t> payload,
                                            const IboeFrameConfig &config) {
    std::vector<std::uint8_t> out(iboe_frame_size(payload.size(), h.vlan_tci.has_value()));
    out.resize(encode_iboe_frame(h, payload, out, config));
    return out;
}

IboeDecode decode_iboe_frame(std::span<const std::uint8_t> frame, const IboeFrameConfig &config) {
    const std::uint8_t *f = frame.data();
    const std::size_t n = frame.size();
    if (n < kEthHeaderSize) return refuse(FrameDrop::kEthTruncated, 0, n);
    IboeDecode d;
    IboeHeaders &h = d.packet.headers;
    std::copy(f, f + 6, h.dst_mac.begin());
    std::copy(f + 6, f + 12, h.src_mac.begin());
    std::size_t off = 12;
    std::uint16_t type = be16(f + off);
    for (int tags = 0; (type == kEtherTypeVlan || type == kEtherTypeQinQ) && tags < kMaxVlanTags; ++tags) {
        if (n < off + 2 + kVlanTagSize) return refuse(FrameDrop::kVlanTruncated, off, n - off);
        if (!h.vlan_tci) h.vlan_tci = be16(f + off + 2);
        off += kVlanTagSize;
        type = be16(f + off);
    }
    if (type != config.ethertype) return refuse(FrameDrop::kNotIboe, off, type);

    // LRH: VL|LVer, SL|rsv|LNH, DLID, rsv|PktLen, SLID.
    const std::size_t lo = off + 2;
    if (n - lo < kLrhSize) return refuse(FrameDrop::kLrhTruncated, lo, n - lo);
    const std::uint8_t *lrh = f + lo;
    if ((lrh[0] & 0x0F) != 0) return refuse(FrameDrop::kLrhBadVersion, lo, lrh[0] & 0x0F);
    const std::uint8_t lnh = lrh[1] & 0x03;
    if (lnh != kLnhIbaLocal && lnh != kLnhIbaGlobal) return refuse(FrameDrop::kLrhRawPacket, lo + 1, lnh);
    const std::size_t pkt = (be16(lrh + 4) & 0x07FFu) * 4u;
    if (pkt < kLrhSize) return refuse(FrameDrop::kLrhBadPktLen, lo + 4, pkt / 4);
    if (pkt > n - lo) return refuse(FrameDrop::kLrhPktLenPastFrame, lo + 4, pkt / 4);
    h.vl = lrh[0] >> 4;
    h.sl = lrh[1] >> 4;
    h.dlid = be16(lrh + 2);
    h.slid = be16(lrh + 6);
    d.packet.lrh_offset = lo;
    const std::size_t end = lo + pkt;  // bytes past it are Ethernet padding

    std::size_t bo = lo + kLrhSize;
    if (lnh == kLnhIbaGlobal) {
        if (end - bo < kGrhSize) return refuse(FrameDrop::kGrhTruncated, bo, end - bo);
        if ((f[bo] >> 4) != 6) return refuse(FrameDrop::kGrhBadVersion, bo, f[bo] >> 4);
        if (f[bo + 6] != kGrhNextHeaderIba) return refuse(FrameDrop::kGrhNotIba, bo + 6, f[bo + 6]);
        h.grh = true;
        bo += kGrhSize;
    }
    if (end - bo < kBthSize) return refuse(FrameDrop::kBthTruncated, bo, end - bo);
    const std::uint8_t *bth = f + bo;
    if (bth[0] != kBthOpUdSendOnly) return refuse(FrameDrop::kBthNotUdSendOnly, bo, bth[0]);
    if ((bth[1] & 0x0F) != 0) return refuse(FrameDrop::kBthBadVersion, bo + 1, bth[1] & 0x0F);
    h.solicited = (bth[1] & 0x80) != 0;
    const std::size_t pad = (bth[1] >> 4) & 0x03;
    h.p_key = be16(bth + 2);
    h.dest_qp = be24(bth + 5);
    h.psn = be24(bth + 9);

    const std::size_t eo = bo + kBthSize;
    if (end - eo < kDethSize) return refuse(FrameDrop::kDethTruncated, eo, end - eo);
    h.q_key = be32(f + eo);
    h.src_qp = be24(f + eo + 5);

    const std::size_t po = eo + kDethSize;
    if (end - po < kIcrcSize) return refuse(FrameDrop::kLrhBadPktLen, lo + 4, pkt / 4);
    const std::size_t rest = end - po - kIcrcSize;
    if (pad > rest) return refuse(FrameDrop::kPadPastPayload, bo + 1, pad);

    if (config.check_icrc) {
        const std::uint8_t *c = f + end - kIcrcSize;
        const std::uint32_t carried = std::uint32_t{c[0]} | std::uint32_t{c[1]} << 8 |
                                      std::uint32_t{c[2]} << 16 | std::uint32_t{c[3]} << 24;
        if (carried != iba_icrc(frame.subspan(lo, pkt - kIcrcSize)))
            return refuse(FrameDrop::kBadIcrc, end - kIcrcSize, carried);
    }
    d.packet.payload = frame.subspan(po, rest - pad);
    return d;
}

}  // namespace weft::sm
