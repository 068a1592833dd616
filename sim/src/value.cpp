#include "value.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "weft/routing/parse_error.hpp"

namespace weft::sim {
namespace {

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

char lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool same_word(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

// A decimal number at the start of s (digits, an optional fraction); its length in `used`, 0 if
// there is none. No exponents, signs or hex: scenario values are written by people.
double leading_number(std::string_view s, std::size_t &used) {
    std::size_t i = 0;
    double v = 0;
    bool any = false;
    while (i < s.size() && is_digit(s[i])) {
        v = v * 10 + (s[i] - '0');
        ++i;
        any = true;
    }
    if (i < s.size() && s[i] == '.') {
        ++i;
        double scale = 0.1;
        while (i < s.size() && is_digit(s[i])) {
            v += (s[i] - '0') * scale;
            scale /= 10;
            ++i;
            any = true;
        }
    }
    used = any ? i : 0;
    return v;
}

struct Unit {
    std::string_view name;
    double factor;
};

}  // namespace

void Value::fail(const std::string &expected) const {
    throw routing::ParseError(*file, line, column, expected, std::string(text.substr(0, 64)));
}

void Value::fail_at(std::size_t offset, const std::string &expected, std::string_view found) const {
    throw routing::ParseError(*file, line, column + offset, expected, std::string(found.substr(0, 64)));
}

std::uint64_t Value::uint(std::uint64_t min, std::uint64_t max) const {
    const std::string range = std::to_string(min) + ".." + std::to_string(max);
    if (text.empty()) fail("a whole number " + range);
    std::uint64_t v = 0;
    for (char c : text) {
        if (!is_digit(c)) fail("a whole number " + range);
        const std::uint64_t d = static_cast<std::uint64_t>(c - '0');
        if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10) fail("a whole number " + range);
        v = v * 10 + d;
    }
    if (v < min || v > max) fail("a whole number " + range);
    return v;
}

double Value::number(double min, double max) const {
    std::size_t used = 0;
    const double v = leading_number(text, used);
    char buf[96];
    std::snprintf(buf, sizeof buf, "a number %g..%g", min, max);
    if (used == 0 || used != text.size() || v < min || v > max) fail(buf);
    return v;
}

bool Value::boolean() const {
    for (std::string_view t : {"on", "true", "yes", "1"})
        if (same_word(text, t)) return true;
    for (std::string_view f : {"off", "false", "no", "0"})
        if (same_word(text, f)) return false;
    fail("on or off");
}

Rate Value::rate() const {
    static constexpr Unit kUnits[] = {{"g", 1e9},    {"gbps", 1e9}, {"gb/s", 1e9}, {"m", 1e6},
                                      {"mbps", 1e6}, {"mb/s", 1e6}, {"t", 1e12},   {"tbps", 1e12}};
    std::size_t used = 0;
    const double v = leading_number(text, used);
    const std::string what = "a rate such as 100G, 40Gbps or 800M (at most 10T)";
    if (used == 0) fail(what);
    const std::string_view unit = text.substr(used);
    for (const Unit &u : kUnits)
        if (same_word(unit, u.name)) {
            const double bps = v * u.factor;
            if (bps < 1e6 || bps > 1e13) fail(what);
            return Rate(bps);
        }
    fail_at(used, what, unit);
}

Time Value::time() const {
    static constexpr Unit kUnits[] = {{"ps", 1}, {"ns", 1e3}, {"us", 1e6}, {"ms", 1e9}, {"s", 1e12}};
    std::size_t used = 0;
    const double v = leading_number(text, used);
    const std::string what = "a time such as 0, 250ns, 1.5us, 2ms or 1s (at most 1000s)";
    if (used == 0) fail(what);
    const std::string_view unit = text.substr(used);
    if (unit.empty()) {
        if (v != 0) fail_at(used, "a unit (ps, ns, us, ms, s)", unit);
        return 0;
    }
    for (const Unit &u : kUnits)
        if (same_word(unit, u.name)) {
            const double ps = v * u.factor;
            if (ps > 1e15) fail(what);
            return static_cast<Time>(std::llround(ps));
        }
    fail_at(used, what, unit);
}

std::uint64_t Value::bytes() const {
    static constexpr Unit kUnits[] = {{"", 1},
                                      {"b", 1},
                                      {"kb", 1e3},
                                      {"k", 1e3},
                                      {"mb", 1e6},
                                      {"m", 1e6},
                                      {"gb", 1e9},
                                      {"g", 1e9},
                                      {"kib", 1024.0},
                                      {"mib", 1024.0 * 1024},
                                      {"gib", 1024.0 * 1024 * 1024}};
    std::size_t used = 0;
    const double v = leading_number(text, used);
    const std::string what = "a size such as 1500, 64KB, 1MB or 2MiB (at most 1TB)";
    if (used == 0) fail(what);
    const std::string_view unit = text.substr(used);
    for (const Unit &u : kUnits)
        if (same_word(unit, u.name)) {
            const double b = v * u.factor;
            if (b > 1e12) fail(what);
            return static_cast<std::uint64_t>(std::llround(b));
        }
    fail_at(used, what, unit);
}

std::vector<Value> split_fields(std::string_view line, const std::string &file, std::size_t line_no) {
    std::vector<Value> fields;
    std::size_t i = 0;
    for (;;) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        if (i == line.size() || line[i] == '#') return fields;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
        fields.push_back(Value{line.substr(start, i - start), &file, line_no, start + 1});
    }
}

std::string_view Value::word() const {
    for (char c : text)
        if (c == ' ' || c == '\t') fail("one word");
    return text;
}

}  // namespace weft::sim
