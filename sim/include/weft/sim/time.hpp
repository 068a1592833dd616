// Simulated time and link rates.
//
// Time is an integer count of picoseconds: a byte at 800 Gb/s is 10 ps, so serialization times of
// every common rate are exact, and 2^64 ps (213 days) is far beyond any run. The ARS engine is
// given nanoseconds as its ticks (its flowlet clock keeps 48 bits: 3 days of nanoseconds).
#pragma once

#include <cstdint>

namespace weft::sim {

using Time = std::uint64_t;  // picoseconds

inline constexpr Time kPs = 1;
inline constexpr Time kNs = 1000;
inline constexpr Time kUs = 1000 * kNs;
inline constexpr Time kMs = 1000 * kUs;
inline constexpr Time kSec = 1000 * kMs;
inline constexpr Time kNever = ~Time{0};

constexpr double to_us(Time t) {
    return static_cast<double>(t) / static_cast<double>(kUs);
}

// The ARS engine's tick: one nanosecond.
inline constexpr std::uint64_t kArsTicksPerUs = 1000;
constexpr std::uint64_t ars_ticks(Time t) {
    return t / kNs;
}

// A link rate as the time one byte takes, in 1/1024 ps, so that a packet's serialization time is
// one multiply and shift (rates whose byte time is not a whole picosecond stay within 0.001 ps
// per byte).
class Rate {
  public:
    constexpr Rate() = default;
    explicit constexpr Rate(double bits_per_second)
        : bps_(bits_per_second),
          byte_time_q10_(
              bits_per_second > 0 ? static_cast<std::uint64_t>(8.0e12 * 1024.0 / bits_per_second + 0.5) : 0) {
    }

    constexpr double bps() const { return bps_; }
    constexpr double gbps() const { return bps_ / 1e9; }
    // Time to send `bytes`.
    constexpr Time serialize(std::uint64_t bytes) const { return (bytes * byte_time_q10_ + 512) >> 10; }
    // Bytes sent in `t` (rounded down).
    constexpr std::uint64_t bytes_in(Time t) const {
        return byte_time_q10_ == 0 ? 0 : (t << 10) / byte_time_q10_;
    }
    constexpr bool operator==(const Rate &o) const { return byte_time_q10_ == o.byte_time_q10_; }

  private:
    double bps_ = 0;
    std::uint64_t byte_time_q10_ = 0;
};

}  // namespace weft::sim
