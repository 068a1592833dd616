#include "nhg_selector.hpp"

namespace weft::dataplane {

MemberChoice EcmpSelector::select(const FibSnapshot &fib, const SelectionRequest &req) noexcept {
    const auto members = fib.members(*req.nhg);
    const auto n = static_cast<std::uint32_t>(members.size());
    if (n == 0) return {nullptr, DropReason::NoLiveMember};
    auto usable = [&](const ResolvedMember &m) {
        return links_->usable(m.port) && (!req.need_mac || m.resolved);
    };

    const ResolvedMember &first = members[ecmp_member(req.flow_hash, n)];
    if (usable(first)) return {&first, DropReason::None};

    std::uint8_t live[kMaxNhgMembers];
    std::uint32_t live_n = 0;
    bool any_resolved = !req.need_mac;
    for (std::uint32_t i = 0; i < n; ++i) {
        any_resolved |= members[i].resolved;
        if (usable(members[i])) live[live_n++] = static_cast<std::uint8_t>(i);
    }
    if (live_n == 0) return {nullptr, any_resolved ? DropReason::NoLiveMember : DropReason::NoNeighbour};
    return {&members[live[ecmp_member(req.flow_hash, live_n)]], DropReason::None};
}

}  // namespace weft::dataplane
