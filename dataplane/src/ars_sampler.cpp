#include "weft/dataplane/ars_sampler.hpp"

#include <algorithm>
#include <cerrno>
#include <ctime>

#include <rte_cycles.h>

#include "weft/dataplane/arn_agent.hpp"
#include "weft/dataplane/dataplane.hpp"

namespace weft::dataplane {

ArsSampler::ArsSampler(Dataplane &dp)
    : dp_(&dp),
      view_(dp.num_ports()),
      sampler_(kMaxPorts),
      last_tx_(dp.num_ports(), 0),
      samples_(kMaxPorts) {}

ArsSampler::~ArsSampler() {
    stop();
}

void ArsSampler::set_config(std::shared_ptr<const ars::Config> config) {
    std::lock_guard<std::mutex> lock(mu_);
    config_ = std::move(config);
}

void ArsSampler::start() {
    if (thread_.joinable()) return;
    stop_.store(false);
    for (std::uint16_t p = 0; p < dp_->num_ports(); ++p) last_tx_[p] = dp_->port_load(p).tx_bytes;
    thread_ = std::thread([this] { run(); });
}

void ArsSampler::stop() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
}

std::vector<ArsPortQuality> ArsSampler::ports() const {
    std::lock_guard<std::mutex> lock(mu_);
    return view_;
}

namespace {

timespec add_us(timespec t, std::uint64_t us) {
    const std::uint64_t ns = static_cast<std::uint64_t>(t.tv_nsec) + us * 1000;
    t.tv_sec += static_cast<time_t>(ns / 1000000000u);
    t.tv_nsec = static_cast<long>(ns % 1000000000u);
    return t;
}

std::int64_t ns_between(const timespec &from, const timespec &to) {
    return (std::int64_t{to.tv_sec} - from.tv_sec) * 1000000000 + (to.tv_nsec - from.tv_nsec);
}

}  // namespace

void ArsSampler::run() {
    // A fixed cadence of absolute deadlines (interval boundaries), so the time spent sampling
    // and the wake-up latency do not accumulate. The kernel wakes a sleeping thread up to its
    // timer slack (50 us by default) late; every interval that passed is still sampled, each
    // with its share of the bytes sent, so the EWMA sees one sample per sampling interval
    // whatever the wake-up granularity.
    //
    // With the workers' idle back-off on (--idle-sleep-max-us), the sampler backs off too while
    // no port sends and nothing waits to be sent: it sleeps whole intervals, twice as many each
    // round up to the bound, and samples them all on waking, as after a late wake-up. Traffic
    // after a pause is then first sampled at most the bound late.
    timespec next{};
    clock_gettime(CLOCK_MONOTONIC, &next);
    std::uint32_t interval_us = 1000;
    const std::uint64_t idle_max_us = dp_->config().idle_sleep_max_us;
    std::uint64_t idle_intervals = 0;  // intervals the back-off skips; 0: sampling every interval
    while (!stop_.load(std::memory_order_relaxed)) {
        std::shared_ptr<const ars::Config> config;
        {
            std::lock_guard<std::mutex> lock(mu_);
            config = config_;
        }
        interval_us = config ? config->profile().sampling_interval_us : 1000;
        const std::uint64_t skip = std::max<std::uint64_t>(1, idle_intervals);
        next = add_us(next, skip * interval_us);
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nullptr) == EINTR) {
        }
        timespec now{};
        clock_gettime(CLOCK_MONOTONIC, &now);
        const std::int64_t late_ns = ns_between(next, now);
        std::uint64_t intervals = skip;
        if (late_ns > 0) {
            const std::uint64_t extra =
                static_cast<std::uint64_t>(late_ns) / (std::uint64_t{interval_us} * 1000);
            intervals += extra;
            next = add_us(next, extra * interval_us);
        }
        bool busy = config != nullptr && sample(*config, intervals);
        if (arn_ != nullptr) {
            const std::span<const arn::PortObservation> observed =
                config != nullptr ? std::span<const arn::PortObservation>(observed_)
                                  : std::span<const arn::PortObservation>();
            busy = arn_->step(rte_rdtsc(), observed) || busy;
        }
        if (config == nullptr) continue;
        if (idle_max_us == 0 || busy)
            idle_intervals = 0;
        else
            idle_intervals = std::min(std::max<std::uint64_t>(1, idle_max_us / interval_us),
                                      idle_intervals == 0 ? 2 : 2 * idle_intervals);
    }
}

bool ArsSampler::sample(const ars::Config &config, std::uint64_t intervals) {
    bool busy = false;
    const std::uint16_t n = dp_->num_ports();
    dp_->poll_links();  // link bytes of the board current before the qualities are
    next_view_.resize(n);
    for (std::uint16_t p = 0; p < n; ++p) {
        const PortLoad load = dp_->port_load(p);
        const std::uint64_t sent = load.tx_bytes - std::min(load.tx_bytes, last_tx_[p]);
        last_tx_[p] = load.tx_bytes;
        samples_[p] = ars::PortSample{sent / intervals, load.backlog_bytes};
        busy = busy || sent != 0 || load.backlog_bytes != 0;
        next_view_[p].tx_bytes = load.tx_bytes;
        next_view_[p].backlog_bytes = load.backlog_bytes;
    }
    ars::PortBoard &board = dp_->ars_board();
    // One EWMA step per interval that passed: a late wake-up catches up with the average rate.
    sampler_.update(config, samples_, board, std::min<std::uint64_t>(intervals, kMaxCatchUpSteps));
    for (std::uint16_t p = 0; p < n; ++p) {
        next_view_[p].load = sampler_.port_load(p);
        next_view_[p].band = board.port_quality(p);
        next_view_[p].link_up = board.link_up(p);
    }
    if (arn_ != nullptr) {
        observed_.resize(n);
        for (std::uint16_t p = 0; p < n; ++p)
            observed_[p] = arn::observe(sampler_.port_load(p), samples_[p], board.link_up(p));
    }
    rounds_.fetch_add(intervals, std::memory_order_relaxed);
    wakeups_.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(mu_);
    view_.swap(next_view_);  // no allocation per sample: the two views trade places
    return busy;
}

}  // namespace weft::dataplane
