// Builds test frames byte by byte, header by header, so every test states the exact wire bytes
// it feeds the parser or the worker.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace weft::dataplane::test {

using Bytes = std::vector<std::uint8_t>;
using Mac = std::array<std::uint8_t, 6>;
using Ip6 = std::array<std::uint8_t, 16>;

Bytes operator+(Bytes a, const Bytes &b);

void put16(Bytes &b, std::size_t at, std::uint16_t v);
std::uint16_t get16(const Bytes &b, std::size_t at);

// Ethernet header; each entry of `vlans` adds an 802.1Q tag (TPID 0x8100) with that TCI.
Bytes eth(std::uint16_t ethertype, std::initializer_list<std::uint16_t> vlans = {},
          Mac dst = {0x02, 0, 0, 0, 0, 0xd0}, Mac src = {0x02, 0, 0, 0, 0, 0x50});

// IPv4 header with a correct checksum. `payload_len` sizes total length; `options` must be a
// multiple of 4 bytes; `frag` is the flags|offset field.
Bytes ipv4(std::uint8_t proto, std::uint32_t src, std::uint32_t dst, std::size_t payload_len,
           std::uint8_t ttl = 64, const Bytes &options = {}, std::uint16_t frag = 0);
std::uint16_t ipv4_checksum(const std::uint8_t *h, std::size_t len);

Bytes ipv6(std::uint8_t next_header, const Ip6 &src, const Ip6 &dst, std::size_t payload_len,
           std::uint8_t hop_limit = 64);
// A generic 8-byte-unit IPv6 extension header (hop-by-hop, routing, destination options).
Bytes ipv6_ext(std::uint8_t next_header, std::size_t len_bytes);
Bytes ipv6_frag(std::uint8_t next_header, std::uint16_t offset_units, bool more);

Bytes udp(std::uint16_t sport, std::uint16_t dport, std::size_t payload_len);
Bytes tcp(std::uint16_t sport, std::uint16_t dport, std::uint8_t data_offset_words = 5);
Bytes bth(std::uint32_t dest_qp, std::uint8_t opcode = 0x04, std::uint32_t psn = 1);

// IB Local Route Header; pkt_words is PktLen (4-byte words from the LRH through the ICRC).
Bytes lrh(std::uint8_t vl, std::uint8_t sl, std::uint8_t lnh, std::uint16_t dlid, std::uint16_t slid,
          std::uint16_t pkt_words, std::uint8_t lver = 0);
Bytes grh(const Ip6 &sgid, const Ip6 &dgid, std::size_t payload_len, std::uint8_t next_header = 0x1B);

Bytes zeros(std::size_t n);

}  // namespace weft::dataplane::test
