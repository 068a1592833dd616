// Which ports workers may touch (started: RX polling and TX bursts are allowed) and which may
// carry new traffic (usable: started, administratively up and link up). One writer, the control
// thread; workers read with relaxed loads per packet, so a port that goes down leaves every
// selection as soon as the control thread has noticed.
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
    bool started(std::uint16_t port) const noexcept {
        return port < kMaxPorts && started_[port].load(std::memory_order_relaxed) != 0;
    }
    void set_usable(std::uint16_t port, bool up) noexcept {
        if (port < kMaxPorts) usable_[port].store(up ? 1 : 0, std::memory_order_relaxed);
    }
    void set_started(std::uint16_t port, bool on) noexcept {
        if (port < kMaxPorts) started_[port].store(on ? 1 : 0, std::memory_order_relaxed);
    }

  private:
    std::array<std::atomic<std::uint8_t>, kMaxPorts> usable_{};
    std::array<std::atomic<std::uint8_t>, kMaxPorts> started_{};
};

}  // namespace weft::dataplane
