// The one source of randomness in routing/: a small, fully specified generator (splitmix64
// seeding a xoshiro256**), so a seed gives the same fabric, failure set or traffic pattern on
// every compiler and platform (std:: distributions are implementation-defined).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace weft::routing {

class SeededRng {
  public:
    explicit SeededRng(std::uint64_t seed);
    std::uint64_t next();
    // Uniform in [0, bound) without modulo bias; bound must be > 0.
    std::uint64_t below(std::uint64_t bound);
    double unit();  // uniform in [0, 1)
    template <class T>
    void shuffle(std::vector<T> &v) {
        for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
    }

  private:
    std::uint64_t s_[4];
};

}  // namespace weft::routing
