// UDP framing of an ARN.
#include "weft/arn/udp_frame.hpp"

#include <algorithm>
#include <stdexcept>

#include "l2.hpp"
#include "wire.hpp"

namespace weft::arn {

namespace {

constexpr std::uint16_t kEtherTypeIpv4 = 0x0800;
constexpr std::uint16_t kEtherTypeIpv6 = 0x86DD;
constexpr std::uint8_t kProtoUdp = 17;
constexpr std::size_t kIpv4HeaderSize = 20;
constexpr std::size_t kIpv6HeaderSize = 40;
constexpr std::size_t kUdpHeaderSize = 8;
constexpr MacAddr kBroadcastMac = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
constexpr MacAddr kAllNodesMac = {0x33, 0x33, 0x00, 0x00, 0x00, 0x01};  // ff02::1
constexpr std::array<std::uint8_t, 16> kAllNodes = {0xFF, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};

ArnFrameDecode refuse(ArnDrop reason, std::size_t offset, std::uint64_t value) {
    ArnFrameDecode d;
    d.error = ArnError{reason, offset, value};
    return d;
}

// The ones' complement sum of `bytes` (an odd last byte padded with zero) added to `sum`.
std::uint32_t add_sum(std::uint32_t sum, std::span<const std::uint8_t> bytes) {
    for (std::size_t i = 0; i + 1 < bytes.size(); i += 2) sum += wire::be16(bytes.data() + i);
    if (bytes.size() % 2) sum += std::uint32_t{bytes.back()} << 8;
    return sum;
}

std::uint16_t fold(std::uint32_t sum) {
    while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
    return static_cast<std::uint16_t>(sum);
}

// The UDP checksum's sum over the pseudo-header (RFC 768, RFC 8200 8.1) and the datagram.
std::uint32_t udp_sum(bool ipv6, const std::uint8_t *src, const std::uint8_t *dst,
                      std::span<const std::uint8_t> datagram) {
    const std::size_t ip_bytes = ipv6 ? 16 : 4;
    std::uint32_t sum = add_sum(0, {src, ip_bytes});
    sum = add_sum(sum, {dst, ip_bytes});
    sum += kProtoUdp;
    sum += static_cast<std::uint32_t>(datagram.size() & 0xFFFF);
    return add_sum(sum, datagram);
}

}  // namespace

std::size_t arn_udp_frame_size(const ArnMessage &m, bool ipv6) {
    return std::max(
        kArnEthHeaderSize + (ipv6 ? kIpv6HeaderSize : kIpv4HeaderSize) + kUdpHeaderSize + arn_size(m),
        kArnMinFrameSize);
}

std::size_t encode_arn_udp_frame(const ArnUdpHeaders &h, const ArnMessage &m, std::span<std::uint8_t> out,
                                 const ArnUdpConfig &config) {
    const std::size_t size = arn_udp_frame_size(m, h.ipv6);
    if (out.size() < size) throw std::invalid_argument("ARN UDP frame: output buffer too small");
    std::uint8_t *f = out.data();
    std::fill(f, f + size, std::uint8_t{0});
    const MacAddr &dst_mac = h.ipv6 ? kAllNodesMac : kBroadcastMac;
    std::copy(dst_mac.begin(), dst_mac.end(), f);
    std::copy(h.src_mac.begin(), h.src_mac.end(), f + 6);
    wire::put16(f + 12, h.ipv6 ? kEtherTypeIpv6 : kEtherTypeIpv4);
    std::uint8_t *ip = f + kArnEthHeaderSize;
    std::uint8_t *udp = ip + (h.ipv6 ? kIpv6HeaderSize : kIpv4HeaderSize);
    const std::size_t message =
        encode_arn(m, out.subspan(static_cast<std::size_t>(udp - f) + kUdpHeaderSize));
    const auto udp_len = static_cast<std::uint16_t>(kUdpHeaderSize + message);
    const std::uint8_t *src = ip + (h.ipv6 ? 8 : 12);
    const std::uint8_t *dst = ip + (h.ipv6 ? 24 : 16);
    if (h.ipv6) {
        ip[0] = 0x60 | (kArnDscp >> 2);  // version, then the traffic class's DSCP (ECN 0)
        ip[1] = static_cast<std::uint8_t>((kArnDscp & 3) << 6);
        wire::put16(ip + 4, udp_len);
        ip[6] = kProtoUdp;
        ip[7] = kArnIpTtl;
        std::array<std::uint8_t, 16> s = h.src_ip;
        if (s == std::array<std::uint8_t, 16>{}) {  // fe80::/64, the interface id from the MAC
            s = {0xFE,
                 0x80,
                 0,
                 0,
                 0,
                 0,
                 0,
                 0,
                 static_cast<std::uint8_t>(h.src_mac[0] ^ 0x02),
                 h.src_mac[1],
                 h.src_mac[2],
                 0xFF,
                 0xFE,
                 h.src_mac[3],
                 h.src_mac[4],
                 h.src_mac[5]};
        }
        std::copy(s.begin(), s.end(), ip + 8);
        std::copy(kAllNodes.begin(), kAllNodes.end(), ip + 24);
    } else {
        ip[0] = 0x45;
        ip[1] = kArnDscp << 2;
        wire::put16(ip + 2, static_cast<std::uint32_t>(kIpv4HeaderSize + udp_len));
        wire::put16(ip + 6, 0x4000);  // don't fragment
        ip[8] = kArnIpTtl;
        ip[9] = kProtoUdp;
        std::copy_n(h.src_ip.begin(), 4, ip + 12);
        std::fill_n(ip + 16, 4, std::uint8_t{0xFF});
        wire::put16(ip + 10, static_cast<std::uint16_t>(~fold(add_sum(0, {ip, kIpv4HeaderSize}))));
    }
    wire::put16(udp, h.src_port);
    wire::put16(udp + 2, config.port);
    wire::put16(udp + 4, udp_len);
    const std::uint16_t sum = static_cast<std::uint16_t>(~fold(udp_sum(h.ipv6, src, dst, {udp, udp_len})));
    wire::put16(udp + 6, sum == 0 ? 0xFFFF : sum);  // 0 would say "no checksum"
    return size;
}

std::vector<std::uint8_t> encode_arn_udp_frame(const ArnUdpHeaders &h, const ArnMessage &m,
                                               const ArnUdpConfig &config) {
    std::vector<std::uint8_t> out(arn_udp_frame_size(m, h.ipv6));
    encode_arn_udp_frame(h, m, out, config);
    return out;
}

ArnFrameDecode decode_arn_udp_frame(std::span<const std::uint8_t> frame, const ArnUdpConfig &config) {
    l2::Header h;
    if (const auto e = l2::read(frame, h)) return refuse(e->reason, e->offset, e->value);
    const bool ipv6 = h.type == kEtherTypeIpv6;
    if (!ipv6 && h.type != kEtherTypeIpv4) return refuse(ArnDrop::kNotArn, h.type_at, h.type);
    const std::uint8_t *f = frame.data();
    const std::size_t at = h.type_at + 2;  // the IP header
    const std::size_t size = frame.size();
    std::size_t hdr = 0, ip_len = 0;
    if (ipv6) {
        if (size < at + kIpv6HeaderSize) return refuse(ArnDrop::kIpTruncated, at, size);
        if (f[at] >> 4 != 6) return refuse(ArnDrop::kBadIpHeader, at, f[at] >> 4);
        if (f[at + 6] != kProtoUdp) return refuse(ArnDrop::kNotArnUdp, at + 6, f[at + 6]);
        if (f[at + 7] != kArnIpTtl) return refuse(ArnDrop::kBadTtl, at + 7, f[at + 7]);
        hdr = kIpv6HeaderSize;
        ip_len = kIpv6HeaderSize + wire::be16(f + at + 4);
    } else {
        if (size < at + kIpv4HeaderSize) return refuse(ArnDrop::kIpTruncated, at, size);
        const unsigned version = f[at] >> 4, ihl = f[at] & 0x0Fu;
        if (version != 4 || ihl < 5) return refuse(ArnDrop::kBadIpHeader, at, f[at]);
        hdr = std::size_t{ihl} * 4;
        if (size < at + hdr) return refuse(ArnDrop::kIpTruncated, at, size);
        ip_len = wire::be16(f + at + 2);
        if (ip_len < hdr + kUdpHeaderSize) return refuse(ArnDrop::kBadIpHeader, at + 2, ip_len);
        const std::uint16_t fragment = wire::be16(f + at + 6);
        if ((fragment & 0x3FFF) != 0)
            return refuse(ArnDrop::kBadIpHeader, at + 6, fragment);  // MF or an offset
        if (f[at + 9] != kProtoUdp) return refuse(ArnDrop::kNotArnUdp, at + 9, f[at + 9]);
        if (f[at + 8] != kArnIpTtl) return refuse(ArnDrop::kBadTtl, at + 8, f[at + 8]);
        if (fold(add_sum(0, frame.subspan(at, hdr))) != 0xFFFF)
            return refuse(ArnDrop::kBadChecksum, at + 10, wire::be16(f + at + 10));
    }
    if (size < at + ip_len || ip_len < hdr + kUdpHeaderSize) return refuse(ArnDrop::kIpTruncated, at, ip_len);
    const std::size_t udp = at + hdr;
    const std::uint16_t udp_len = wire::be16(f + udp + 4);
    if (udp_len != ip_len - hdr) return refuse(ArnDrop::kBadUdpLength, udp + 4, udp_len);
    if (wire::be16(f + udp + 2) != config.port)
        return refuse(ArnDrop::kNotArnUdp, udp + 2, wire::be16(f + udp + 2));
    const std::uint16_t sum = wire::be16(f + udp + 6);
    if (sum == 0 ? ipv6
                 : fold(udp_sum(ipv6, f + at + (ipv6 ? 8 : 12), f + at + (ipv6 ? 24 : 16),
                                frame.subspan(udp, udp_len))) != 0xFFFF)
        return refuse(ArnDrop::kBadChecksum, udp + 6, sum);
    const std::size_t message_at = udp + kUdpHeaderSize;
    const ArnDecode arn =
        decode_arn(frame.subspan(message_at, udp_len - kUdpHeaderSize), Trailing::kRefuse, message_at);
    if (!arn) return refuse(arn.error->reason, arn.error->offset, arn.error->value);
    ArnFrameDecode d;
    d.headers = h.headers;
    d.message = arn.message;
    d.arn_offset = message_at;
    return d;
}

}  // namespace weft::arn
