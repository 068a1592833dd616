#include "text_lines.hpp"

#include <limits>

namespace weft::routing::io {

std::vector<TextLine> split_lines(std::string_view text) {
    std::vector<TextLine> out;
    std::size_t start = 0, number = 1;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view l = text.substr(start, end - start);
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
        out.push_back({l, number++});
        start = end + 1;
    }
    return out;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

bool starts_with_word(std::string_view s, std::string_view word) {
    return s.substr(0, word.size()) == word;
}

std::string printable(std::string_view s) {
    std::string out;
    for (char c : s.substr(0, 40)) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u >= 0x7f) {
            static const char *hex = "0123456789abcdef";
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 15];
        } else {
            out += c;
        }
    }
    if (s.size() > 40) out += "...";
    return out;
}

void LineCursor::fail(const std::string &expected) const {
    std::string_view found = rest();
    std::size_t n = 0;
    while (n < found.size() && !is_space(found[n])) ++n;
    fail_at(column(), expected, at_end() ? std::string_view{"end of line"} : found.substr(0, n ? n : 1));
}

void LineCursor::fail_at(std::size_t col, const std::string &expected, std::string_view found) const {
    throw ParseError(file_, line_.number, col, expected, printable(found));
}

void LineCursor::expect(char c, const char *what) {
    if (!accept(c)) fail(what);
}

std::optional<std::uint64_t> LineCursor::try_uint(bool hex_only) {
    const std::size_t start = pos_;
    bool hex = hex_only;
    if (!hex_only && rest().size() > 2 && line_.text[pos_] == '0' &&
        (line_.text[pos_ + 1] == 'x' || line_.text[pos_ + 1] == 'X')) {
        hex = true;
        pos_ += 2;
    }
    std::uint64_t v = 0;
    std::size_t digits = 0;
    while (!at_end()) {
        const char c = line_.text[pos_];
        unsigned d;
        if (c >= '0' && c <= '9')
            d = static_cast<unsigned>(c - '0');
        else if (hex && c >= 'a' && c <= 'f')
            d = static_cast<unsigned>(c - 'a' + 10);
        else if (hex && c >= 'A' && c <= 'F')
            d = static_cast<unsigned>(c - 'A' + 10);
        else
            break;
        const unsigned base = hex ? 16 : 10;
        if (v > (std::numeric_limits<std::uint64_t>::max() - d) / base) {
            pos_ = start;
            return std::nullopt;  // overflow
        }
        v = v * base + d;
        ++pos_;
        ++digits;
    }
    if (!digits) {
        pos_ = start;
        return std::nullopt;
    }
    return v;
}

std::uint64_t LineCursor::read_uint(const char *what, bool hex_only, std::uint64_t max) {
    const std::size_t col = column();
    auto v = try_uint(hex_only);
    if (!v) fail(what);
    if (*v > max)
        fail_at(col, std::string(what) + " (at most " + std::to_string(max) + ")", std::to_string(*v));
    return *v;
}

std::string_view LineCursor::read_quoted(const char *what) {
    if (peek() != '"') fail(what);
    const std::size_t close = line_.text.find('"', pos_ + 1);
    if (close == std::string_view::npos)
        fail_at(column(), std::string(what) + " with a closing quote", rest());
    std::string_view v = line_.text.substr(pos_ + 1, close - pos_ - 1);
    pos_ = close + 1;
    return v;
}

std::string_view LineCursor::read_word() {
    const std::size_t start = pos_;
    while (!at_end() && !is_space(line_.text[pos_])) ++pos_;
    return line_.text.substr(start, pos_ - start);
}

}  // namespace weft::routing::io
