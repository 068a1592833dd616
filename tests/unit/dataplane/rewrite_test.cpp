// Header rewrites: the incremental IPv4 checksum update must equal a full recomputation.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "rewrite.hpp"

using namespace weft::dataplane;

namespace {

std::uint16_t full_checksum(const std::array<std::uint8_t, 20> &h) {
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i < h.size(); i += 2)
        if (i != 10) sum += static_cast<std::uint32_t>((h[i] << 8) | h[i + 1]);
    while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
    return static_cast<std::uint16_t>(~sum);
}

}  // namespace

TEST(Rewrite, TtlDecrementKeepsTheChecksumRight) {
    // Every TTL a router may decrement, with headers whose sums hit the carry and the
    // all-ones cases (the identification field sweeps the sum through every value).
    for (unsigned ttl = 2; ttl <= 255; ++ttl) {
        for (unsigned id = 0; id <= 0xFFFF; id += 257) {
            std::array<std::uint8_t, 20> h{0x45,
                                           0,
                                           0,
                                           46,
                                           static_cast<std::uint8_t>(id >> 8),
                                           static_cast<std::uint8_t>(id),
                                           0,
                                           0,
                                           static_cast<std::uint8_t>(ttl),
                                           17,
                                           0,
                                           0,
                                           10,
                                           0,
                                           0,
                                           1,
                                           198,
                                           18,
                                           3,
                                           7};
            const std::uint16_t c = full_checksum(h);
            h[10] = static_cast<std::uint8_t>(c >> 8);
            h[11] = static_cast<std::uint8_t>(c);
            ipv4_decrement_ttl(h.data());
            ASSERT_EQ(h[8], ttl - 1);
            ASSERT_EQ(((h[10] << 8) | h[11]), full_checksum(h)) << "ttl " << ttl << " id " << id;
        }
    }
}
