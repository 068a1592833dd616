// The union check: the channel dependency graph of every path ARS may give a packet.
#include "ars_union.hpp"

#include "weft/routing/ars_groups.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace verify {

UnionWalk::UnionWalk(const Fabric &f, const RoutingTables &t, const ChannelMap &m, unsigned vls)
    : f_(f), t_(t), m_(m), vls_(vls) {
    members_.resize(f.switch_count());
    states_at_.resize(f.switch_count());
    seen_.assign(m.size() * 16 * vls, 0);
}

void UnionWalk::start(SwitchIdx dest, Lid lid) {
    undo(0);
    for (auto &v : members_) v.clear();
    dest_ = dest;
    lid_ = lid;
}

void UnionWalk::undo(std::size_t mark) {
    while (touched_.size() > mark) {
        const std::uint32_t k = touched_.back();
        touched_.pop_back();
        seen_[k] = 0;
        states_at_[f_.node(m_.far[k / vls_ / 16]).sw].pop_back();
    }
    work_.clear();
}

}  // namespace verify

CreditLoopReport check_ars_credit_loops(const Fabric &f, const RoutingTables &t, const ArsGroups &groups,
                                        const ProgressFn &progress) {
    CreditLoopReport r;
    r.vls = verify::vls_in_play(t);
    const verify::ChannelMap m(f);
    verify::DependencyGraph g(f, r.vls, m.size());
    verify::UnionWalk w(f, t, m, r.vls);
    auto take = [&g](std::uint32_t from, unsigned vi, unsigned vo, PortNum out) {
        g.add(from, vi, vo, out);
        return true;
    };
    const std::size_t D = groups.destinations.size();
    for (std::size_t d = 0; d < D; ++d) {
        if (progress) progress(d + 1, D);
        w.start(groups.destinations[d].sw, groups.destinations[d].lid);
        for (SwitchIdx s = 0; s < groups.switches; ++s) {
            const ArsGroup grp = groups.group(d, s);
            if (grp.fixed != kNoPort) w.add(s, grp.fixed, take);
            for (auto list : {grp.primary, grp.alternate})
                for (PortNum p : list)
                    if (p != grp.fixed) w.add(s, p, take);
        }
    }
    r.dependencies = g.edges();
    r.cycle = g.find_cycle(m);
    r.has_cycle = !r.cycle.empty();
    return r;
}

}  // namespace weft::routing
