// The engine's own small, fast, seeded generator (xorshift64*), one per worker.
#pragma once

#include <cstdint>

namespace weft::ars {

class Rng {
  public:
    // splitmix64 spreads (seed, stream) over the state so workers with the same profile seed get
    // independent, reproducible sequences; the state is never zero.
    Rng(std::uint64_t seed, std::uint64_t stream) {
        std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (stream + 1);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        state_ = z != 0 ? z : 0x2545F4914F6CDD1Dull;
    }

    std::uint64_t next() {
        state_ ^= state_ >> 12;
        state_ ^= state_ << 25;
        state_ ^= state_ >> 27;
        return state_ * 0x2545F4914F6CDD1Dull;
    }

    // Uniform in [0, n) without division (multiply-shift on the high 32 bits).
    std::uint32_t below(std::uint32_t n) {
        return static_cast<std::uint32_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
    }

  private:
    std::uint64_t state_;
};

}  // namespace weft::ars
