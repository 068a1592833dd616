// Private: the Ethernet header in front of an ARN, both forms.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "weft/arn/frame.hpp"

namespace weft::arn::l2 {

// The MACs, up to two VLAN tags (the outer one's TCI kept) and the EtherType after them, which
// starts at `type_at`; or why the frame is too short for them.
struct Header {
    ArnFrameHeaders headers;
    std::size_t type_at = 12;
    std::uint16_t type = 0;
};
std::optional<ArnError> read(std::span<const std::uint8_t> frame, Header &out);

}  // namespace weft::arn::l2
