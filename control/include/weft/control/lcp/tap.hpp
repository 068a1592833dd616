// One kernel TAP interface (/dev/net/tun, IFF_TAP without packet information) that stands for a
// weft port in the kernel: it carries the port's MAC, its carrier follows the port's link, and
// its frames cross by read()/write() on the control thread (never on a worker lcore).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace weft::control::lcp {

class Tap {
  public:
    // Creates (or attaches to) interface `name` with `mac`, sets it up, non-blocking. Throws
    // std::runtime_error saying which step failed (CAP_NET_ADMIN is needed).
    Tap(const std::string &name, const std::array<std::uint8_t, 6> &mac);
    ~Tap();
    Tap(const Tap &) = delete;
    Tap &operator=(const Tap &) = delete;

    const std::string &name() const noexcept { return name_; }
    std::uint32_t ifindex() const noexcept { return ifindex_; }
    int fd() const noexcept { return fd_; }

    // The kernel's view of the link (TUNSETCARRIER); false when the ioctl failed.
    bool set_carrier(bool up) noexcept;
    // One frame to the kernel; false when it was not taken (full queue, interface down).
    bool write(std::span<const std::uint8_t> frame) noexcept;
    // One frame from the kernel into `buf`: its length, 0 when none waits, -1 on an error.
    long read(std::span<std::uint8_t> buf) noexcept;

  private:
    std::string name_;
    int fd_ = -1;
    std::uint32_t ifindex_ = 0;
};

}  // namespace weft::control::lcp
