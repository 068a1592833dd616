// NodeDescription (IBA 14.2.5.2): 64 bytes of UTF-8 text naming the node, NUL-padded.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "weft/sm/smp.hpp"

namespace weft::sm {

struct NodeDescription {
    static constexpr std::uint16_t kAttributeId = attr::kNodeDescription;

    std::string text;  // up to 64 bytes, no NUL

    friend bool operator==(const NodeDescription &, const NodeDescription &) = default;
};

// The text up to the first NUL; bytes after it are padding and ignored (some firmware leaves
// old text there).
Result<NodeDescription> decode_node_description(std::span<const std::uint8_t> data);
Result<NodeDescription> decode_node_description(const Smp &smp);
Result<SmpData> encode_node_description(const NodeDescription &desc);

// A description fit for logs, dumps and topology files: control characters and bytes that are
// not UTF-8 become spaces (as OpenSM cleans node descriptions), valid UTF-8 stays.
std::string printable_node_description(std::string_view text);

}  // namespace weft::sm
