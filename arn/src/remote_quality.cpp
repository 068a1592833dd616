#include "weft/arn/remote_quality.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <utility>

namespace weft::arn {

std::vector<RemoteSlotAssignment> assign_remote_slots(const BestPathTable &bpt, ars::RemoteSlot first) {
    std::vector<RemoteSlotAssignment> out;
    std::uint32_t next = first;
    for (GroupId g : bpt.destinations()) {
        std::set<PortNumber> ports;
        for (const CandidatePath &p : bpt.paths(g)) ports.insert(p.first_port);
        for (PortNumber port : ports) {
            if (next >= ars::kNoRemoteSlot) throw std::length_error("ARN: more remote slots than 16-bit ids");
            out.push_back({g, port, static_cast<ars::RemoteSlot>(next++)});
        }
    }
    return out;
}

RemoteQualityPublisher::RemoteQualityPublisher(std::vector<RemoteSlotAssignment> slots)
    : slots_(std::move(slots)) {
    std::sort(slots_.begin(), slots_.end(), [](const RemoteSlotAssignment &a, const RemoteSlotAssignment &b) {
        return std::pair(a.group, a.port) < std::pair(b.group, b.port);
    });
}

bool RemoteQualityPublisher::publish_one(const BestPathTable &bpt, ars::PortBoard &board,
                                         const RemoteSlotAssignment &a) {
    if (a.slot >= board.remote_slot_count()) return false;
    const ars::QualityBand band = bpt.port_band(a.group, a.port);
    if (board.remote_quality(a.slot) == band) return false;
    board.publish_remote_quality(a.slot, band);
    return true;
}

std::size_t RemoteQualityPublisher::publish(const BestPathTable &bpt, ars::PortBoard &board) {
    std::size_t changed = 0;
    for (const RemoteSlotAssignment &a : slots_) changed += publish_one(bpt, board, a) ? 1 : 0;
    return changed;
}

std::size_t RemoteQualityPublisher::publish(const BestPathTable &bpt, ars::PortBoard &board,
                                            std::span<const GroupId> groups) {
    std::size_t changed = 0;
    for (GroupId g : std::set<GroupId>(groups.begin(), groups.end())) {
        auto it = std::lower_bound(slots_.begin(), slots_.end(), g,
                                   [](const RemoteSlotAssignment &a, GroupId x) { return a.group < x; });
        for (; it != slots_.end() && it->group == g; ++it) changed += publish_one(bpt, board, *it) ? 1 : 0;
    }
    return changed;
}

}  // namespace weft::arn
