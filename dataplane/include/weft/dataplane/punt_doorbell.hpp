// The control thread's doorbell for punted frames: it sleeps on an eventfd while the punt rings
// are empty, and a worker that enqueues frames rings it - only when the control thread said it
// is going to sleep, so a busy control thread costs the workers one relaxed load per punt burst
// and no system call. An SMP then crosses a switch in the time a thread takes to wake, not in a
// polling interval.
#pragma once

#include <atomic>
#include <chrono>
#include <span>

namespace weft::dataplane {

class PuntDoorbell {
  public:
    PuntDoorbell();  // throws std::runtime_error when no eventfd can be made
    ~PuntDoorbell();
    PuntDoorbell(const PuntDoorbell &) = delete;
    PuntDoorbell &operator=(const PuntDoorbell &) = delete;

    // Worker, after enqueueing punted frames.
    void ring() noexcept;
    // Control thread: going to sleep. After arm(), it looks at the rings once more; frames a
    // worker enqueues from then on ring the bell.
    void arm() noexcept;
    // Control thread: sleeps until the bell rings, one of `also` is readable (the control
    // thread's own sockets: FPM, netlink, TAPs; at most kMaxWatched of them) or `max` has
    // passed; true when the bell rang.
    bool sleep(std::chrono::microseconds max, std::span<const int> also = {}) noexcept;
    static constexpr std::size_t kMaxWatched = 62;

  private:
    int fd_ = -1;
    std::atomic<bool> armed_{false};
};

}  // namespace weft::dataplane
