// A flow-size distribution: points `bytes percent` (percent of flows at most that size), sampled
// by linear interpolation between points, as the load-balancing papers' traffic generators do.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace weft::sim {

class SizeCdf {
  public:
    struct Point {
        double bytes = 0;
        double percent = 0;
    };

    // Throws routing::ParseError (file:line:column) on a malformed or non-monotonic file.
    static SizeCdf parse(std::string_view text, const std::string &name);

    // The size for a uniform u in [0, 1), at least one byte.
    std::uint64_t sample(double u) const;
    // The mean of the interpolated distribution (each segment uniform between its ends).
    double mean() const;
    const std::vector<Point> &points() const { return points_; }

  private:
    std::vector<Point> points_;
};

}  // namespace weft::sim
