// Fields of MADs by IBA bit position: bit 0 is the most significant bit of byte 0, a field of
// `width` bits runs to the right from `offset`. The attribute codecs list their fields once, in
// a visitor, and read and write them with FieldReader and FieldWriter, so that encoding is the
// exact inverse of decoding by construction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "weft/sm/smp_error.hpp"

namespace weft::sm::detail {

struct BitField {
    std::string_view name;
    unsigned offset;
    unsigned width;  // 1..64
};

inline std::uint64_t get_bits(std::span<const std::uint8_t> buf, unsigned offset, unsigned width) {
    std::uint64_t v = 0;
    for (unsigned i = offset; i < offset + width; ++i) v = (v << 1) | ((buf[i / 8] >> (7 - i % 8)) & 1u);
    return v;
}

inline void set_bits(std::span<std::uint8_t> buf, unsigned offset, unsigned width, std::uint64_t v) {
    for (unsigned i = offset + width; i-- > offset; v >>= 1) {
        const auto mask = static_cast<std::uint8_t>(1u << (7 - i % 8));
        buf[i / 8] = static_cast<std::uint8_t>((v & 1u) ? (buf[i / 8] | mask) : (buf[i / 8] & ~mask));
    }
}

constexpr std::uint64_t field_max(unsigned width) {
    return width >= 64 ? ~0ull : (1ull << width) - 1;
}

struct FieldReader {
    std::span<const std::uint8_t> buf;
    template <class T>
    void operator()(const BitField &f, T &member) const {
        member = static_cast<T>(get_bits(buf, f.offset, f.width));
    }
};

// Writes fields; the first value that does not fit its field is kept as the error (the rest are
// still written, the result is discarded).
struct FieldWriter {
    std::span<std::uint8_t> buf;
    std::optional<SmpError> error;
    template <class T>
    void operator()(const BitField &f, const T &member) {
        const auto v = static_cast<std::uint64_t>(member);
        if (v > field_max(f.width) && !error)
            error = SmpError{f.name, v, "a value that fits the field's width"};
        set_bits(buf, f.offset, f.width, v);
    }
};

}  // namespace weft::sm::detail
