// A located error from a reader of outside input (topology files, GUID lists, guid2lid, specs).
// Readers never crash or guess on malformed input: they throw this, naming the file, the line
// and column (1-based; 0 when not applicable) and what was expected there.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace weft::routing {

class ParseError : public std::runtime_error {
  public:
    ParseError(std::string file, std::size_t line, std::size_t column, std::string expected,
               std::string found = {});

    const std::string &file() const { return file_; }
    std::size_t line() const { return line_; }
    std::size_t column() const { return column_; }
    const std::string &expected() const { return expected_; }
    const std::string &found() const { return found_; }

  private:
    std::string file_;
    std::size_t line_;
    std::size_t column_;
    std::string expected_;
    std::string found_;
};

}  // namespace weft::routing
