#include "size_cdf.hpp"

#include <algorithm>
#include <cmath>

#include "line_reader.hpp"
#include "value.hpp"
#include "weft/routing/parse_error.hpp"

namespace weft::sim {

SizeCdf SizeCdf::parse(std::string_view text, const std::string &name) {
    SizeCdf cdf;
    LineReader lines(text);
    for (std::string_view line; lines.next(line);) {
        const std::size_t line_no = lines.number();
        const std::vector<Value> fields = split_fields(line, name, line_no);
        if (fields.empty()) continue;
        if (fields.size() > 2)
            throw routing::ParseError(name, line_no, fields[2].column, "end of line after 'bytes percent'");
        if (fields.size() < 2)
            throw routing::ParseError(name, line_no, fields[0].column + fields[0].text.size(),
                                      "a percent after the size");
        const Value &bytes = fields[0], &percent = fields[1];
        Point p{bytes.number(0, 1e12), percent.number(0, 100)};
        if (!cdf.points_.empty()) {
            const Point &last = cdf.points_.back();
            if (p.bytes < last.bytes) bytes.fail("a size at least the previous line's");
            if (p.percent < last.percent) percent.fail("a percent at least the previous line's");
        }
        cdf.points_.push_back(p);
    }
    const std::size_t last = lines.number();
    if (cdf.points_.empty()) throw routing::ParseError(name, last, 0, "at least one 'bytes percent' line");
    if (cdf.points_.back().percent != 100)
        throw routing::ParseError(name, last, 0, "the last line at 100 percent");
    if (cdf.points_.back().bytes < 1)
        throw routing::ParseError(name, last, 0, "a largest size of 1 byte or more");
    return cdf;
}

std::uint64_t SizeCdf::sample(double u) const {
    const double pct = u * 100;
    // The first point at or above pct; interpolate from the one before it.
    const auto it = std::lower_bound(points_.begin(), points_.end(), pct,
                                     [](const Point &p, double v) { return p.percent < v; });
    double bytes;
    if (it == points_.begin()) {
        bytes = it->bytes;
    } else if (it == points_.end()) {
        bytes = points_.back().bytes;
    } else {
        const Point &a = *(it - 1), &b = *it;
        bytes = b.percent == a.percent
                    ? b.bytes
                    : a.bytes + (b.bytes - a.bytes) * (pct - a.percent) / (b.percent - a.percent);
    }
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(bytes)));
}

double SizeCdf::mean() const {
    double sum = points_.front().bytes * points_.front().percent / 100;
    for (std::size_t i = 1; i < points_.size(); ++i) {
        const Point &a = points_[i - 1], &b = points_[i];
        sum += (a.bytes + b.bytes) / 2 * (b.percent - a.percent) / 100;
    }
    return std::max(1.0, sum);
}

}  // namespace weft::sim
