// The live per-port state the workers read on every selection: quality band and link state.
//
// One byte per port for quality (written only by the quality sampler thread), one byte per port
// for link state (written only by the thread that watches links), one quality byte per LAG
// (sampler), and one remote quality byte per remote slot (written only by the thread that
// receives ARNs: the band of the path beyond a next-hop group member's port, which ARN news from
// other switches makes known; a member with a slot counts with the lower of its local band and
// its slot's). Readers on any number of worker threads load them with relaxed ordering: a byte is
// never torn and a slightly stale band is harmless, so no locks are needed.
//
// Every change of a byte also bumps the board's generation, after the byte is stored. A worker
// that derives something from the board (a group's best members) keeps it with the generation it
// read first, and derives it again only when the generation moves: once per change, not per
// packet. The publishers pay the read-modify-write; readers only load.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "weft/ars/types.hpp"

namespace weft::ars {

class PortBoard {
  public:
    // Ports start with link down and quality 7 (nothing measured yet = idle), remote slots with
    // quality 7 (no news).
    PortBoard(std::size_t port_count, std::size_t lag_count, std::size_t remote_slot_count = 0);

    std::size_t port_count() const { return port_count_; }
    std::size_t lag_count() const { return lag_count_; }
    std::size_t remote_slot_count() const { return remote_slot_count_; }

    // Sampler thread only.
    void publish_port_quality(PortId port, QualityBand band) { publish(port_quality_[port], band); }
    void publish_lag_quality(LagId lag, QualityBand band) { publish(lag_quality_[lag], band); }
    // Link-watch thread only.
    void set_link_up(PortId port, bool up) { publish(link_up_[port], up ? 1 : 0); }
    // ARN receiver thread only.
    void publish_remote_quality(RemoteSlot slot, QualityBand band) { publish(remote_quality_[slot], band); }

    // Moves after every change of a band or link state. A reader that loads it before reading
    // the bytes sees bytes at least as new as that generation.
    std::uint64_t generation() const { return generation_.load(std::memory_order_acquire); }

    // Any thread.
    QualityBand port_quality(PortId port) const {
        return port_quality_[port].load(std::memory_order_relaxed);
    }
    QualityBand lag_quality(LagId lag) const { return lag_quality_[lag].load(std::memory_order_relaxed); }
    bool link_up(PortId port) const { return link_up_[port].load(std::memory_order_relaxed) != 0; }
    QualityBand remote_quality(RemoteSlot slot) const {
        return remote_quality_[slot].load(std::memory_order_relaxed);
    }

  private:
    // The exchange and the increment are atomic so that a second publisher (a link change from
    // the control thread while the link watcher runs) never loses a bump.
    void publish(std::atomic<std::uint8_t> &byte, std::uint8_t value) {
        if (byte.exchange(value, std::memory_order_relaxed) != value)
            generation_.fetch_add(1, std::memory_order_release);
    }

    // Its own cache line: workers read it per burst, publishers write it per change.
    alignas(64) std::atomic<std::uint64_t> generation_{0};
    std::size_t port_count_;
    std::size_t lag_count_;
    std::size_t remote_slot_count_;
    std::unique_ptr<std::atomic<std::uint8_t>[]> port_quality_;
    std::unique_ptr<std::atomic<std::uint8_t>[]> link_up_;
    std::unique_ptr<std::atomic<std::uint8_t>[]> lag_quality_;
    std::unique_ptr<std::atomic<std::uint8_t>[]> remote_quality_;
};

}  // namespace weft::ars
