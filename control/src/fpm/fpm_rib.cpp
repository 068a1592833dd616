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

void Rib::set_hold(const RouteKey &key, Route &r, Hold h, std::uint32_t waits_for) {
    if (r.hold == Hold::Group) {
        if (auto it = waiting_.find(r.group); it != waiting_.end()) {
            it->second.erase(key);
            if (it->second.empty()) waiting_.erase(it);
        }
    }
    if (r.hold == Hold::Port || r.hold == Hold::Neighbour) unresolved_.erase(key);
    --held_[static_cast<std::size_t>(r.hold)];
    r.hold = h;
    ++held_[static_cast<std::size_t>(h)];
    if (h == Hold::Group) {
        r.group = waits_for;  // while held for a group: the id it waits for
        waiting_[waits_for].insert(key);
    }
    if (h == Hold::Port || h == Hold::Neighbour) unresolved_.insert(key);
}

void Rib::use_nexthop(const RouteKey &key, const Route &r, bool uses) {
    if (!r.nh_id) return;
    if (uses) {
        users_[*r.nh_id].insert(key);
    } else if (const auto it = users_.find(*r.nh_id); it != users_.end()) {
        it->second.erase(key);
        if (it->second.empty()) users_.erase(it);
    }
}

std::optional<std::vector<NextHop>> Rib::resolve_list(const std::vector<NlNextHop> &hops, Hold &why,
                                                      std::size_t *waiting) const {
    std::vector<NextHop> out;
    for (const NlNextHop &h : hops) {
        Resolved res = resolve_(h);
        if (!res.hop) {
            why = res.why;
            if (waiting == nullptr) return std::nullopt;
            ++*waiting;
            continue;
        }
        res.hop->weight = static_cast<std::uint16_t>(std::min<unsigned>(h.weight, dp::kMaxNhgWeight));
        out.push_back(*res.hop);
    }
    if (out.empty() && !hops.empty()) return std::nullopt;
    return out;
}

bool Rib::takes(std::uint32_t table) const noexcept {
    return policy_ != nullptr ? policy_->reads(table) : table == kMainTable;
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

Rib::Members Rib::members_of(std::uint32_t nh_id, bool skip_waiting) const {
    Members m;
    const auto it = nhs_.find(nh_id);
    if (it == nhs_.end()) {
        m.why = Hold::Group;
        m.missing = nh_id;
        return m;
    }
    auto one = [&](const Nexthop &nh, std::uint16_t weight) {
        if (nh.blackhole) {
            m.blackhole = true;
            return false;
        }
        Resolved r = resolve_(nh.hop);
        if (!r.hop) {
            m.why = r.why;
            if (!skip_waiting) return false;
            ++m.waiting;
            return true;
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
    if (!m.hops.empty()) m.why = Hold::None;  // some resolve: the rest wait (skip_waiting)
    return m;
}

std::optional<std::uint32_t> Rib::group_for(std::uint32_t nh_id, Members &m) {
    m = members_of(nh_id);
    if (m.why != Hold::None || m.blackhole) return std::nullopt;
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

void Rib::install(const RouteKey &key, Route &r) {
    if (policy_ != nullptr) return install_by_policy(key, r);
    const dp::IpPrefix &prefix = key.prefix;
    const bool was_installed = r.hold == Hold::None;
    const std::uint32_t old_group = was_installed ? r.group : 0;
    auto hold = [&](Hold h, std::uint32_t waits_for = 0) {
        if (was_installed)
            if (dp::Status s = updater_.del_route(prefix); !s.ok()) refused(s);
        set_hold(key, r, h, waits_for);
        if (old_group != 0) release(old_group);
    };
    std::uint32_t group = 0;
    dp::Status s = dp::Status::success();
    Members m;
    if (r.blackhole) {
        s = updater_.set_route(prefix, std::vector<NextHop>{});  // dropped: a Drop group
    } else if (r.nh_id) {
        const auto id = group_for(*r.nh_id, m);
        if (id) {
            group = *id;
            if (group != old_group) ++groups_.at(group).users;
            s = updater_.set_route(prefix, group);
            if (!s.ok() && group != old_group) release(group);
        } else if (m.blackhole) {
            s = updater_.set_route(prefix, std::vector<NextHop>{});  // a blackhole nexthop (NHA_BLACKHOLE)
        } else {
            if (m.why == Hold::Group) ++counters_.held_for_group;
            return hold(m.why, m.missing);
        }
    } else {
        Hold why = Hold::None;
        auto hops = resolve_list(r.hops, why);
        if (!hops) return hold(why);
        s = updater_.set_route(prefix, std::move(*hops));
    }
    if (!s.ok()) {
        refused(s);
        group = 0;
        return hold(Hold::Refused);
    }
    if (r.hold != Hold::None) set_hold(key, r, Hold::None);
    r.group = group;
    if (old_group != 0 && old_group != group) release(old_group);
}

void Rib::install_by_policy(const RouteKey &key, Route &r) {
    // The policy takes each table's resolved next hops; its groups are its own (r.group 0).
    if (r.hold == Hold::None) unresolved_.erase(key);  // partial or not, it is found again below
    std::size_t waiting = 0;
    auto hold = [&](Hold h, std::uint32_t waits_for = 0) {
        if (r.hold == Hold::None) policy_->remove(key.prefix, key.table);
        r.waiting = 0;
        set_hold(key, r, h, waits_for);
    };
    std::optional<std::vector<NextHop>> hops;
    if (r.blackhole) {
        hops.emplace();  // no next hop: the policy drops the prefix
    } else if (r.nh_id) {
        Members m = members_of(*r.nh_id, true);
        if (!m.blackhole && m.why != Hold::None) {
            if (m.why == Hold::Group) ++counters_.held_for_group;
            return hold(m.why, m.missing);
        }
        hops = m.blackhole ? std::vector<NextHop>{} : std::move(m.hops);
        waiting = m.waiting;
    } else {
        Hold why = Hold::None;
        hops = resolve_list(r.hops, why, &waiting);
        if (!hops) return hold(why);
    }
    policy_->set(key.prefix, key.table, std::move(*hops));
    if (r.hold != Hold::None) set_hold(key, r, Hold::None);
    r.waiting = waiting;
    if (waiting != 0) unresolved_.insert(key);  // retry_held() gives it the rest when they resolve
    r.group = 0;
}

void Rib::uninstall(const RouteKey &key, Route &r) {
    if (r.hold != Hold::None) return;
    unresolved_.erase(key);
    if (policy_ != nullptr) {
        policy_->remove(key.prefix, key.table);
    } else {
        if (dp::Status s = updater_.del_route(key.prefix); !s.ok()) refused(s);
        if (r.group != 0) release(r.group);
    }
    set_hold(key, r, Hold::Refused);  // placed again by install()
}

void Rib::remove(const RouteKey &key, Route &r) {
    uninstall(key, r);
    use_nexthop(key, r, false);
    set_hold(key, r, Hold::None);  // out of the waiting sets
    --held_[0];
    if (is_stale(r)) --stale_;
}

void Rib::set_policy(fib::DragonflyGroups *policy) {
    for (auto &[key, r] : routes_) uninstall(key, r);
    // The old policy's routes and groups leave the FIB before anything comes back for them.
    if (policy_ != nullptr) policy_->flush();
    policy_ = policy;
    for (auto it = routes_.begin(); it != routes_.end();) {
        // A stale route's nexthop id is of a connection that is gone: it cannot be placed again.
        if (!takes(it->first.table) || is_stale(it->second)) {
            remove(it->first, it->second);
            it = routes_.erase(it);
            continue;
        }
        if (it->second.hold == Hold::Refused) install(it->first, it->second);
        ++it;
    }
}

void Rib::apply(const RouteMsg &m) {
    const RouteKey key{m.prefix, m.table};
    auto it = routes_.find(key);
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
        it = routes_.emplace(key, Route{}).first;
        it->second.hold = Hold::Refused;
        ++held_[static_cast<std::size_t>(Hold::Refused)];
    } else if (is_stale(it->second)) {
        --stale_;
    }
    Route &r = it->second;
    use_nexthop(key, r, false);
    r.nh_id = m.nh_id;
    r.hops = m.hops;
    r.blackhole = m.blackhole;
    r.session = session_;
    use_nexthop(key, r, true);
    install(it->first, r);
}

void Rib::wake(std::uint32_t nh_id) {
    const auto w = waiting_.find(nh_id);
    if (w == waiting_.end()) return;
    const std::set<RouteKey> keys = std::move(w->second);
    waiting_.erase(w);
    for (const RouteKey &p : keys) {
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
    if (policy_ != nullptr) {
        // The routes naming it resolve again; the policy sees what changed.
        if (const auto it = users_.find(nh_id); it != users_.end()) {
            const std::vector<RouteKey> keys(it->second.begin(), it->second.end());
            for (const RouteKey &k : keys)
                if (Route &r = routes_.at(k); r.hold == Hold::None) install(k, r);
        }
        return;
    }
    Nexthop &nh = nhs_.at(nh_id);
    if (nh.weft == 0) {
        // No weft group: its routes, if any are installed, drop (a blackhole nexthop); they
        // follow what it is now.
        if (const auto it = users_.find(nh_id); it != users_.end()) {
            const std::vector<RouteKey> keys(it->second.begin(), it->second.end());
            for (const RouteKey &k : keys)
                if (Route &r = routes_.at(k); r.hold == Hold::None && r.group == 0) install(k, r);
        }
        return;
    }
    const std::uint32_t group = nh.weft;
    Members m = members_of(nh_id);
    if (m.why == Hold::None && !m.blackhole) {
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
    std::vector<RouteKey> users;
    for (auto &[key, r] : routes_)
        if (r.hold == Hold::None && r.group == group) users.push_back(key);
    nh.weft = 0;
    groups_.at(group).owner.reset();
    for (const RouteKey &k : users) install(k, routes_.at(k));
}

void Rib::drop_nexthop(std::uint32_t nh_id) {
    const auto it = nhs_.find(nh_id);
    if (it == nhs_.end()) return;
    const std::uint32_t group = it->second.weft;
    if (policy_ != nullptr) {
        if (const auto u = users_.find(nh_id); u != users_.end()) {
            const std::vector<RouteKey> keys(u->second.begin(), u->second.end());
            for (const RouteKey &k : keys) {
                const auto r = routes_.find(k);
                if (r->second.hold != Hold::None) continue;
                remove(r->first, r->second);
                routes_.erase(r);
                ++counters_.removed_with_nexthop;
            }
        }
    } else if (group != 0) {
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
    users_.clear();  // the stale routes' ids name nothing now; a replayed route names its new one
    for (auto &[nh_id, keys] : waiting_)
        for (const RouteKey &p : keys) {
            Route &r = routes_.at(p);
            --held_[static_cast<std::size_t>(Hold::Group)];
            ++held_[static_cast<std::size_t>(Hold::Refused)];
            r.hold = Hold::Refused;  // the id it waited for means nothing now; the replay resends it
        }
    waiting_.clear();
    // An installed route waiting for some next hops names a nexthop id of the old connection: it
    // stays as it is until replayed (tried now, it would leave the FIB during the replay).
    std::erase_if(unresolved_, [&](const RouteKey &k) { return routes_.at(k).hold == Hold::None; });
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
    const std::vector<RouteKey> keys(unresolved_.begin(), unresolved_.end());
    for (const RouteKey &p : keys) {
        Route &r = routes_.at(p);
        const bool was_held = r.hold != Hold::None;
        const std::size_t was_waiting = r.waiting;
        install(p, r);
        const bool held = r.hold != Hold::None;
        if (was_held && !held) ++counters_.held_applied;
        if (was_held != held || r.waiting != was_waiting) ++n;  // the FIB changes
    }
    return n;
}

}  // namespace weft::control::fpm
