#include "weft/routing/parse_error.hpp"

namespace weft::routing {
namespace {

std::string compose(const std::string &file, std::size_t line, std::size_t column,
                    const std::string &expected, const std::string &found) {
    std::string s = file;
    if (line) s += ":" + std::to_string(line);
    if (column) s += ":" + std::to_string(column);
    s += ": expected " + expected;
    if (!found.empty()) s += ", found '" + found + "'";
    return s;
}

}  // namespace

ParseError::ParseError(std::string file, std::size_t line, std::size_t column, std::string expected,
                       std::string found)
    : std::runtime_error(compose(file, line, column, expected, found)),
      file_(std::move(file)),
      line_(line),
      column_(column),
      expected_(std::move(expected)),
      found_(std::move(found)) {}

}  // namespace weft::routing
