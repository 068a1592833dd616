#include "weft/dataplane/punt_doorbell.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace weft::dataplane {

PuntDoorbell::PuntDoorbell() : fd_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
    if (fd_ < 0) throw std::runtime_error(std::string("punt doorbell: eventfd: ") + std::strerror(errno));
}

PuntDoorbell::~PuntDoorbell() {
    if (fd_ >= 0) close(fd_);
}

void PuntDoorbell::ring() noexcept {
    // The enqueue before this must be visible before armed_ is read (the control thread stores
    // armed_ and then looks at the rings): a full fence on both sides.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (!armed_.load(std::memory_order_relaxed) || !armed_.exchange(false, std::memory_order_acq_rel)) return;
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t n = write(fd_, &one, sizeof one);  // a full counter is rung already
}

void PuntDoorbell::arm() noexcept {
    armed_.store(true, std::memory_order_seq_cst);
}

bool PuntDoorbell::sleep(std::chrono::microseconds max, std::span<const int> also) noexcept {
    pollfd p[1 + kMaxWatched];
    p[0] = pollfd{fd_, POLLIN, 0};
    nfds_t n = 1;
    for (const int fd : also)
        if (fd >= 0 && n < 1 + kMaxWatched) p[n++] = pollfd{fd, POLLIN, 0};
    const timespec t{static_cast<time_t>(max.count() / 1000000),
                     static_cast<long>(max.count() % 1000000) * 1000};
    const int r = ppoll(p, n, &t, nullptr);
    armed_.store(false, std::memory_order_relaxed);
    std::uint64_t count = 0;
    [[maybe_unused]] const ssize_t got = read(fd_, &count, sizeof count);  // clears it; EAGAIN when not rung
    return r > 0 && (p[0].revents & POLLIN) != 0;
}

}  // namespace weft::dataplane
