#include "fpm_rib.hpp"

#include <algorithm>
#include <numeric>

namespace weft::control::fpm {

namespace dp = weft::dataplane;

std::string_view hold_name(Hold h) {
    switch (h) {
        case Hold::None:
            return "none";
        case Hold::Group:
            return "group";
        case Hold::Port:
            return "port";
        case Hold::Neighbour:
            return "neighbour";
        case Hold::Blackhole:
            return "blackhole";
        case Hold::Refused:
            return "refused";
        case Hold::kCount:
            break;
    }
    return "?";
}

std::size_t Rib::held_total() const noexcept {
    return std::accumulate(held_.begin() + 1, held_.end(), std::size_t{0});
}

void Rib::refused(const dp::Status &s) {
    ++counters_.fib_refusals;
    counters_.last_refusal = s.message();
}

void Rib::set_hold(const dp::IpPrefix &prefix, Route &r, Hold h, std::uint32_t waits_for) {
    if (r.hold == Hold::Group) {
        if (auto it = waiting_.find(r.group); it != waiting_.end()) {
            it->second.erase(prefix);
            if (it->second.empty()) waiting_.erase(it);
        }
    }
    if (r.hold == Hold::Port || r.hold == Hold::Neighbour) unresolved_.erase(prefix);
    --held_[static_cast<std::size_t>(r.hold)];
    r.hold = h;
    ++held_[static_cast<std::size_t>(h)];
    if (h == Hold::Group) {
        r.group = waits_for;  // while held for a group: the id it waits for
        waiting_[waits_for].insert(prefix);
    }
    if (h == Hold::Port || h == Hold::Neighbour) unresolved_.insert(prefix);
}

void Rib::release(std::uint32_t group) {
    const auto it = groups_.find(group);
    if (it == groups_.end() || --it->second.users != 0) return;
    if (it->second.owner)
        if (auto nh = nhs_.find(*it->second.owner); nh != nhs_.end() && nh->second.weft == group)
            nh->second.weft = 0;
    // The route that left it is deleted or re-pointed in this batch: the builder drops the
    // group after it.
    if (dp::Status s = updater_.del_nhg(group); !s.ok()) refused(s);
    groups_.erase(it);
}

Rib::Members Rib::members_of(std::uint32_t nh_id) const {
    Members m;
    const auto it = nhs_.find(nh_id);
    if (it == nhs_.end()) {
        m.why = Hold::Group;
        m.missing = nh_id;
        return m;
    }
    auto one = [&](const Nexthop &nh, std::uint16_t weight) {
        if (nh.blackhole) {
            m.why = Hold::Blackhole;
            return false;
        }
        Resolved r = resolve_(nh.hop);
        if (!r.hop) {
            m.why = r.why;
            return false;
        }
        r.hop->weight = static_cast<std::uint16_t>(std::min<unsigned>(weight, dp::kMaxNhgWeight));
        m.hops.push_back(*r.hop);
        return true;
    };
    if (it->second.members.empty()) {
        one(it->second, 1);
        return m;
    }
    for (const GroupMember &g : it->second.members) {
        const auto member = nhs_.find(g.id);
        if (member == nhs_.end() || !member->second.members.empty()) {
            m.hops.clear();
            m.why = Hold::Group;
            m.missing = g.id;
            return m;
        }
        if (!one(member->second, g.weight)) {
            m.hops.clear();
            return m;
        }
    }
    std::sort(m.hops.begin(), m.hops.end());
    return m;
}

std::optional<std::uint32_t> Rib::group_for(std::uint32_t nh_id, Members &m) {
    m = members_of(nh_id);
    if (m.why != Hold::None) return std::nullopt;
    Nexthop &nh = nhs_.at(nh_id);
    if (nh.weft != 0) return nh.weft;
    // A replayed nexthop takes over a stale weft group with the same members: nothing changes.
    for (auto &[id, g] : groups_)
        if (!g.owner && g.members == m.hops) {
            g.owner = nh_id;
            nh.weft = id;
            ++counters_.groups_adopted;
            return id;
        }
    while (groups_.contains(next_group_) || updater_.has_nhg(next_group_))
        next_group_ = next_group_ + 1 == kImplicitNhgFirst ? kFpmNhgFirst : next_group_ + 1;
    const std::uint32_t id = next_group_;
    if (dp::Status s = updater_.set_nhg(id, m.hops); !s.ok()) {
        refused(s);
        m.why = Hold::Refused;
        return std::nullopt;
    }
    groups_.emplace(id, Group{m.hops, 0, nh_id});
    nh.weft = id;
    return id;
}

void Rib::install(const dp::IpPrefix &prefix, Route &r) {
    const bool was_installed = r.hold == Hold::None;
    const std::uint32_t old_group = was_installed ? r.group : 0;
    auto hold = [&](Hold h, std::uint32_t waits_for = 0) {
        if (was_installed)
            if (dp::Status s = updater_.del_route(prefix); !s.ok()) refused(s);
        set_hold(prefix, r, h, waits_for);
        if (old_group != 0) release(old_group);
    };
    if (r.blackhole) return hold(Hold::Blackhole);
    std::uint32_t group = 0;
    dp::Status s = dp::Status::success();
    if (r.nh_id) {
        Members m;
        const auto id = group_for(*r.nh_id, m);
        if (!id) {
            if (m.why == Hold::Group) ++counters_.held_for_group;
            return hold(m.why, m.missing);
        }
        group = *id;
        if (group != old_group) ++groups_.at(group).users;
        s = updater_.set_route(prefix, group);
        if (!s.ok() && group != old_group) release(group);
    } else {
        std::vector<NextHop> hops;
        for (const NlNextHop &h : r.hops) {
            Resolved res = resolve_(h);
            if (!res.hop) return hold(res.why);
            res.hop->weight = static_cast<std::uint16_t>(std::min<unsigned>(h.weight, dp::kMaxNhgWeight));
            hops.push_back(*res.hop);
        }
        s = updater_.set_route(prefix, std::move(hops));
    }
    if (!s.ok()) {
        refused(s);
        group = 0;
        return hold(Hold::Refused);
    }
    if (r.hold != Hold::None) set_hold(prefix, r, Hold::None);
    r.group = group;
    if (old_group != 0 && old_group != group) release(old_group);
}

void Rib::remove(const dp::IpPrefix &prefix, Route &r) {
    if (r.hold == Hold::None) {
        if (dp::Status s = updater_.del_route(prefix); !s.ok()) refused(s);
        if (r.group != 0) release(r.group);
    }
    set_hold(prefix, r, Hold::None);  // out of the waiting sets
    --held_[0];
    if (is_stale(r)) --stale_;
}

void Rib::apply(const RouteMsg &m) {
    auto it = routes_.find(m.prefix);
    if (!m.add) {
        if (it == routes_.end()) {
            ++counters_.unknown_deletes;
            return;
        }
        remove(it->first, it->second);
        routes_.erase(it);
        return;
    }
    if (it == routes_.end()) {
        // A new route counts as held (by nothing yet) until install() places it.
        it = routes_.emplace(m.prefix, Route{}).first;
        it->second.hold = Hold::Refused;
        ++held_[static_cast<std::size_t>(Hold::Refused)];
    } else if (is_stale(it->second)) {
        --stale_;
    }
    Route &r = it->second;
    r.nh_id = m.nh_id;
    r.hops = m.hops;
    r.blackhole = m.blackhole;
    r.session = session_;
    install(it->first, r);
}

void Rib::wake(std::uint32_t nh_id) {
    const auto w = waiting_.find(nh_id);
    if (w == waiting_.end()) return;
    const std::set<dp::IpPrefix> prefixes = std::move(w->second);
    waiting_.erase(w);
    for (const dp::IpPrefix &p : prefixes) {
        const auto it = routes_.find(p);
        if (it == routes_.end() || it->second.hold != Hold::Group) continue;
        it->second.hold = Hold::Refused;  // no longer in waiting_ (moved out above)
        --held_[static_cast<std::size_t>(Hold::Group)];
        ++held_[static_cast<std::size_t>(Hold::Refused)];
        it->second.group = 0;
        install(p, it->second);
        if (it->second.hold == Hold::None) ++counters_.held_applied;
    }
}

void Rib::refresh(std::uint32_t nh_id) {
    Nexthop &nh = nhs_.at(nh_id);
    if (nh.weft == 0) return;
    const std::uint32_t group = nh.weft;
    Members m = members_of(nh_id);
    if (m.why == Hold::None) {
        Group &g = groups_.at(group);
        if (g.members == m.hops) return;
        if (dp::Status s = updater_.set_nhg(group, m.hops); s.ok()) {
            g.members = m.hops;
            ++counters_.groups_updated_in_place;
            return;
        } else {
            refused(s);
        }
    }
    // Its routes cannot stay on the group: each is installed again (and held for what is missing).
    std::vector<dp::IpPrefix> users;
    for (auto &[prefix, r] : routes_)
        if (r.hold == Hold::None && r.group == group) users.push_back(prefix);
    nh.weft = 0;
    groups_.at(group).owner.reset();
    for (const dp::IpPrefix &p : users) install(p, routes_.at(p));
}

void Rib::drop_nexthop(std::uint32_t nh_id) {
    const auto it = nhs_.find(nh_id);
    if (it == nhs_.end()) return;
    const std::uint32_t group = it->second.weft;
    if (group != 0) {
        for (auto r = routes_.begin(); r != routes_.end();) {
            if (r->second.hold == Hold::None && r->second.group == group) {
                remove(r->first, r->second);
                r = routes_.erase(r);
                ++counters_.removed_with_nexthop;
            } else {
                ++r;
            }
        }
    }
    nhs_.erase(it);
    // The groups it was a member of lose it; one left empty goes as it did.
    std::vector<std::uint32_t> emptied, changed;
    for (auto &[id, nh] : nhs_) {
        auto &ms = nh.members;
        const auto before = ms.size();
        ms.erase(std::remove_if(ms.begin(), ms.end(), [&](const GroupMember &g) { return g.id == nh_id; }),
                 ms.end());
        if (ms.size() == before) continue;
        (ms.empty() ? emptied : changed).push_back(id);
    }
    for (std::uint32_t id : changed) refresh(id);
    for (std::uint32_t id : emptied) drop_nexthop(id);
}

void Rib::apply(const NexthopMsg &m) {
    if (!m.add) {
        if (!nhs_.contains(m.id)) {
            ++counters_.unknown_deletes;
            return;
        }
        drop_nexthop(m.id);
        return;
    }
    Nexthop &nh = nhs_[m.id];
    nh.blackhole = m.blackhole;
    nh.hop = NlNextHop{m.gateway, m.ifindex, 1};
    nh.members = m.group;
    refresh(m.id);
    // The groups it is a member of follow it.
    if (m.group.empty()) {
        std::vector<std::uint32_t> parents;
        for (const auto &[id, other] : nhs_)
            if (std::any_of(other.members.begin(), other.members.end(),
                            [&](const GroupMember &g) { return g.id == m.id; }))
                parents.push_back(id);
        for (std::uint32_t id : parents) {
            refresh(id);
            wake(id);
        }
    }
    wake(m.id);
}

void Rib::new_session(Clock::time_point now) {
    ++session_;
    ++counters_.sessions;
    stale_ = routes_.size();
    // Zebra's ids start again: its groups are weft groups without an owner until replayed.
    for (auto &[id, g] : groups_) g.owner.reset();
    nhs_.clear();
    for (auto &[nh_id, prefixes] : waiting_)
        for (const dp::IpPrefix &p : prefixes) {
            Route &r = routes_.at(p);
            --held_[static_cast<std::size_t>(Hold::Group)];
            ++held_[static_cast<std::size_t>(Hold::Refused)];
            r.hold = Hold::Refused;  // the id it waited for means nothing now; the replay resends it
        }
    waiting_.clear();
    if (stale_ != 0)
        sweep_at_ = now + grace_;
    else
        sweep_at_.reset();
}

std::size_t Rib::sweep() {
    sweep_at_.reset();
    ++counters_.sweeps;
    std::size_t n = 0;
    for (auto it = routes_.begin(); it != routes_.end();) {
        if (is_stale(it->second)) {
            remove(it->first, it->second);
            it = routes_.erase(it);
            ++n;
        } else {
            ++it;
        }
    }
    counters_.swept_routes += n;
    stale_ = 0;
    return n;
}

std::size_t Rib::retry_held() {
    std::size_t n = 0;
    const std::vector<dp::IpPrefix> prefixes(unresolved_.begin(), unresolved_.end());
    for (const dp::IpPrefix &p : prefixes) {
        Route &r = routes_.at(p);
        install(p, r);
        if (r.hold == Hold::None) ++n;
    }
    counters_.held_applied += n;
    return n;
}

}  // namespace weft::control::fpm
