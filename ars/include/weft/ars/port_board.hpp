// The live per-port state the workers read on every selection: quality band and link state.
//
// One byte per port for quality (written only by the quality sampler thread), one byte per port
// for link state (written only by the thread that watches links), one quality byte per LAG
// (sampler). Readers on any number of worker threads load them with relaxed ordering: a byte is
// never torn and a slightly stale band is harmless, so no locks and no fences are needed.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "weft/ars/types.hpp"

namespace weft::ars {

class PortBoard {
  public:
    // Ports start with link down and quality 7 (nothing measured yet = idle).
    PortBoard(std::size_t port_count, std::size_t lag_count);

    std::size_t port_count() const { return port_count_; }
    std::size_t lag_count() const { return lag_count_; }

    // Sampler thread only.
    void publish_port_quality(PortId port, QualityBand band) {
        port_quality_[port].store(band, std::memory_order_relaxed);
    }
    void publish_lag_quality(LagId lag, QualityBand band) {
        lag_quality_[lag].store(band, std::memory_order_relaxed);
    }
    // Link-watch thread only.
    void set_link_up(PortId port, bool up) { link_up_[port].store(up ? 1 : 0, std::memory_order_relaxed); }

    // Any thread.
    QualityBand port_quality(PortId port) const {
        return port_quality_[port].load(std::memory_order_relaxed);
    }
    QualityBand lag_quality(LagId lag) const { return lag_quality_[lag].load(std::memory_order_relaxed); }
    bool link_up(PortId port) const { return link_up_[port].load(std::memory_order_relaxed) != 0; }

  private:
    std::size_t port_count_;
    std::size_t lag_count_;
    std::unique_ptr<std::atomic<std::uint8_t>[]> port_quality_;
    std::unique_ptr<std::atomic<std::uint8_t>[]> link_up_;
    std::unique_ptr<std::atomic<std::uint8_t>[]> lag_quality_;
};

}  // namespace weft::ars
