// What ARN hands ARS: the remote quality of each (destination group, local port) pair, the band of
// the best path toward the group that leaves by the port (BestPathTable::port_band), published in
// the PortBoard's remote slots. The control plane gives the member on port p of the next-hop
// group toward group g the slot of (g, p) (ars::NhgMember::remote_slot); the workers then count
// that member with the lower of its port's band and the slot's, so traffic toward g leaves a port
// whose path beyond is congested before the port itself is busy.
//
// One writer: the thread that owns the best-path table publishes after each change it applied
// (board writes are relaxed byte stores that bump the board's generation only on a change; the
// workers derive their choices again once per generation, never per packet).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "weft/arn/best_path_table.hpp"
#include "weft/ars/port_board.hpp"
#include "weft/ars/types.hpp"

namespace weft::arn {

struct RemoteSlotAssignment {
    GroupId group = 0;
    PortNumber port = 0;
    ars::RemoteSlot slot = ars::kNoRemoteSlot;
    friend bool operator==(const RemoteSlotAssignment &, const RemoteSlotAssignment &) = default;
};

// A slot for every (destination, first port) pair of the table's candidate paths, numbered from
// `first` in destination and port order. Throws std::length_error past the 16-bit slot ids.
std::vector<RemoteSlotAssignment> assign_remote_slots(const BestPathTable &bpt, ars::RemoteSlot first = 0);

class RemoteQualityPublisher {
  public:
    explicit RemoteQualityPublisher(std::vector<RemoteSlotAssignment> slots);

    // Writes every slot's band (slots beyond the board are skipped); returns how many changed.
    std::size_t publish(const BestPathTable &bpt, ars::PortBoard &board);
    // The same for the slots of the given destinations only (a BptChange's `touched`).
    std::size_t publish(const BestPathTable &bpt, ars::PortBoard &board, std::span<const GroupId> groups);

    const std::vector<RemoteSlotAssignment> &slots() const { return slots_; }

  private:
    bool publish_one(const BestPathTable &bpt, ars::PortBoard &board, const RemoteSlotAssignment &a);
    std::vector<RemoteSlotAssignment> slots_;  // by group, then port
};

}  // namespace weft::arn
