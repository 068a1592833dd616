// Per-worker counters of one next-hop group or LAG. Each worker writes its own copy (relaxed
// load + store, no locked instruction); any thread may read them and sum over workers.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "weft/ars/types.hpp"

namespace weft::ars {

// A plain value snapshot, as returned to readers and summed over workers.
struct CounterValues {
    // SAI *_ARS_PACKET_DROPS: no eligible member (every member down or admin down).
    std::uint64_t packet_drops = 0;
    // SAI NEXT_HOP_ARS_NEXT_HOP_REASSIGNMENTS: a macro flow moved to another member. Always 0
    // for a LAG (its members are ports, counted below).
    std::uint64_t next_hop_reassignments = 0;
    // SAI *_ARS_PORT_REASSIGNMENTS: a macro flow moved to another port or LAG.
    std::uint64_t port_reassignments = 0;
    // Reassignments forced because the member's link went down (moved without waiting for idle).
    std::uint64_t link_down_reassignments = 0;
    // Packets decided under each mode (index: Mode), and by static hash (no ARS object, or
    // an ACL DISABLE_ARS_FORWARDING).
    std::array<std::uint64_t, kModeCount> decisions{};
    std::uint64_t static_hash_decisions = 0;

    CounterValues &operator+=(const CounterValues &other);
};

// Reassignments a worker tallies over a burst (or one packet) and adds at once.
struct Reassignments {
    std::uint64_t next_hop = 0;
    std::uint64_t port = 0;
    std::uint64_t link_down = 0;
};

class SelectionCounters {
  public:
    void count_drop() { bump(packet_drops_); }
    void count_reassignments(const Reassignments &r) {
        if (r.next_hop != 0) bump(next_hop_reassignments_, r.next_hop);
        if (r.port != 0) bump(port_reassignments_, r.port);
        if (r.link_down != 0) bump(link_down_reassignments_, r.link_down);
    }
    void count_decision(Mode mode, std::uint64_t n = 1) { bump(decisions_[static_cast<int>(mode)], n); }
    void count_static_hash(std::uint64_t n = 1) { bump(static_hash_decisions_, n); }

    CounterValues read() const;
    void reset();

  private:
    using Counter = std::atomic<std::uint64_t>;
    // Only the owning worker writes, so a relaxed load and store is an exact increment.
    static void bump(Counter &c, std::uint64_t n = 1) {
        c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
    }

    Counter packet_drops_{0};
    Counter next_hop_reassignments_{0};
    Counter port_reassignments_{0};
    Counter link_down_reassignments_{0};
    std::array<Counter, kModeCount> decisions_{};
    Counter static_hash_decisions_{0};
};

}  // namespace weft::ars
