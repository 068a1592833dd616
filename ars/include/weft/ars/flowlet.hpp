// When a packet continues its flowlet: the one "stay" test of the engine.
//
// A packet stays on its bucket's member, even if a better member exists (no reordering inside a
// flowlet), when that member is still eligible and the bucket saw a packet within the idle time.
#pragma once

#include <cstdint>

#include "weft/ars/macro_flow_table.hpp"
#include "weft/ars/types.hpp"

namespace weft::ars {

// The instant of a decision and the idle time, prepared so the idle test needs no unpacking of
// the bucket: (now << 16 | 0xFFFF) - bits is idle_for(now) << 16 plus 0xFFFF - member (no borrow:
// 48-bit time wraps like the subtraction), so it is at most idle << 16 | 0xFFFF exactly when
// idle_for(now) <= idle.
class FlowletClock {
  public:
    FlowletClock(Ticks now, Ticks idle)
        : stamp_(MacroFlowTable::Bucket::make(0, now).bits),
          idle_limit_(idle >= MacroFlowTable::kTimeMask ? ~std::uint64_t{0} : (idle << 16) | 0xFFFF) {}

    bool within_idle(MacroFlowTable::Bucket b) const { return (stamp_ | 0xFFFF) - b.bits <= idle_limit_; }
    // The bucket refreshed: `member`, seen now.
    MacroFlowTable::Bucket touch(std::uint16_t member) const { return {stamp_ | member}; }

  private:
    std::uint64_t stamp_;  // Bucket::make(0, now)
    std::uint64_t idle_limit_;
};

// The stay test. `eligible` is a MemberBits of the members the flowlet may stay on.
template <class Members>
bool flowlet_continues(MacroFlowTable::Bucket b, const Members &eligible, const FlowletClock &clock) {
    return eligible.contains(b.member()) && clock.within_idle(b);
}

}  // namespace weft::ars
