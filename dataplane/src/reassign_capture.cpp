#include "weft/dataplane/reassign_capture.hpp"

#include <fcntl.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_pcapng.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>

namespace weft::dataplane {

namespace {

constexpr std::uint32_t kSnapLen = RTE_MBUF_DEFAULT_DATAROOM;  // longer frames are cut here
constexpr unsigned kRingSize = 1024;                           // per worker
constexpr unsigned kPoolSize = 4095;                           // copies in flight, all workers
constexpr unsigned kWriteBurst = 64;

// Nanoseconds for `ticks` TSC ticks at `hz` without overflowing 64 bits.
std::uint64_t ticks_to_ns(std::uint64_t ticks, std::uint64_t hz) {
    return ticks / hz * 1000000000ull + ticks % hz * 1000000000ull / hz;
}

}  // namespace

struct ReassignCapture::File {
    rte_pcapng_t *pcapng = nullptr;
};

void CaptureSlot::record(const rte_mbuf *m, std::uint16_t port, std::uint16_t queue,
                         std::uint64_t tsc) noexcept {
    rte_mbuf *copy = rte_pcapng_copy(port, queue, m, pool_, kSnapLen, tsc, RTE_PCAPNG_DIRECTION_OUT);
    if (copy == nullptr) {
        dropped_.add();
        return;
    }
    // DPDK 22.11's rte_pcapng_copy converts TSC to time with a clock base its constructor takes
    // before EAL knows the TSC frequency, which leaves the time stamps meaningless; the enhanced
    // packet block it built (type, length, interface, time high, time low, ...) gets ours.
    auto *epb = rte_pktmbuf_mtod(copy, std::uint32_t *);
    if (epb[0] == 6) {
        const std::uint64_t ns = tsc >= base_tsc_ ? base_ns_ + ticks_to_ns(tsc - base_tsc_, tsc_hz_)
                                                  : base_ns_ - ticks_to_ns(base_tsc_ - tsc, tsc_hz_);
        epb[3] = static_cast<std::uint32_t>(ns >> 32);
        epb[4] = static_cast<std::uint32_t>(ns);
    }
    if (rte_ring_sp_enqueue(ring_, copy) != 0) {
        rte_pktmbuf_free(copy);
        dropped_.add();
        return;
    }
    captured_.add();
}

ReassignCapture::ReassignCapture(unsigned num_workers, rte_rcu_qsbr *qsbr) : qsbr_(qsbr) {
    for (unsigned w = 0; w < num_workers; ++w) slots_.push_back(std::make_unique<CaptureSlot>());
}

ReassignCapture::~ReassignCapture() {
    stop();
    for (auto &s : slots_) rte_ring_free(s->ring_);
    rte_mempool_free(pool_);
}

Status ReassignCapture::start(const std::string &path) {
    // The pool and the rings are made on the first capture only: most runs never capture.
    if (pool_ == nullptr) {
        pool_ = rte_pktmbuf_pool_create("weft_capture", kPoolSize, 32, 0,
                                        static_cast<std::uint16_t>(rte_pcapng_mbuf_size(kSnapLen)),
                                        SOCKET_ID_ANY);
        if (pool_ == nullptr)
            return Status::error(std::string("capture mbuf pool: ") + rte_strerror(rte_errno));
    }
    for (unsigned w = 0; w < slots_.size(); ++w) {
        CaptureSlot &s = *slots_[w];
        if (s.ring_ == nullptr) {
            const std::string name = "weft_capture_" + std::to_string(w);
            s.ring_ = rte_ring_create(name.c_str(), kRingSize, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
            if (s.ring_ == nullptr)
                return Status::error("capture ring: " + std::string(rte_strerror(rte_errno)));
        }
        s.pool_ = pool_;
    }
    // A file that cannot be opened leaves a running capture alone.
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return Status::error("cannot open " + path + ": " + std::strerror(errno));
    stop();
    auto file = std::make_unique<File>();
    // Writes the section header and one interface description per ethdev port.
    file->pcapng = rte_pcapng_fdopen(fd, nullptr, nullptr, "weft", "ARS reassigned packets");
    if (file->pcapng == nullptr) {
        close(fd);
        return Status::error("cannot start pcapng in " + path + ": " + rte_strerror(rte_errno));
    }
    file_ = std::move(file);
    path_ = path;
    written_.store(0);
    write_errors_.store(0);
    stop_.store(false);
    thread_ = std::thread([this] { run(); });
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    const std::uint64_t tsc = rte_get_tsc_cycles();
    for (auto &s : slots_) {
        s->base_tsc_ = tsc;
        s->base_ns_ =
            static_cast<std::uint64_t>(now.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(now.tv_nsec);
        s->tsc_hz_ = std::max<std::uint64_t>(1, rte_get_tsc_hz());
        s->enabled_.store(true, std::memory_order_release);
    }
    return Status::success();
}

void ReassignCapture::stop() {
    if (file_ == nullptr) return;
    for (auto &s : slots_) s->enabled_.store(false, std::memory_order_release);
    // After a grace period no worker is still inside an iteration that saw the capture enabled,
    // so nothing more enters the rings.
    rte_rcu_qsbr_synchronize(qsbr_, RTE_QSBR_THRID_INVALID);
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
    drain();
    rte_pcapng_close(file_->pcapng);  // closes the file descriptor too
    file_.reset();
}

CaptureStats ReassignCapture::stats() const {
    CaptureStats st;
    st.active = file_ != nullptr;
    st.path = path_;
    for (const auto &s : slots_) {
        st.captured += s->captured();
        st.dropped += s->dropped();
        st.captured_per_worker.push_back(s->captured());
    }
    st.written = written_.load();
    st.write_errors = write_errors_.load();
    return st;
}

void ReassignCapture::run() {
    while (!stop_.load()) {
        if (drain() == 0) std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
}

std::uint64_t ReassignCapture::drain() {
    std::uint64_t total = 0;
    for (auto &s : slots_) {
        rte_mbuf *pkts[kWriteBurst];
        unsigned n;
        while ((n = rte_ring_sc_dequeue_burst(s->ring_, reinterpret_cast<void **>(pkts), kWriteBurst,
                                              nullptr)) != 0) {
            // rte_pcapng_write_packets frees the copies whatever happens.
            if (rte_pcapng_write_packets(file_->pcapng, pkts, static_cast<std::uint16_t>(n)) < 0)
                write_errors_.fetch_add(n);
            else
                written_.fetch_add(n);
            total += n;
        }
    }
    return total;
}

}  // namespace weft::dataplane
