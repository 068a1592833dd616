#include "frame_builder.hpp"

namespace weft::dataplane::test {

Bytes operator+(Bytes a, const Bytes &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

void put16(Bytes &b, std::size_t at, std::uint16_t v) {
    b[at] = static_cast<std::uint8_t>(v >> 8);
    b[at + 1] = static_cast<std::uint8_t>(v);
}

std::uint16_t get16(const Bytes &b, std::size_t at) {
    return static_cast<std::uint16_t>((b[at] << 8) | b[at + 1]);
}

namespace {
void push16(Bytes &b, std::uint16_t v) {
    b.push_back(static_cast<std::uint8_t>(v >> 8));
    b.push_back(static_cast<std::uint8_t>(v));
}
void push32(Bytes &b, std::uint32_t v) {
    push16(b, static_cast<std::uint16_t>(v >> 16));
    push16(b, static_cast<std::uint16_t>(v));
}
void push24(Bytes &b, std::uint32_t v) {
    b.push_back(static_cast<std::uint8_t>(v >> 16));
    push16(b, static_cast<std::uint16_t>(v));
}
}  // namespace

Bytes eth(std::uint16_t ethertype, std::initializer_list<std::uint16_t> vlans, Mac dst, Mac src) {
    Bytes b;
    b.reserve(18 + 4 * vlans.size());
    for (std::uint8_t x : dst) b.push_back(x);
    for (std::uint8_t x : src) b.push_back(x);
    for (std::uint16_t tci : vlans) {
        push16(b, 0x8100);
        push16(b, tci);
    }
    push16(b, ethertype);
    return b;
}

std::uint16_t ipv4_checksum(const std::uint8_t *h, std::size_t len) {
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i + 1 < len; i += 2) sum += static_cast<std::uint32_t>((h[i] << 8) | h[i + 1]);
    while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
    return static_cast<std::uint16_t>(~sum);
}

Bytes ipv4(std::uint8_t proto, std::uint32_t src, std::uint32_t dst, std::size_t payload_len,
           std::uint8_t ttl, const Bytes &options, std::uint16_t frag) {
    const std::size_t hlen = 20 + options.size();
    Bytes b;
    b.push_back(static_cast<std::uint8_t>(0x40 | (hlen / 4)));
    b.push_back(0);
    push16(b, static_cast<std::uint16_t>(hlen + payload_len));
    push16(b, 0x1234);  // identification
    push16(b, frag);
    b.push_back(ttl);
    b.push_back(proto);
    push16(b, 0);  // checksum, filled below
    push32(b, src);
    push32(b, dst);
    b.insert(b.end(), options.begin(), options.end());
    put16(b, 10, ipv4_checksum(b.data(), b.size()));
    return b;
}

Bytes ipv6(std::uint8_t next_header, const Ip6 &src, const Ip6 &dst, std::size_t payload_len,
           std::uint8_t hop_limit) {
    Bytes b{0x60, 0x00, 0x00, 0x00};
    push16(b, static_cast<std::uint16_t>(payload_len));
    b.push_back(next_header);
    b.push_back(hop_limit);
    for (std::uint8_t x : src) b.push_back(x);
    for (std::uint8_t x : dst) b.push_back(x);
    return b;
}

Bytes ipv6_ext(std::uint8_t next_header, std::size_t len_bytes) {
    Bytes b(len_bytes, 0);
    b[0] = next_header;
    b[1] = static_cast<std::uint8_t>(len_bytes / 8 - 1);
    return b;
}

Bytes ipv6_frag(std::uint8_t next_header, std::uint16_t offset_units, bool more) {
    Bytes b{next_header, 0};
    push16(b, static_cast<std::uint16_t>((offset_units << 3) | (more ? 1 : 0)));
    push32(b, 0xabcdef01);  // identification
    return b;
}

Bytes udp(std::uint16_t sport, std::uint16_t dport, std::size_t payload_len) {
    Bytes b;
    push16(b, sport);
    push16(b, dport);
    push16(b, static_cast<std::uint16_t>(8 + payload_len));
    push16(b, 0);  // checksum optional over IPv4; the parser does not check it
    return b;
}

Bytes tcp(std::uint16_t sport, std::uint16_t dport, std::uint8_t data_offset_words) {
    Bytes b;
    push16(b, sport);
    push16(b, dport);
    push32(b, 1000);  // seq
    push32(b, 0);     // ack
    b.push_back(static_cast<std::uint8_t>(data_offset_words << 4));
    b.push_back(0x02);  // SYN
    push16(b, 65535);
    push16(b, 0);
    push16(b, 0);
    const std::size_t want = static_cast<std::size_t>(data_offset_words) * 4;
    if (want > b.size()) b.resize(want, 1);  // TCP options (NOPs)
    return b;
}

Bytes bth(std::uint32_t dest_qp, std::uint8_t opcode, std::uint32_t psn) {
    Bytes b{opcode, 0x40};
    push16(b, 0xFFFF);  // P_Key
    b.push_back(0);
    push24(b, dest_qp);
    b.push_back(0x80);  // AckReq
    push24(b, psn);
    return b;
}

Bytes lrh(std::uint8_t vl, std::uint8_t sl, std::uint8_t lnh, std::uint16_t dlid, std::uint16_t slid,
          std::uint16_t pkt_words, std::uint8_t lver) {
    Bytes b{static_cast<std::uint8_t>((vl << 4) | (lver & 0x0F)),
            static_cast<std::uint8_t>((sl << 4) | (lnh & 3))};
    push16(b, dlid);
    push16(b, static_cast<std::uint16_t>(pkt_words & 0x07FF));
    push16(b, slid);
    return b;
}

Bytes grh(const Ip6 &sgid, const Ip6 &dgid, std::size_t payload_len, std::uint8_t next_header) {
    Bytes b{0x60, 0x00, 0x00, 0x00};
    push16(b, static_cast<std::uint16_t>(payload_len));
    b.push_back(next_header);
    b.push_back(255);
    for (std::uint8_t x : sgid) b.push_back(x);
    for (std::uint8_t x : dgid) b.push_back(x);
    return b;
}

Bytes zeros(std::size_t n) {
    return Bytes(n, 0);
}

}  // namespace weft::dataplane::test
