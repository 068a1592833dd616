#include "weft/routing/text_file.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <string_view>

#include "weft/routing/parse_error.hpp"

namespace weft::routing {

namespace {

std::string size_text(std::size_t bytes) {
    if (bytes % (std::size_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
    if (bytes % (std::size_t{1} << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
    return std::to_string(bytes) + " bytes";
}

}  // namespace

std::string read_text_file(const std::string &path, const TextLimits &limits) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::string text;
    char buf[64 << 10];
    std::size_t line = 1, line_len = 0;
    enum { kUnknown, kLines, kJson } kind = kUnknown;  // whether max_line applies
    for (;;) {
        in.read(buf, sizeof buf);
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0) break;
        if (text.size() + got > limits.max_bytes)
            throw std::runtime_error(path + ": larger than " + size_text(limits.max_bytes) +
                                     ", the most weft reads from one file");
        const std::string_view chunk(buf, got);
        if (kind == kUnknown) {
            const std::size_t first = chunk.find_first_not_of(" \t\r\n");
            if (first != std::string_view::npos) kind = chunk[first] == '{' ? kJson : kLines;
        }
        for (std::size_t at = 0; at < got;) {
            const std::size_t nl = chunk.find('\n', at);
            const std::size_t end = nl == std::string_view::npos ? got : nl;
            line_len += end - at;
            if (kind != kJson && line_len > limits.max_line)
                throw ParseError(path, line, 1, "a line of at most " + size_text(limits.max_line),
                                 "a longer line");
            if (nl == std::string_view::npos) break;
            ++line, line_len = 0, at = nl + 1;
        }
        text.append(buf, got);
    }
    if (in.bad()) throw std::runtime_error("cannot read " + path);
    return text;
}

}  // namespace weft::routing
