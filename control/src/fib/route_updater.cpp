#include "weft/control/route_updater.hpp"

#include <algorithm>
#include <exception>

#include "weft/ars/capabilities.hpp"
#include "weft/control/fabric/ethernet_fib.hpp"

namespace weft::control {

namespace dp = weft::dataplane;

namespace {

std::vector<dp::NhgMemberSpec> members_of(const std::vector<NextHop> &hops) {
    std::vector<dp::NhgMemberSpec> out;
    out.reserve(hops.size());
    for (const NextHop &h : hops) out.push_back(dp::NhgMemberSpec{h.port, h.via, h.weight});
    return out;
}

std::optional<std::string> build_errors(const ars::BuildResult &r) {
    if (r.ok()) return std::nullopt;
    std::string why;
    for (const auto &e : r.errors) why += (why.empty() ? "" : "; ") + e.message;
    return why;
}

}  // namespace

OwnArsState::OwnArsState(dp::FibBuilder &fib, std::uint16_t ports, ars::Ticks ticks_per_us)
    : fib_(fib), ticks_per_us_(ticks_per_us) {
    state_.profile.random_seed = 1;
    for (std::uint16_t p = 0; p < ports; ++p) {
        ars::PortConfig pc;
        pc.id = p;
        state_.ports[p] = pc;
    }
    fib_.set_ars(state_.build(ticks_per_us_).config);
}

std::optional<std::string> OwnArsState::adopt_ars_state(const ArsState &next) {
    const ars::BuildResult r = next.build(ticks_per_us_);
    if (auto why = build_errors(r)) return why;
    state_ = next;
    fib_.set_ars(r.config);
    return std::nullopt;
}

dp::Status RouteUpdater::check_own_id(std::uint32_t id) const {
    if (id >= kImplicitNhgFirst)
        return dp::Status::error("nhg " + std::to_string(id) + ": ids from " +
                                 std::to_string(kImplicitNhgFirst) +
                                 " up are the groups made for next-hop lists");
    if (fabric::is_fabric_nhg(id))
        return dp::Status::error("nhg " + std::to_string(id) + ": ids " +
                                 std::to_string(fabric::kFabricNhgFirst) + ".." +
                                 std::to_string(fabric::kFabricNhgEnd - 1) + " are the fabric's");
    return dp::Status::success();
}

dp::Status RouteUpdater::set_nhg(std::uint32_t id, const std::vector<NextHop> &hops) {
    if (dp::Status s = check_own_id(id); !s.ok()) return s;
    if (const auto it = fib_.nhgs().find(id); it != fib_.nhgs().end() && it->second.mode == dp::NhgMode::Ars)
        return dp::Status::error("nhg " + std::to_string(id) +
                                 " is an ARS group (nhg add ... ars); not replaced");
    return fib_.set_nhg(id, members_of(hops));
}

dp::Status RouteUpdater::del_nhg(std::uint32_t id) {
    if (dp::Status s = check_own_id(id); !s.ok()) return s;
    return fib_.del_nhg(id);
}

const ars::NhgConfig *RouteUpdater::ars_group(std::uint32_t id) const {
    if (const auto it = ars_staged_.find(id); it != ars_staged_.end())
        return it->second ? &*it->second : nullptr;
    if (ars_ == nullptr) return nullptr;
    const auto it = ars_->ars_state().nhgs.find(id);
    return it == ars_->ars_state().nhgs.end() ? nullptr : &it->second;
}

dp::Status RouteUpdater::set_ars_group(std::uint32_t id, const ArsGroupSpec &spec) {
    const std::string name = "ARS nhg " + std::to_string(id);
    if (ars_ == nullptr) return dp::Status::error(name + ": no ARS state to join");
    if (dp::Status s = check_own_id(id); !s.ok()) return s;
    if (id >= ars::Capabilities{}.max_ecmp_groups)
        return dp::Status::error(name + ": ARS group ids are below " +
                                 std::to_string(ars::Capabilities{}.max_ecmp_groups));
    if (spec.primaries.empty() && spec.alternates.empty()) return dp::Status::error(name + ": no members");
    // Primaries first, then alternates (the dataplane's member order is ARS's); a port once.
    ars::NhgConfig n;
    n.id = id;
    n.ars_object = spec.ars_object;
    n.path_selection = spec.path;
    std::vector<dp::NhgMemberSpec> members;
    for (const auto &[hops, role] : {std::pair{&spec.primaries, ars::MemberRole::kPrimary},
                                     std::pair{&spec.alternates, ars::MemberRole::kAlternate}})
        for (const NextHop &h : *hops) {
            if (std::any_of(members.begin(), members.end(),
                            [&](const dp::NhgMemberSpec &m) { return m.port == h.port; }))
                continue;
            ars::NhgMember m;
            m.member_id = static_cast<std::uint32_t>(n.members.size());
            m.target = ars::EgressTarget::port(h.port);
            m.role = role;
            n.members.push_back(m);
            members.push_back(dp::NhgMemberSpec{h.port, h.via, 1});
        }
    if (const ars::NhgConfig *before = ars_group(id)) keep_member_ids(*before, n);
    // The group alone, with the state's ports, objects and LAGs: what adoption would refuse.
    const ArsState &host = ars_->ars_state();
    ArsState trial;
    trial.profile = host.profile;
    trial.ports = host.ports;
    trial.objects = host.objects;
    trial.lags = host.lags;
    const bool make_object = n.ars_object != ars::kNoArsObject && !host.objects.contains(n.ars_object);
    if (make_object) {
        ars::ArsObjectConfig o;
        o.id = n.ars_object;
        trial.objects[o.id] = o;
    }
    trial.nhgs[id] = n;
    if (auto why = build_errors(trial.build(1))) return dp::Status::error(name + ": " + *why);
    if (dp::Status s = fib_.set_nhg(id, std::move(members), dp::NhgMode::Ars); !s.ok()) return s;
    ars_staged_[id] = std::move(n);
    if (make_object) ars_objects_made_.insert(spec.ars_object);
    return dp::Status::success();
}

dp::Status RouteUpdater::del_ars_group(std::uint32_t id) {
    if (ars_group(id) == nullptr)
        return dp::Status::error("ARS nhg " + std::to_string(id) + " does not exist");
    if (dp::Status s = fib_.del_nhg(id); !s.ok()) return s;
    ars_staged_[id] = std::nullopt;
    return dp::Status::success();
}

void RouteUpdater::noting_old_group(const dp::IpPrefix &prefix) {
    if (const auto it = fib_.routes().find(prefix);
        it != fib_.routes().end() && it->second >= kImplicitNhgFirst)
        maybe_unused_.insert(it->second);
}

dp::Status RouteUpdater::set_route(const dp::IpPrefix &prefix, std::uint32_t nhg_id) {
    if (dp::Status s = check_own_id(nhg_id); !s.ok()) return s;
    noting_old_group(prefix);
    return fib_.add_route(prefix, nhg_id);
}

dp::Status RouteUpdater::set_route(const dp::IpPrefix &prefix, std::vector<NextHop> hops) {
    std::sort(hops.begin(), hops.end());
    std::uint32_t id;
    bool made = false;
    if (const auto it = by_hops_.find(hops); it != by_hops_.end()) {
        id = it->second;
    } else {
        while (fib_.nhgs().contains(next_implicit_) || hops_of_.contains(next_implicit_))
            next_implicit_ = next_implicit_ == ~0u ? kImplicitNhgFirst : next_implicit_ + 1;
        id = next_implicit_;
        if (dp::Status s =
                fib_.set_nhg(id, members_of(hops), hops.empty() ? dp::NhgMode::Drop : dp::NhgMode::Ecmp);
            !s.ok())
            return s;
        by_hops_.emplace(hops, id);
        hops_of_.emplace(id, hops);
        made = true;
    }
    noting_old_group(prefix);
    dp::Status s = fib_.add_route(prefix, id);
    if (!s.ok() && made) maybe_unused_.insert(id);  // made for this route alone: the commit drops it
    return s;
}

dp::Status RouteUpdater::del_route(const dp::IpPrefix &prefix) {
    noting_old_group(prefix);
    return fib_.del_route(prefix);
}

RouteUpdater::CommitResult RouteUpdater::commit() {
    CommitResult r;
    for (const std::uint32_t id : maybe_unused_) {
        if (fib_.routes_to(id) != 0 || !fib_.del_nhg(id).ok()) continue;  // still used (an LFT entry, say)
        by_hops_.erase(hops_of_.at(id));
        hops_of_.erase(id);
        ++r.groups_freed;
    }
    maybe_unused_.clear();
    if (!ars_staged_.empty()) {
        // One adoption for the batch; the snapshot below carries it with the groups' members.
        ArsState next = ars_->ars_state();
        for (const std::uint16_t o : ars_objects_made_)
            if (!next.objects.contains(o)) {
                ars::ArsObjectConfig object;
                object.id = o;
                next.objects[o] = object;
            }
        for (auto &[id, n] : ars_staged_) {
            if (n)
                next.nhgs[id] = std::move(*n);
            else
                next.nhgs.erase(id);
        }
        ars_staged_.clear();
        ars_objects_made_.clear();
        // Refused (the groups alone built, so something else in the state changed): the FIB's
        // groups are hash ECMP until a batch adopts them.
        if (auto why = ars_->adopt_ars_state(next)) r.error = "ARS state not adopted: " + *why;
    }
    r.prefixes = fib_.staged_routes();
    try {
        fib_.commit(publisher_);
        r.published = true;
    } catch (const std::exception &e) {
        r.error += (r.error.empty() ? "" : "; ") + std::string(e.what());
    }
    return r;
}

}  // namespace weft::control
