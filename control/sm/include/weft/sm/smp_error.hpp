// A located error from the SMP codec: which field held which value, and what was expected there.
// Decoding outside input returns one instead of throwing, so a malformed MAD is counted and
// logged with its place and the sweep goes on.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace weft::sm {

struct SmpError {
    std::string_view field;     // "PortInfo.NeighborMTU", "SMP.hop_count": a literal, never owned
    std::uint64_t value = 0;    // what was found there
    std::string_view expected;  // "1..5 (256..4096 bytes)"

    std::string message() const;
    friend bool operator==(const SmpError &, const SmpError &) = default;
};

// The value, or where it went wrong.
template <class T>
class Result {
  public:
    Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit, so `return value;` reads well
    Result(SmpError error) : v_(error) {}      // NOLINT

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    const T &value() const & { return std::get<0>(v_); }
    T &value() & { return std::get<0>(v_); }
    T &&value() && { return std::get<0>(std::move(v_)); }
    const T &operator*() const & { return value(); }
    const T *operator->() const { return &value(); }
    const SmpError &error() const { return std::get<1>(v_); }

  private:
    std::variant<T, SmpError> v_;
};

}  // namespace weft::sm
