// A set of the switch's ports (an MFT entry): one bit per port, as many 64-bit words as
// kMaxPorts needs, so the MFT is as wide as the build's RTE_MAX_ETHPORTS, not capped at 64. With
// the default 32 ports it is one word, as the MFT always was.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "weft/dataplane/limits.hpp"

namespace weft::dataplane {

template <std::size_t Ports>
struct BasicPortMask {
    static constexpr std::size_t kWords = (Ports + 63) / 64;
    std::array<std::uint64_t, kWords> words{};

    constexpr BasicPortMask() = default;
    // Ports 0..63 from one word (the set a 64-bit mask names).
    constexpr BasicPortMask(std::uint64_t low) noexcept { words[0] = low; }  // NOLINT: implicit on purpose

    // port < kWords * 64.
    constexpr void set(std::uint16_t port) noexcept { words[port / 64] |= std::uint64_t{1} << (port % 64); }
    constexpr void reset(std::uint16_t port) noexcept {
        if (port < kWords * 64) words[port / 64] &= ~(std::uint64_t{1} << (port % 64));
    }
    constexpr bool test(std::uint16_t port) const noexcept {
        return port < kWords * 64 && ((words[port / 64] >> (port % 64)) & 1) != 0;
    }
    constexpr bool none() const noexcept {
        std::uint64_t any = 0;
        for (std::uint64_t w : words) any |= w;
        return any == 0;
    }
    // The highest port set, plus one (0: none).
    constexpr unsigned end() const noexcept {
        for (std::size_t k = kWords; k-- > 0;)
            if (words[k] != 0) return static_cast<unsigned>(k * 64 + 64 - __builtin_clzll(words[k]));
        return 0;
    }
    // f(port) for every port set, in order.
    template <class F>
    constexpr void for_each(F f) const {
        for (std::size_t k = 0; k < kWords; ++k)
            for (std::uint64_t m = words[k]; m != 0; m &= m - 1)
                f(static_cast<std::uint16_t>(k * 64 + static_cast<unsigned>(__builtin_ctzll(m))));
    }
    friend constexpr bool operator==(const BasicPortMask &, const BasicPortMask &) = default;
};

using PortMask = BasicPortMask<kMaxPorts>;

}  // namespace weft::dataplane
