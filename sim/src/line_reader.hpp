// The lines of a text one by one, without their line ends (\n or \r\n), numbered from 1: what
// every reader of weft-sim's text files walks.
#pragma once

#include <cstddef>
#include <string_view>

namespace weft::sim {

class LineReader {
  public:
    explicit LineReader(std::string_view text) : text_(text) {}

    // The next line; false after the last.
    bool next(std::string_view &line) {
        if (pos_ >= text_.size()) return false;
        std::size_t end = text_.find('\n', pos_);
        if (end == std::string_view::npos) end = text_.size();
        line = text_.substr(pos_, end - pos_);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        pos_ = end + 1;
        ++number_;
        return true;
    }
    // The number of the line next() gave last (0 before the first).
    std::size_t number() const { return number_; }

  private:
    std::string_view text_;
    std::size_t pos_ = 0;
    std::size_t number_ = 0;
};

}  // namespace weft::sim
