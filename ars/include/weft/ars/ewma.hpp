// The EWMA of SAI's ARS profile, in fixed point.
#pragma once

#include <cstdint>

namespace weft::ars {

// avg = sample * 2^-e + avg * (1 - 2^-e), with the PORT_LOAD_CURRENT rule: when enabled and the
// new sample is below the average, the average snaps down to the sample (load falls fast, rises
// smoothly). Values carry kFractionBits fraction bits so small exponents do not lose the signal.
class Ewma {
  public:
    static constexpr int kFractionBits = 8;

    // Returns whether the average moved (an equal sample again would not move it either).
    bool update(std::uint64_t sample, unsigned exponent, bool snap_down_to_current) {
        const std::int64_t s = static_cast<std::int64_t>(sample << kFractionBits);
        const std::int64_t before = average_;
        if (snap_down_to_current && s < average_) {
            average_ = s;
            return true;
        }
        // Arithmetic shift of a negative difference rounds toward minus infinity; fine for a
        // filter, and the snap-down rule covers the falling edge when enabled.
        average_ += (s - average_) >> exponent;
        return average_ != before;
    }

    std::uint64_t value() const { return static_cast<std::uint64_t>(average_) >> kFractionBits; }
    void reset() { average_ = 0; }

  private:
    std::int64_t average_ = 0;
};

}  // namespace weft::ars
