#include "weft/dataplane/flow_key.hpp"

#include <cstring>

namespace weft::dataplane {

namespace {

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
    const std::uint64_t ports = key.dest_qp | (std::uint64_t{__builtin_bswap16(key.src_port)} << 32) |
                                (std::uint64_t{__builtin_bswap16(key.dst_port)} << 48);
    const std::uint64_t kind = key.protocol | (std::uint64_t{static_cast<std::uint8_t>(key.kind)} << 8);
    return flow_hash_words(address_word(key.src), address_word(key.src + 8), address_word(key.dst),
                           address_word(key.dst + 8), ports, kind);
}

}  // namespace weft::dataplane
