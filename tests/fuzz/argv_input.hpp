// Fuzz targets of command lines take argv as their input, one argument per line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace weft::fuzz {

// The arguments, argv0 first; nullopt when the input holds a NUL (no C string can).
inline std::optional<std::vector<std::string>> argv_lines(const std::uint8_t *data, std::size_t size,
                                                          const char *argv0) {
    std::vector<std::string> args{argv0};
    std::string cur;
    for (std::size_t i = 0; i < size; ++i) {
        const char c = static_cast<char>(data[i]);
        if (c == '\n') {
            args.push_back(cur), cur.clear();
        } else if (c == '\0') {
            return std::nullopt;
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) args.push_back(cur);
    return args;
}

// argv for getopt: pointers into `args`, null-terminated.
inline std::vector<char *> argv_of(std::vector<std::string> &args) {
    std::vector<char *> argv;
    for (auto &a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    return argv;
}

}  // namespace weft::fuzz
