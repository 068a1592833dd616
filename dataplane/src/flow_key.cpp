#include "weft/dataplane/flow_key.hpp"

#include <cstring>

namespace weft::dataplane {

namespace {

// Final mixer of MurmurHash3's 64-bit variant: every input bit affects every output bit.
inline std::uint64_t mix64(std::uint64_t h) noexcept {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

}  // namespace

std::uint32_t flow_hash(const FlowKey &key) noexcept {
    std::uint64_t words[sizeof(FlowKey) / 8];
    std::memcpy(words, &key, sizeof words);
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (std::uint64_t w : words) h = mix64(h ^ w) + 0x9e3779b97f4a7c15ULL;
    return static_cast<std::uint32_t>(h ^ (h >> 32));
}

}  // namespace weft::dataplane
