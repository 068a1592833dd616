#include "ca_traffic.hpp"

#include <algorithm>

namespace weft::sm::tools {

namespace {

void put64(std::uint8_t *p, std::uint64_t v) {
    for (int i = 7; i >= 0; --i, v >>= 8) p[i] = static_cast<std::uint8_t>(v);
}
std::uint64_t get64(const std::uint8_t *p) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | p[i];
    return v;
}

}  // namespace

void encode_ca_payload(const CaDatagram &d, std::span<std::uint8_t> payload) {
    std::copy(kCaMagic.begin(), kCaMagic.end(), payload.begin());
    put64(payload.data() + 8, d.seq);
    put64(payload.data() + 16, d.sent_ns);
}

std::optional<CaDatagram> decode_ca_payload(std::span<const std::uint8_t> payload) {
    if (payload.size() < kCaPayloadMin || !std::equal(kCaMagic.begin(), kCaMagic.end(), payload.begin()))
        return std::nullopt;
    return CaDatagram{get64(payload.data() + 8), get64(payload.data() + 16)};
}

void CaReceiver::take(const IboePacket &p, Lid own_lid) {
    const IboeHeaders &h = p.headers;
    if (h.dest_qp != kCaDataQp) {
        ++counters_.other_qp;
        return;
    }
    if (own_lid == 0 || h.dlid != own_lid) {
        ++counters_.misdelivered;
        return;
    }
    const std::optional<CaDatagram> d = decode_ca_payload(p.payload);
    if (!d) {
        ++counters_.not_ca_data;
        return;
    }
    ++counters_.taken;
    CaFlow &f = flows_[h.slid];
    if (f.received && d->seq < f.highest) ++f.reordered;
    f.highest = f.received ? std::max(f.highest, d->seq) : d->seq;
    ++f.received;
}

}  // namespace weft::sm::tools
