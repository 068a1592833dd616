#include "weft/control/fib/dragonfly_policy.hpp"

#include <algorithm>
#include <tuple>

namespace weft::control::fib {

namespace {

// Sorted, each (port, via) once; weights: the largest given (ECMP), or 1 (ARS).
std::vector<NextHop> normalised(std::vector<NextHop> hops, bool keep_weights) {
    std::sort(hops.begin(), hops.end(), [](const NextHop &a, const NextHop &b) {
        return std::tie(a.port, a.via) < std::tie(b.port, b.via);
    });
    std::vector<NextHop> out;
    for (NextHop h : hops) {
        if (!keep_weights) h.weight = 1;
        if (!out.empty() && out.back().port == h.port && out.back().via == h.via) {
            out.back().weight = std::max(out.back().weight, h.weight);
            continue;
        }
        out.push_back(h);
    }
    return out;
}

bool contains(const std::vector<NextHop> &hops, const NextHop &h) {
    return std::any_of(hops.begin(), hops.end(),
                       [&](const NextHop &x) { return x.port == h.port && x.via == h.via; });
}

const std::vector<NextHop> *table(const std::map<std::uint32_t, std::vector<NextHop>> &by_table,
                                  std::uint32_t id) {
    const auto it = by_table.find(id);
    return it == by_table.end() ? nullptr : &it->second;
}

GroupPlan drop_plan() {
    GroupPlan plan;
    plan.ars = false;
    return plan;
}

}  // namespace

std::optional<GroupPlan> plan_group(const DragonflyPolicy &policy,
                                    const std::map<std::uint32_t, std::vector<NextHop>> &by_table) {
    std::vector<NextHop> primaries, alternates;
    if (policy.source == DragonflyPolicy::Source::Tables) {
        const auto *p = table(by_table, policy.primary_table);
        const auto *a = table(by_table, policy.alternate_table);
        if (p == nullptr && a == nullptr) return std::nullopt;
        // No minimal path (BGP converged around a cut global link): the non-minimal paths carry
        // the traffic as primaries.
        primaries = p != nullptr ? *p : *a;
        if (primaries.empty()) return drop_plan();
        if (p != nullptr && a != nullptr) alternates = *a;
    } else {
        const auto *all = table(by_table, policy.primary_table);
        if (all == nullptr) return std::nullopt;
        if (all->empty()) return drop_plan();
        for (const NextHop &h : *all)
            (h.weight >= policy.primary_weight_min ? primaries : alternates).push_back(h);
        if (primaries.empty()) std::swap(primaries, alternates);  // all light: all are primaries
    }
    GroupPlan plan;
    plan.ars = !(alternates.empty() && policy.ecmp_without_alternates);
    plan.primaries = normalised(std::move(primaries), !plan.ars);
    if (plan.ars) {
        plan.ars_object = policy.ars_object;
        for (const NextHop &h : normalised(std::move(alternates), false))
            if (!contains(plan.primaries, h) && plan.alternates.size() < policy.max_alternates)
                plan.alternates.push_back(h);
    }
    return plan;
}

bool DragonflyRib::reads(std::uint32_t table) const noexcept {
    return table == policy_.primary_table ||
           (policy_.source == DragonflyPolicy::Source::Tables && table == policy_.alternate_table);
}

std::optional<GroupPlan> DragonflyRib::plan(const dataplane::IpPrefix &prefix) const {
    const auto it = rib_.find(prefix);
    return it == rib_.end() ? std::nullopt : plan_group(policy_, it->second);
}

bool DragonflyRib::set(const dataplane::IpPrefix &prefix, std::uint32_t table, std::vector<NextHop> hops) {
    if (!reads(table)) return false;
    const std::optional<GroupPlan> before = plan(prefix);
    rib_[prefix][table] = std::move(hops);
    return plan(prefix) != before;
}

bool DragonflyRib::remove(const dataplane::IpPrefix &prefix, std::uint32_t table) {
    if (!reads(table)) return false;
    const auto it = rib_.find(prefix);
    if (it == rib_.end()) return false;
    const std::optional<GroupPlan> before = plan_group(policy_, it->second);
    it->second.erase(table);
    if (it->second.empty()) rib_.erase(it);
    return plan(prefix) != before;
}

}  // namespace weft::control::fib
