// The ARN message codec: the draft's 4-byte header, then the parameters the Para-Type bitmap
// announces, packed in bitmap order (message.hpp; bytes in arn/ARN_FORMAT.md).
//
// Decoding takes outside input and refuses anything malformed with an ArnError (reason, byte
// offset, value found); encoding takes our own message and throws std::invalid_argument on a
// field out of range, a bug of the caller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "weft/arn/decode_error.hpp"
#include "weft/arn/message.hpp"

namespace weft::arn {

// What may follow the last parameter. The message carries no length of its own: over UDP the
// datagram ends with it, in an Ethernet frame it is padded with zeros to the minimum frame size.
enum class Trailing : std::uint8_t { kRefuse, kZeroPadding };

struct ArnDecode {
    ArnMessage message;
    std::size_t size = 0;  // bytes of the message, padding excluded
    std::optional<ArnError> error;

    bool ok() const { return !error; }
    explicit operator bool() const { return ok(); }
};

// Bytes encode_arn writes for `m`.
std::size_t arn_size(const ArnMessage &m);

// Writes the message into `out` and returns its size. Throws std::invalid_argument when the
// message breaks a rule the decoder checks or `out` is too small.
std::size_t encode_arn(const ArnMessage &m, std::span<std::uint8_t> out);
std::vector<std::uint8_t> encode_arn(const ArnMessage &m);

// Reads a message; `base` is added to the offsets of errors (where the message sits in a frame).
ArnDecode decode_arn(std::span<const std::uint8_t> bytes, Trailing trailing = Trailing::kRefuse,
                     std::size_t base = 0);

}  // namespace weft::arn
