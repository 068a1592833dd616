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

namespace {

// Bytes of the UTF-8 sequence starting at `s[i]` (2 to 4, shortest form, no surrogates, at most
// U+10FFFF), or 0 when none starts there.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const unsigned char c = b(0);
    const std::size_t n = c >= 0xC2 && c <= 0xDF   ? 2
                          : c >= 0xE0 && c <= 0xEF ? 3
                          : c >= 0xF0 && c <= 0xF4 ? 4
                                                   : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((b(k) & 0xC0) != 0x80) return 0;
    if (c == 0xE0 && b(1) < 0xA0) return 0;   // overlong
    if (c == 0xED && b(1) >= 0xA0) return 0;  // surrogate
    if (c == 0xF0 && b(1) < 0x90) return 0;   // overlong
    if (c == 0xF4 && b(1) >= 0x90) return 0;  // past U+10FFFF
    return n;
}

}  // namespace

std::string printable_node_description(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7F) {
            out += text[i++];
        } else if (const std::size_t n = c >= 0x80 ? utf8_sequence(text, i) : 0; n != 0) {
            out.append(text.substr(i, n));
            i += n;
        } else {
            out += ' ';
            ++i;
        }
    }
    return out;
}

}  // namespace weft::sm
