#include "weft/dataplane/ars_sampler.hpp"

#include <algorithm>
#include <chrono>

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

void ArsSampler::run() {
    using Clock = std::chrono::steady_clock;
    auto last = Clock::now();
    while (!stop_.load(std::memory_order_relaxed)) {
        std::shared_ptr<const ars::Config> config;
        {
            std::lock_guard<std::mutex> lock(mu_);
            config = config_;
        }
        const std::chrono::microseconds interval(config ? config->profile().sampling_interval_us : 1000);
        std::this_thread::sleep_until(last + interval);
        const auto now = Clock::now();
        if (config == nullptr) {
            last = now;
            continue;
        }
        // The kernel may wake us late; the bytes sent since the last sample are spread over the
        // whole intervals that passed, so the sampled rate does not depend on the wake-up jitter.
        const auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(now - last);
        const auto intervals = static_cast<std::uint64_t>(std::max<std::int64_t>(1, elapsed / interval));
        last += interval * static_cast<std::int64_t>(intervals);
        sample(*config, intervals);
    }
}

void ArsSampler::sample(const ars::Config &config, std::uint64_t intervals) {
    const std::uint16_t n = dp_->num_ports();
    dp_->poll_links();  // link bytes of the board current before the qualities are
    std::vector<ArsPortQuality> view(n);
    for (std::uint16_t p = 0; p < n; ++p) {
        const PortLoad load = dp_->port_load(p);
        const std::uint64_t sent = load.tx_bytes - std::min(load.tx_bytes, last_tx_[p]);
        last_tx_[p] = load.tx_bytes;
        samples_[p] = ars::PortSample{sent / intervals, load.backlog_bytes};
        view[p].tx_bytes = load.tx_bytes;
        view[p].backlog_bytes = load.backlog_bytes;
    }
    ars::PortBoard &board = dp_->ars_board();
    sampler_.update(config, samples_, board);
    for (std::uint16_t p = 0; p < n; ++p) {
        view[p].load = sampler_.port_load(p);
        view[p].band = board.port_quality(p);
        view[p].link_up = board.link_up(p);
    }
    rounds_.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(mu_);
    view_ = std::move(view);
}

}  // namespace weft::dataplane
