// Private: big-endian reads and writes, and the field rules the encoder and decoder share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "weft/arn/decode_error.hpp"
#include "weft/arn/message.hpp"

namespace weft::arn::wire {

inline std::uint16_t be16(const std::uint8_t *p) {
    return static_cast<std::uint16_t>((p[0] << 8) | p[1]);
}
inline std::uint32_t be32(const std::uint8_t *p) {
    return (std::uint32_t{be16(p)} << 16) | be16(p + 2);
}
inline std::uint64_t be64(const std::uint8_t *p) {
    return (std::uint64_t{be32(p)} << 32) | be32(p + 4);
}
// Writes return the byte after the field.
inline std::uint8_t *put16(std::uint8_t *p, std::uint32_t v) {
    p[0] = static_cast<std::uint8_t>(v >> 8);
    p[1] = static_cast<std::uint8_t>(v);
    return p + 2;
}
inline std::uint8_t *put32(std::uint8_t *p, std::uint32_t v) {
    return put16(put16(p, v >> 16), v);
}
inline std::uint8_t *put64(std::uint8_t *p, std::uint64_t v) {
    return put32(put32(p, static_cast<std::uint32_t>(v >> 32)), static_cast<std::uint32_t>(v));
}

inline bool known_type(std::uint8_t type) {
    return type >= kMinArnType && type <= kMaxArnType;
}

// Which Metric each Type allows.
inline bool metric_allowed(ArnType type, std::uint8_t metric) {
    switch (type) {
        case ArnType::kCongestionDetected:
            return metric >= 1 && metric <= kMaxSeverity;
        case ArnType::kFailureDetected:
            return metric == kFailureLinkDown;
        case ArnType::kCongestionEliminated:
        case ArnType::kFailureEliminated:
            return metric == 0;
    }
    return false;
}

inline std::size_t prefix_bytes(std::uint8_t length) {
    return (std::size_t{length} + 7) / 8;
}

// What is wrong with a prefix, if anything: family, length, then host bits.
inline std::optional<ArnDrop> prefix_problem(const DestPrefix &p) {
    if (p.family != 4 && p.family != 6) return ArnDrop::kBadPrefixFamily;
    if (p.length > (p.family == 4 ? 32 : 128)) return ArnDrop::kBadPrefixLength;
    for (std::size_t bit = p.length; bit < 128; ++bit)
        if ((p.address[bit / 8] >> (7 - bit % 8)) & 1) return ArnDrop::kPrefixHostBits;
    return std::nullopt;
}

}  // namespace weft::arn::wire
