#include "weft/sm/node_description.hpp"

#include <algorithm>

namespace weft::sm {

Result<NodeDescription> decode_node_description(std::span<const std::uint8_t> data) {
    if (data.size() != kSmpDataSize) return SmpError{"NodeDescription.size", data.size(), "64 bytes"};
    const auto end = std::find(data.begin(), data.end(), std::uint8_t{0});
    return NodeDescription{std::string(data.begin(), end)};
}

Result<NodeDescription> decode_node_description(const Smp &smp) {
    if (auto err = check_attribute(smp, NodeDescription::kAttributeId)) return *err;
    return decode_node_description(smp.data);
}

Result<SmpData> encode_node_description(const NodeDescription &desc) {
    if (desc.text.size() > kSmpDataSize)
        return SmpError{"NodeDescription.text", desc.text.size(), "at most 64 bytes"};
    if (desc.text.find('\0') != std::string::npos)
        return SmpError{"NodeDescription.text", desc.text.find('\0'), "no NUL inside the text"};
    SmpData data{};
    std::copy(desc.text.begin(), desc.text.end(), data.begin());
    return data;
}

}  // namespace weft::sm
