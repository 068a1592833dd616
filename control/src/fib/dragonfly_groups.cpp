#include "weft/control/fib/dragonfly_groups.hpp"

#include <optional>

namespace weft::control::fib {

namespace dp = weft::dataplane;

void DragonflyGroups::set(const dp::IpPrefix &prefix, std::uint32_t table, std::vector<NextHop> hops) {
    // A prefix refused before is tried again when zebra sends it again, changed or not.
    if (rib_.set(prefix, table, std::move(hops)) || refused_.contains(prefix)) dirty_.insert(prefix);
}

void DragonflyGroups::remove(const dp::IpPrefix &prefix, std::uint32_t table) {
    if (rib_.remove(prefix, table)) dirty_.insert(prefix);
}

std::uint32_t DragonflyGroups::group_of(const dp::IpPrefix &prefix) const {
    const auto it = installed_.find(prefix);
    return it == installed_.end() ? 0 : it->second.group;
}

void DragonflyGroups::refuse(const dp::IpPrefix &prefix, const dp::Status &s) {
    ++counters_.refusals;
    counters_.last_refusal = s.message();
    refused_.insert(prefix);
}

ArsGroupSpec DragonflyGroups::spec_of(const GroupPlan &plan) const {
    return ArsGroupSpec{plan.primaries, plan.alternates, plan.ars_object, rib_.policy().path};
}

std::uint32_t DragonflyGroups::group_for(const GroupPlan &plan, dp::Status &s) {
    if (const auto it = by_plan_.find(plan); it != by_plan_.end()) return *it->second.begin();
    if (groups_.size() >= kPolicyNhgs) {
        s = dp::Status::error("the dragonfly policy's " + std::to_string(kPolicyNhgs) +
                              " ARS groups are all in use");
        return 0;
    }
    // Round robin: an id freed in this batch is not taken again at once (its flow tables would
    // carry over to a group that is not it).
    while (groups_.contains(next_id_) || updater_.has_nhg(next_id_))
        next_id_ = next_id_ + 1 == kPolicyNhgEnd ? kPolicyNhgFirst : next_id_ + 1;
    const std::uint32_t id = next_id_;
    next_id_ = next_id_ + 1 == kPolicyNhgEnd ? kPolicyNhgFirst : next_id_ + 1;
    return make_group(id, plan, s);
}

std::uint32_t DragonflyGroups::make_group(std::uint32_t id, const GroupPlan &plan, dp::Status &s) {
    if (s = updater_.set_ars_group(id, spec_of(plan)); !s.ok()) return 0;
    groups_.emplace(id, Group{plan, 0});
    by_plan_[plan].insert(id);
    ++counters_.groups_made;
    return id;
}

std::uint32_t DragonflyGroups::former_group(const dp::IpPrefix &prefix, const GroupPlan &plan,
                                            dp::Status &s) {
    const auto it = former_.find(prefix);
    if (it == former_.end()) return 0;
    const std::uint32_t id = it->second;
    former_.erase(it);
    if (const auto g = groups_.find(id); g != groups_.end()) return g->second.plan == plan ? id : 0;
    // Freed in this batch (the FIB still has it): its flow tables are not the prefix's any more.
    if (groups_.size() >= kPolicyNhgs || updater_.has_nhg(id)) return 0;
    return make_group(id, plan, s);
}

void DragonflyGroups::forget_plan(const GroupPlan &plan, std::uint32_t group) {
    const auto it = by_plan_.find(plan);
    if (it == by_plan_.end()) return;
    it->second.erase(group);
    if (it->second.empty()) by_plan_.erase(it);
}

void DragonflyGroups::release(std::uint32_t group) {
    const auto it = groups_.find(group);
    if (it == groups_.end() || --it->second.users != 0) return;
    // Its last route left in this batch (deleted or re-pointed): the group goes with the batch.
    if (dp::Status s = updater_.del_ars_group(group); !s.ok()) {
        ++counters_.refusals;
        counters_.last_refusal = s.message();
    }
    forget_plan(it->second.plan, group);
    groups_.erase(it);
    ++counters_.groups_freed;
}

dp::Status DragonflyGroups::change_in_place(std::uint32_t group, const GroupPlan &plan) {
    Group &g = groups_.at(group);
    if (dp::Status s = updater_.set_ars_group(group, spec_of(plan)); !s.ok()) return s;
    forget_plan(g.plan, group);
    by_plan_[plan].insert(group);
    g.plan = plan;
    ++counters_.groups_changed_in_place;
    return dp::Status::success();
}

void DragonflyGroups::flush() {
    if (dirty_.empty()) return;
    struct Change {
        dp::IpPrefix prefix;
        std::optional<GroupPlan> plan;
        bool done = false;
    };
    // The changed prefixes by the ARS group they are on now (0: none, or an ECMP plan's).
    std::map<std::uint32_t, std::vector<Change>> by_group;
    for (const dp::IpPrefix &p : dirty_) {
        std::optional<GroupPlan> plan = rib_.plan(p);
        const auto it = installed_.find(p);
        if (it != installed_.end() && plan && *plan == it->second.plan && !refused_.contains(p)) continue;
        by_group[it != installed_.end() ? it->second.group : 0].push_back(Change{p, std::move(plan)});
    }
    dirty_.clear();
    // A group all of whose prefixes change: the largest of them that go to one ARS plan take the
    // group with them, changed in place.
    for (auto &[group, changes] : by_group) {
        if (group == 0 || changes.size() != groups_.at(group).users) continue;
        std::map<GroupPlan, std::size_t> cohorts;
        for (const Change &c : changes)
            if (c.plan && c.plan->ars) ++cohorts[*c.plan];
        if (cohorts.empty()) continue;
        auto best = cohorts.begin();
        for (auto it = cohorts.begin(); it != cohorts.end(); ++it)
            if (it->second > best->second) best = it;
        const GroupPlan plan = best->first;
        if (dp::Status s = change_in_place(group, plan); !s.ok()) {
            ++counters_.refusals;  // they move one by one below (and are refused there alike)
            counters_.last_refusal = s.message();
            continue;
        }
        for (Change &c : changes)
            if (c.plan == plan) {
                installed_.at(c.prefix).plan = plan;
                refused_.erase(c.prefix);
                c.done = true;
            }
    }
    // The rest, one prefix at a time: to its new plan's group, or out.
    for (auto &[group_now, changes] : by_group) {
        const std::uint32_t old_group = group_now;  // a lambda below takes it (not a binding)
        for (Change &c : changes) {
            if (c.done) continue;
            const auto it = installed_.find(c.prefix);
            auto drop_old = [&] {
                if (it == installed_.end()) return;
                if (dp::Status s = updater_.del_route(c.prefix); !s.ok()) {
                    ++counters_.refusals;
                    counters_.last_refusal = s.message();
                }
                if (old_group != 0 && former_.size() < kFormerMax) former_[c.prefix] = old_group;
                installed_.erase(it);
                if (old_group != 0) release(old_group);
            };
            if (!c.plan) {
                refused_.erase(c.prefix);
                drop_old();
                continue;
            }
            dp::Status s = dp::Status::success();
            std::uint32_t group = 0;
            if (c.plan->ars) {
                if (it == installed_.end()) group = former_group(c.prefix, *c.plan, s);
                if (group == 0 && s.ok()) group = group_for(*c.plan, s);
                if (group != 0) {
                    if (group != old_group) ++groups_.at(group).users;
                    s = updater_.set_route(c.prefix, group);
                    if (!s.ok() && group != old_group) release(group);
                }
            } else {
                s = updater_.set_route(c.prefix, c.plan->primaries);
            }
            if (!s.ok()) {
                refuse(c.prefix, s);
                drop_old();
                continue;
            }
            refused_.erase(c.prefix);
            if (it != installed_.end()) {
                if (group != old_group) {
                    ++counters_.prefixes_moved;
                    if (old_group != 0) release(old_group);
                }
                it->second = Installed{*c.plan, group};
            } else {
                installed_.emplace(c.prefix, Installed{*c.plan, group});
                former_.erase(c.prefix);
            }
        }
    }
}

void DragonflyGroups::clear() {
    for (const auto &[prefix, in] : installed_) {
        if (dp::Status s = updater_.del_route(prefix); !s.ok()) {
            ++counters_.refusals;
            counters_.last_refusal = s.message();
        }
        if (in.group != 0) release(in.group);
    }
    installed_.clear();
    refused_.clear();
    dirty_.clear();
    former_.clear();
    rib_ = DragonflyRib(rib_.policy());
}

}  // namespace weft::control::fib
