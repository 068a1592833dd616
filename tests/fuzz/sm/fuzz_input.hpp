// The fuzz targets of control/sm take what the wire carries: a 256-byte SMP (their seeds are
// replies captured from ibsim). The attribute targets decode its data area with its attribute
// modifier; input of another length is handed to them whole, so their size checks are fuzzed
// too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "weft/sm/smp.hpp"

namespace weft::sm::fuzz {

struct AttributeInput {
    std::span<const std::uint8_t> data;
    std::uint32_t attr_mod = 0;
};

inline AttributeInput attribute_input(const std::uint8_t *bytes, std::size_t size) {
    if (size != kSmpSize) return {std::span(bytes, size), 0};
    const std::uint32_t mod = std::uint32_t{bytes[20]} << 24 | std::uint32_t{bytes[21]} << 16 |
                              std::uint32_t{bytes[22]} << 8 | bytes[23];
    return {std::span(bytes + kSmpDataOffset, kSmpDataSize), mod};
}

// Decoding what we encoded gives it back, and encoding what we decoded succeeds: anything else
// is a codec bug.
template <class T, class Encode, class Decode>
void expect_round_trip(const T &value, Encode encode, Decode decode) {
    const auto bytes = encode(value);
    if (!bytes) std::abort();
    const auto again = decode(bytes.value());
    if (!again || !(again.value() == value)) std::abort();
}

}  // namespace weft::sm::fuzz
