#include "weft/routing/seeded_rng.hpp"

namespace weft::routing {
namespace {

std::uint64_t splitmix(std::uint64_t &x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

}  // namespace

SeededRng::SeededRng(std::uint64_t seed) {
    for (auto &s : s_) s = splitmix(seed);
}

std::uint64_t SeededRng::next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

std::uint64_t SeededRng::below(std::uint64_t bound) {
    // Rejection sampling on the top of the range keeps every value equally likely.
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % bound);
    std::uint64_t x;
    do x = next();
    while (x >= limit);
    return x % bound;
}

double SeededRng::unit() {
    return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace weft::routing
