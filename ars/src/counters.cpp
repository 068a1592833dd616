#include "weft/ars/counters.hpp"

namespace weft::ars {

CounterValues &CounterValues::operator+=(const CounterValues &other) {
    packet_drops += other.packet_drops;
    next_hop_reassignments += other.next_hop_reassignments;
    port_reassignments += other.port_reassignments;
    link_down_reassignments += other.link_down_reassignments;
    for (int m = 0; m < kModeCount; ++m) decisions[m] += other.decisions[m];
    static_hash_decisions += other.static_hash_decisions;
    return *this;
}

CounterValues SelectionCounters::read() const {
    CounterValues v;
    v.packet_drops = packet_drops_.load(std::memory_order_relaxed);
    v.next_hop_reassignments = next_hop_reassignments_.load(std::memory_order_relaxed);
    v.port_reassignments = port_reassignments_.load(std::memory_order_relaxed);
    v.link_down_reassignments = link_down_reassignments_.load(std::memory_order_relaxed);
    for (int m = 0; m < kModeCount; ++m) v.decisions[m] = decisions_[m].load(std::memory_order_relaxed);
    v.static_hash_decisions = static_hash_decisions_.load(std::memory_order_relaxed);
    return v;
}

void SelectionCounters::reset() {
    for (Counter *c : {&packet_drops_, &next_hop_reassignments_, &port_reassignments_,
                       &link_down_reassignments_, &static_hash_decisions_})
        c->store(0, std::memory_order_relaxed);
    for (Counter &c : decisions_) c.store(0, std::memory_order_relaxed);
}

}  // namespace weft::ars
