// The ARS port-quality sampler: one pthread (never a worker lcore) that, every sampling interval
// of the current ARS profile, reads each port's TX bytes and TX backlog (Dataplane::port_load)
// and runs ars::QualitySampler::update, the single writer of the quality bytes of the
// dataplane's ars::PortBoard. Link bytes are written by the control thread (Dataplane). With
// the workers' idle back-off on it backs off as well while no port sends (ars_sampler.cpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "weft/arn/detector.hpp"
#include "weft/ars/config.hpp"
#include "weft/ars/quality_sampler.hpp"

namespace weft::dataplane {

class Dataplane;
class ArnAgent;

struct ArsPortQuality {
    ars::PortLoad load;  // the sampler's intermediate values for the port
    std::uint64_t tx_bytes = 0;
    std::uint64_t backlog_bytes = 0;
    ars::QualityBand band = ars::kBestQuality;  // as published on the board
    bool link_up = false;
};

class ArsSampler {
  public:
    explicit ArsSampler(Dataplane &dp);
    ~ArsSampler();
    ArsSampler(const ArsSampler &) = delete;
    ArsSampler &operator=(const ArsSampler &) = delete;

    // Control thread: the configuration whose profile and ports the next intervals use (null:
    // sampling pauses and the bands stay as they are).
    void set_config(std::shared_ptr<const ars::Config> config);
    void start();
    void stop();
    // Before start: the ARN agent this thread steps after each sample (arn_agent.hpp), with
    // each port's measurements; without an ARS configuration it still takes and expires news.
    void set_arn_agent(ArnAgent *agent) noexcept { arn_ = agent; }

    // Any thread: the latest per-port figures, and how many sampling intervals have passed.
    std::vector<ArsPortQuality> ports() const;
    std::uint64_t rounds() const noexcept { return rounds_.load(std::memory_order_relaxed); }
    // Times the thread woke and sampled (fewer than rounds() after late wake-ups or backing off).
    std::uint64_t wakeups() const noexcept { return wakeups_.load(std::memory_order_relaxed); }

  private:
    // A wake-up this many intervals late (the thread was descheduled for a while) catches up
    // this many EWMA steps and no more, which bounds the work of one wake-up.
    static constexpr std::uint64_t kMaxCatchUpSteps = 1024;

    void run();
    // Samples every port; true when one sent bytes or has some waiting.
    bool sample(const ars::Config &config, std::uint64_t intervals);

    Dataplane *dp_;
    mutable std::mutex mu_;  // config_ and view_; never touched by a worker
    std::shared_ptr<const ars::Config> config_;
    std::vector<ArsPortQuality> view_;
    std::vector<ArsPortQuality> next_view_;  // the sampler thread's, swapped with view_
    ars::QualitySampler sampler_;
    std::vector<std::uint64_t> last_tx_;
    std::vector<ars::PortSample> samples_;
    std::vector<arn::PortObservation> observed_;  // by port, for the ARN agent
    ArnAgent *arn_ = nullptr;
    std::atomic<bool> stop_{false};
    std::atomic<std::uint64_t> rounds_{0};
    std::atomic<std::uint64_t> wakeups_{0};
    std::thread thread_;
};

}  // namespace weft::dataplane
