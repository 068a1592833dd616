// Port quality computation: once per sampling interval, per port, from bytes sent (past load) and
// bytes queued (future load) to a published quality band. Runs on one sampler thread, which is
// the single writer of the quality bytes of the PortBoard.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "weft/ars/config.hpp"
#include "weft/ars/ewma.hpp"
#include "weft/ars/port_board.hpp"
#include "weft/ars/types.hpp"

namespace weft::ars {

// What the dataplane measured for one port over the last interval.
struct PortSample {
    std::uint64_t bytes_sent = 0;    // transmitted during the interval
    std::uint64_t bytes_queued = 0;  // waiting in the port's queues at the end of the interval
};

// The intermediate values of one port, kept for inspection (CLI, demo, tests).
struct PortLoad {
    std::uint64_t past_mbps = 0;      // EWMA of the sent rate
    std::uint64_t future_mbps = 0;    // EWMA of the queued bytes, as the rate that drains them
    std::uint64_t combined_mbps = 0;  // weighted combination, unscaled
    std::uint64_t scaled_mbps = 0;    // normalised to a 10G port
    QualityBand quality = kBestQuality;
};

class QualitySampler {
  public:
    explicit QualitySampler(std::size_t port_count);

    // One sampling interval, or `intervals` of them with the same sample each (a caller that woke
    // late: each EWMA takes one step per interval, stopping early once a step no longer moves
    // it). samples[p] belongs to port p; ports that are absent from the config or have ARS
    // disabled are skipped. LAG qualities are computed from their up member ports as one big
    // port (loads summed, scaling factors summed).
    void update(const Config &config, std::span<const PortSample> samples, PortBoard &board,
                std::uint64_t intervals = 1);

    const PortLoad &port_load(PortId port) const { return loads_[port]; }

    // Whole sampling intervals between two instants, for a caller driven by a clock.
    static std::uint64_t intervals_between(const Config &config, Ticks from, Ticks to);

  private:
    std::vector<Ewma> past_;
    std::vector<Ewma> future_;
    std::vector<PortLoad> loads_;
};

}  // namespace weft::ars
