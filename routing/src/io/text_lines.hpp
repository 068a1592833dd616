// Private helpers for the line-oriented readers: splitting text into numbered lines and a
// cursor over one line that knows its column, so every error can be located.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "weft/routing/parse_error.hpp"

namespace weft::routing::io {

struct TextLine {
    std::string_view text;  // without the line break (and without a trailing '\r')
    std::size_t number;     // 1-based
};

std::vector<TextLine> split_lines(std::string_view text);

inline bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}
std::string_view trim(std::string_view s);
bool starts_with_word(std::string_view s, std::string_view word);  // case-sensitive prefix
std::string printable(std::string_view s);  // for error messages: clipped, control chars escaped

class LineCursor {
  public:
    LineCursor(const std::string &file, TextLine line) : file_(file), line_(line) {}

    std::size_t column() const { return pos_ + 1; }
    std::size_t pos() const { return pos_; }
    void seek(std::size_t p) { pos_ = p; }
    bool at_end() const { return pos_ >= line_.text.size(); }
    char peek() const { return at_end() ? '\0' : line_.text[pos_]; }
    std::string_view rest() const {
        return line_.text.substr(pos_ < line_.text.size() ? pos_ : line_.text.size());
    }
    std::string_view text() const { return line_.text; }
    void skip_space() {
        while (!at_end() && is_space(line_.text[pos_])) ++pos_;
    }
    bool accept(char c) {
        if (peek() != c) return false;
        ++pos_;
        return true;
    }
    bool accept(std::string_view word) {
        if (rest().substr(0, word.size()) != word) return false;
        pos_ += word.size();
        return true;
    }
    void expect(char c, const char *what);
    // Unsigned integer: decimal, or hex with 0x when allow_hex_prefix; `hex_only` reads bare hex.
    std::uint64_t read_uint(const char *what, bool hex_only = false, std::uint64_t max = ~std::uint64_t{0});
    std::optional<std::uint64_t> try_uint(bool hex_only = false);
    std::string_view read_quoted(const char *what);  // "..." without the quotes
    std::string_view read_word();                    // up to whitespace
    [[noreturn]] void fail(const std::string &expected) const;
    [[noreturn]] void fail_at(std::size_t col, const std::string &expected, std::string_view found) const;

  private:
    const std::string &file_;
    TextLine line_;
    std::size_t pos_ = 0;
};

}  // namespace weft::routing::io
