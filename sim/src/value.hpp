// One value of a scenario setting with where it came from, and its readers: numbers, rates,
// times, byte counts, switches. Every reader throws routing::ParseError at the value's column.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "weft/sim/time.hpp"

namespace weft::sim {

struct Value {
    std::string_view text;
    const std::string *file = nullptr;
    std::size_t line = 0;
    std::size_t column = 0;  // of the value's first character

    [[noreturn]] void fail(const std::string &expected) const;
    [[noreturn]] void fail_at(std::size_t offset, const std::string &expected, std::string_view found) const;

    std::uint64_t uint(std::uint64_t min, std::uint64_t max) const;
    double number(double min, double max) const;
    bool boolean() const;
    Rate rate() const;              // "100G", "40Gbps", "25Gb/s", "800M"
    Time time() const;              // "1us", "0.5us", "250ns", "2ms", "1s", "0"
    std::uint64_t bytes() const;    // "1500", "64KB", "1MB", "2MiB" (KB = 1000, KiB = 1024)
    std::string_view word() const;  // one token without blanks
};

// The blank-separated fields of a line, up to a '#' comment, each with its column.
std::vector<Value> split_fields(std::string_view line, const std::string &file, std::size_t line_no);

}  // namespace weft::sim
