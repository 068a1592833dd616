#include "weft/dataplane/flow_key.hpp"

#include <cstring>

namespace weft::dataplane {

namespace {

__extension__ typedef unsigned __int128 Wide;

// Multiply and fold (wyhash's "mum"): every bit of both inputs reaches the 64-bit result in one
// multiplication, so three independent products and one final one mix the whole key.
inline std::uint64_t mum(std::uint64_t a, std::uint64_t b) noexcept {
    const Wide p = static_cast<Wide>(a) * b;
    return static_cast<std::uint64_t>(p) ^ static_cast<std::uint64_t>(p >> 64);
}

inline std::uint64_t load32(const std::uint8_t *p) noexcept {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

// Each 64-bit word is put together from the key's fields at their own widths: the parser has
// just written them with stores of those widths, and a wider load spanning several of them
// would wait for the stores to retire instead of taking their values directly.
inline std::uint64_t address_word(const std::uint8_t *p) noexcept {
    return load32(p) | (load32(p + 4) << 32);
}

}  // namespace

std::uint32_t flow_hash(const FlowKey &key) noexcept {
    const std::uint64_t ports =
        key.dest_qp | (std::uint64_t{key.src_port} << 32) | (std::uint64_t{key.dst_port} << 48);
    const std::uint64_t kind = key.protocol | (std::uint64_t{static_cast<std::uint8_t>(key.kind)} << 8);
    const std::uint64_t a =
        mum(address_word(key.src) ^ 0xa0761d6478bd642fULL, address_word(key.src + 8) ^ 0xe7037ed1a0b428dbULL);
    const std::uint64_t b =
        mum(address_word(key.dst) ^ 0x8ebc6af09c88c6e3ULL, address_word(key.dst + 8) ^ 0x589965cc75374cc3ULL);
    const std::uint64_t c = mum(ports ^ 0x1d8e4e27c47d124fULL, kind ^ 0x9e3779b97f4a7c15ULL);
    const std::uint64_t h = mum(a ^ c ^ 0xd6e8feb86659fd93ULL, b ^ 0xa0761d6478bd642fULL);
    return static_cast<std::uint32_t>(h ^ (h >> 32));
}

}  // namespace weft::dataplane
