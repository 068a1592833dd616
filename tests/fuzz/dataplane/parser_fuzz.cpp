// libFuzzer target: the frame parser on arbitrary bytes. Besides "no crash, no out-of-bounds
// read" it checks what the forwarding stage relies on: every offset of an accepted frame lies
// inside the frame, and the hash is the hash of the key. The worker's IPv4 and IPv6 fast paths
// run on the same bytes: whatever they accept, the full parser must accept with the same result.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

#include "ipv4_fast_parse.hpp"
#include "ipv6_fast_parse.hpp"
#include "weft/dataplane/parser.hpp"

using namespace weft::dataplane;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::span<const std::uint8_t> frame(data, size);
    ParserConfig configs[2];
    configs[1].iboe_ethertype = 0x8915;  // RoCEv1's EtherType, to reach the IBoE path by another value
    configs[1].verify_ipv4_checksum = false;
    for (const ParserConfig &cfg : configs) {
        ParsedPacket p;
        const DropReason r = parse_frame(frame, cfg, p);
        if (static_cast<std::size_t>(r) >= kDropReasonCount) std::abort();
        FastParsed f{};
        if (parse_ipv4_fast(data, size, cfg.verify_ipv4_checksum, f)) {
            const std::uint32_t dst = (std::uint32_t{p.key.dst[0]} << 24) |
                                      (std::uint32_t{p.key.dst[1]} << 16) |
                                      (std::uint32_t{p.key.dst[2]} << 8) | p.key.dst[3];
            if (r != DropReason::None || p.kind != PacketKind::Ipv4 || p.l3_offset != kFastL3Offset ||
                p.ttl != f.ttl || p.hash != f.hash || dst != f.dst4)
                std::abort();
        }
        FastParsed6 f6{};
        if (parse_ipv6_fast(data, size, f6) &&
            (r != DropReason::None || p.kind != PacketKind::Ipv6 || p.l3_offset != kFastL3Offset ||
             p.ttl != f6.hop_limit || p.hash != f6.hash || std::memcmp(p.key.dst, f6.dst, 16) != 0))
            std::abort();
        if (r != DropReason::None) continue;
        if (p.l3_offset < 14 || p.l3_offset >= size) std::abort();
        if (p.l4_offset != 0 && (p.l4_offset <= p.l3_offset || p.l4_offset >= size)) std::abort();
        if (p.hash != flow_hash(p.key)) std::abort();
        if (p.kind == PacketKind::Iboe && (p.sl > 15 || p.vl > 15 || p.lnh > 3)) std::abort();
        // 18-bit LIDs: the LRH's 16 bits and the two reserved bits each (parser.hpp), nothing more.
        if (p.kind == PacketKind::Iboe) {
            const std::uint8_t *l = data + p.l3_offset;
            const std::uint32_t dlid = (std::uint32_t{l[1]} >> 2 & 3) << 16 | std::uint32_t{l[2]} << 8 | l[3];
            const std::uint32_t slid = (std::uint32_t{l[4]} >> 6) << 16 | std::uint32_t{l[6]} << 8 | l[7];
            if (p.dlid != dlid || p.slid != slid || p.key.dst_port != (dlid & 0xFFFF) ||
                p.key.protocol != (p.lnh | (dlid >> 16) << 2 | (slid >> 16) << 4))
                std::abort();
        }
    }
    return 0;
}
