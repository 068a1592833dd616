// Which ports may carry traffic right now: operationally up, administratively up and started.
// One writer (the control thread), read by every worker per packet with relaxed loads, so a
// port that goes down leaves every selection as soon as the control thread notices.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "weft/dataplane/limits.hpp"

namespace weft::dataplane {

class LinkState {
  public:
    bool usable(std::uint16_t port) const noexcept {
        return port < kMaxPorts && usable_[port].load(std::memory_order_relaxed) != 0;
    }
    void set_usable(std::uint16_t port, bool up) noexcept {
        if (port < kMaxPorts) usable_[port].store(up ? 1 : 0, std::memory_order_relaxed);
    }

  private:
    std::array<std::atomic<std::uint8_t>, kMaxPorts> usable_{};
};

}  // namespace weft::dataplane
