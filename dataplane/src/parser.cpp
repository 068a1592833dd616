#include "weft/dataplane/parser.hpp"

#include <bit>
#include <cstring>

namespace weft::dataplane {

namespace {

constexpr std::uint16_t kEtherTypeIpv4 = 0x0800;
constexpr std::uint16_t kEtherTypeIpv6 = 0x86DD;
constexpr std::uint16_t kEtherTypeVlan = 0x8100;
constexpr std::uint16_t kEtherTypeQinQ = 0x88A8;
constexpr std::size_t kEthHeaderLen = 14;
constexpr std::size_t kVlanTagLen = 4;
constexpr int kMaxVlanTags = 2;
constexpr int kMaxIpv6ExtHeaders = 8;
constexpr std::uint8_t kProtoTcp = 6;
constexpr std::uint8_t kProtoUdp = 17;
constexpr std::size_t kLrhLen = 8;
constexpr std::size_t kGrhLen = 40;
constexpr std::size_t kBthLen = 12;
constexpr std::uint8_t kGrhNextHeaderIba = 0x1B;

inline std::uint16_t be16(const std::uint8_t *p) noexcept {
    return static_cast<std::uint16_t>((p[0] << 8) | p[1]);
}

inline std::uint32_t be24(const std::uint8_t *p) noexcept {
    return (static_cast<std::uint32_t>(p[0]) << 16) | (static_cast<std::uint32_t>(p[1]) << 8) | p[2];
}

// One's-complement sum of an IPv4 header; 0xFFFF when the stored checksum is right. The header
// is a whole number of 32-bit words, summed at that width in host order and folded: the
// one's-complement sum does not depend on byte order, and 0xFFFF reads the same either way.
inline bool ipv4_checksum_ok(const std::uint8_t *h, std::size_t len) noexcept {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < len; i += 4) {
        std::uint32_t w;
        std::memcpy(&w, h + i, 4);
        sum += w;
    }
    sum = (sum & 0xFFFFFFFFu) + (sum >> 32);
    sum = (sum & 0xFFFFFFFFu) + (sum >> 32);
    sum = (sum & 0xFFFFu) + (sum >> 16);
    sum = (sum & 0xFFFFu) + (sum >> 16);
    return sum == 0xFFFF;
}

// Bounded view of the bytes of one protocol layer; `end` never exceeds the frame.
struct Cursor {
    const std::uint8_t *base;
    std::size_t off;
    std::size_t end;
    std::size_t avail() const noexcept { return end - off; }
    const std::uint8_t *ptr() const noexcept { return base + off; }
};

// BTH: opcode, flags, P_Key, reserved, DestQP (24 bits), A/reserved, PSN.
[[gnu::always_inline]] inline DropReason parse_bth(Cursor c, ParsedPacket &out) noexcept {
    if (c.avail() < kBthLen) return DropReason::BthTruncated;
    out.has_bth = true;
    out.l4_offset = static_cast<std::uint16_t>(c.off);
    out.key.dest_qp = be24(c.ptr() + 5);
    return DropReason::None;
}

// Inlined into both IP parsers: called out of line, the three-word Cursor goes through the stack,
// and reading it back as one vector stalls on the stores that just wrote it.
[[gnu::always_inline]] inline DropReason parse_l4(Cursor c, std::uint8_t proto, ParsedPacket &out) noexcept {
    out.l4_protocol = proto;
    out.key.protocol = proto;
    if (proto == kProtoTcp) {
        if (c.avail() < 20) return DropReason::TcpTruncated;
        const std::uint8_t *t = c.ptr();
        const std::size_t doff = t[12] >> 4;
        if (doff < 5) return DropReason::TcpBadDataOffset;
        if (doff * 4 > c.avail()) return DropReason::TcpHeaderPastBuffer;
        out.l4_offset = static_cast<std::uint16_t>(c.off);
        out.key.src_port = be16(t);
        out.key.dst_port = be16(t + 2);
        return DropReason::None;
    }
    if (proto == kProtoUdp) {
        if (c.avail() < 8) return DropReason::UdpTruncated;
        const std::uint8_t *u = c.ptr();
        const std::size_t udp_len = be16(u + 4);
        if (udp_len < 8) return DropReason::UdpBadLength;
        if (udp_len > c.avail()) return DropReason::UdpLengthPastBuffer;
        out.l4_offset = static_cast<std::uint16_t>(c.off);
        out.key.src_port = be16(u);
        out.key.dst_port = be16(u + 2);
        if (out.key.dst_port == kRoceV2UdpPort) {
            out.roce = true;
            const DropReason r = parse_bth(Cursor{c.base, c.off + 8, c.off + udp_len}, out);
            out.l4_offset = static_cast<std::uint16_t>(c.off);  // keep the UDP header as L4
            return r;
        }
        return DropReason::None;
    }
    return DropReason::None;  // other protocols forward on addresses alone
}

DropReason parse_ipv4(Cursor c, const ParserConfig &config, ParsedPacket &out) noexcept {
    if (c.avail() < 20) return DropReason::Ipv4Truncated;
    const std::uint8_t *h = c.ptr();
    if ((h[0] >> 4) != 4) return DropReason::Ipv4BadVersion;
    const std::size_t ihl = (h[0] & 0x0F) * 4u;
    if (ihl < 20) return DropReason::Ipv4BadIhl;
    if (ihl > c.avail()) return DropReason::Ipv4HeaderPastBuffer;
    const std::size_t total = be16(h + 2);
    if (total < ihl) return DropReason::Ipv4BadTotalLength;
    if (total > c.avail()) return DropReason::Ipv4TotalLengthPastBuffer;
    if (config.verify_ipv4_checksum && !ipv4_checksum_ok(h, ihl)) return DropReason::Ipv4BadChecksum;

    out.kind = PacketKind::Ipv4;
    out.key.kind = PacketKind::Ipv4;
    out.l3_offset = static_cast<std::uint16_t>(c.off);
    out.ttl = h[8];
    std::memcpy(out.key.src, h + 12, 4);
    std::memcpy(out.key.dst, h + 16, 4);
    const std::uint16_t frag = be16(h + 6);
    out.fragment = (frag & 0x3FFF) != 0;  // MF flag or a non-zero offset
    if (out.fragment) {
        out.l4_protocol = h[9];
        out.key.protocol = h[9];
        return DropReason::None;
    }
    return parse_l4(Cursor{c.base, c.off + ihl, c.off + total}, h[9], out);
}

DropReason parse_ipv6(Cursor c, ParsedPacket &out) noexcept {
    if (c.avail() < 40) return DropReason::Ipv6Truncated;
    const std::uint8_t *h = c.ptr();
    if ((h[0] >> 4) != 6) return DropReason::Ipv6BadVersion;
    const std::size_t limit = 40 + static_cast<std::size_t>(be16(h + 4));
    if (limit > c.avail()) return DropReason::Ipv6PayloadPastBuffer;

    out.kind = PacketKind::Ipv6;
    out.key.kind = PacketKind::Ipv6;
    out.l3_offset = static_cast<std::uint16_t>(c.off);
    out.ttl = h[7];
    std::memcpy(out.key.src, h + 8, 16);
    std::memcpy(out.key.dst, h + 24, 16);

    std::uint8_t nh = h[6];
    Cursor e{c.base, c.off + 40, c.off + limit};
    for (int n = 0;; ++n) {
        switch (nh) {
            case 0:     // hop-by-hop options
            case 43:    // routing
            case 60:    // destination options
            case 135:   // mobility
            case 139:   // HIP
            case 140:   // shim6
            case 51: {  // authentication header counts its length in 4-byte units
                if (n >= kMaxIpv6ExtHeaders) return DropReason::Ipv6TooManyExtHeaders;
                if (e.avail() < 8) return DropReason::Ipv6ExtHeaderTruncated;
                const std::uint8_t *x = e.ptr();
                const std::size_t len = nh == 51 ? (x[1] + 2u) * 4u : (x[1] + 1u) * 8u;
                if (len > e.avail()) return DropReason::Ipv6ExtHeaderTruncated;
                nh = x[0];
                e.off += len;
                break;
            }
            case 44: {  // fragment header: fixed 8 bytes
                if (n >= kMaxIpv6ExtHeaders) return DropReason::Ipv6TooManyExtHeaders;
                if (e.avail() < 8) return DropReason::Ipv6ExtHeaderTruncated;
                const std::uint8_t *x = e.ptr();
                const std::uint16_t off_m = be16(x + 2);
                nh = x[0];
                e.off += 8;
                if ((off_m & 0xFFF9) != 0) {  // offset or M flag: hash on addresses only
                    out.fragment = true;
                    out.l4_protocol = nh;
                    out.key.protocol = nh;
                    return DropReason::None;
                }
                break;
            }
            case 59:  // no next header
                out.l4_protocol = nh;
                out.key.protocol = nh;
                return DropReason::None;
            default:
                return parse_l4(e, nh, out);
        }
    }
}

// LRH: VL|LVer, SL|rsv|LNH, DLID, rsv|PktLen (11 bits, 4-byte words from LRH through ICRC),
// SLID. LNH 2 = BTH follows, 3 = GRH then BTH, 0/1 = raw (forwarded on DLID alone).
// Seed 002's extended LIDs take two of the reserved bits each (parser.hpp): DLID bits 16-17 from
// byte 1 bits 2-3, SLID bits 16-17 from byte 4 bits 6-7; zero on a 16-bit frame.
DropReason parse_iboe(Cursor c, ParsedPacket &out) noexcept {
    if (c.avail() < kLrhLen) return DropReason::LrhTruncated;
    const std::uint8_t *l = c.ptr();
    if ((l[0] & 0x0F) != 0) return DropReason::LrhBadVersion;
    const std::size_t pkt_bytes = (be16(l + 4) & 0x07FFu) * 4u;
    if (pkt_bytes < kLrhLen) return DropReason::LrhBadPktLen;
    if (pkt_bytes > c.avail()) return DropReason::LrhPktLenPastBuffer;

    out.kind = PacketKind::Iboe;
    out.key.kind = PacketKind::Iboe;
    out.l3_offset = static_cast<std::uint16_t>(c.off);
    out.vl = l[0] >> 4;
    out.sl = l[1] >> 4;
    out.lnh = l[1] & 0x03;
    out.dlid = be16(l + 2);
    out.slid = be16(l + 6);
    out.key.src_port = static_cast<std::uint16_t>(out.slid);
    out.key.dst_port = static_cast<std::uint16_t>(out.dlid);
    out.key.protocol = out.lnh;
    // The LIDs' high bits go beside LNH in the key, so a 16-bit frame's key (and hash) is what it
    // always was; a 16-bit fabric pays one test of the LRH's first 8 bytes for them.
    constexpr std::uint64_t kLidHighBits = std::endian::native == std::endian::little
                                               ? std::uint64_t{0x0C} << 8 | std::uint64_t{0xC0} << 32
                                               : std::uint64_t{0x0C} << 48 | std::uint64_t{0xC0} << 24;
    std::uint64_t lrh;
    std::memcpy(&lrh, l, sizeof lrh);
    if ((lrh & kLidHighBits) != 0) [[unlikely]] {
        const unsigned dlid_hi = (l[1] >> 2) & 0x03u, slid_hi = l[4] >> 6;
        out.dlid |= dlid_hi << 16;
        out.slid |= slid_hi << 16;
        out.key.protocol = static_cast<std::uint8_t>(out.lnh | dlid_hi << 2 | slid_hi << 4);
    }

    Cursor p{c.base, c.off + kLrhLen, c.off + pkt_bytes};
    if (out.lnh == 3) {
        if (p.avail() < kGrhLen) return DropReason::GrhTruncated;
        const std::uint8_t *g = p.ptr();
        if ((g[0] >> 4) != 6) return DropReason::GrhBadVersion;
        out.has_grh = true;
        std::memcpy(out.key.src, g + 8, 16);
        std::memcpy(out.key.dst, g + 24, 16);
        p.off += kGrhLen;
        if (g[6] != kGrhNextHeaderIba) return DropReason::None;  // non-IBA payload: no BTH
        return parse_bth(p, out);
    }
    if (out.lnh == 2) return parse_bth(p, out);
    return DropReason::None;
}

// parse_frame without the flow hash.
DropReason parse_frame_unhashed(std::span<const std::uint8_t> frame, const ParserConfig &config,
                                ParsedPacket &out) noexcept {
    out = ParsedPacket{};
    if (frame.size() < kEthHeaderLen) return DropReason::EthTruncated;
    const std::uint8_t *f = frame.data();
    std::size_t off = 12;
    std::uint16_t type = be16(f + off);
    for (int tags = 0; (type == kEtherTypeVlan || type == kEtherTypeQinQ) && tags < kMaxVlanTags; ++tags) {
        if (frame.size() < off + 2 + kVlanTagLen) return DropReason::VlanTruncated;
        if (!out.has_vlan) {
            out.has_vlan = true;
            out.vlan_tci = be16(f + off + 2);
        }
        off += kVlanTagLen;
        type = be16(f + off);
    }
    Cursor c{f, off + 2, frame.size()};
    out.ether_type = type;

    DropReason r;
    if (type == kEtherTypeIpv4) {
        r = parse_ipv4(c, config, out);
    } else if (type == kEtherTypeIpv6) {
        r = parse_ipv6(c, out);
    } else if (type == config.iboe_ethertype) {
        r = parse_iboe(c, out);
    } else {
        return DropReason::UnknownEtherType;
    }
    if (r == DropReason::None && out.fragment) {  // fragments: addresses (and protocol) only
        out.key.src_port = 0;
        out.key.dst_port = 0;
        out.key.dest_qp = 0;
    }
    return r;
}

}  // namespace

DropReason parse_frame(std::span<const std::uint8_t> frame, const ParserConfig &config,
                       ParsedPacket &out) noexcept {
    const DropReason r = parse_frame_unhashed(frame, config, out);
    if (r == DropReason::None) out.hash = flow_hash(out.key);
    return r;
}

}  // namespace weft::dataplane
