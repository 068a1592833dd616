#include "weft/control/route_updater.hpp"

#include <algorithm>
#include <exception>

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

}  // namespace

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
        if (dp::Status s = fib_.set_nhg(id, members_of(hops)); !s.ok()) return s;
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
    r.prefixes = fib_.staged_routes();
    try {
        fib_.commit(publisher_);
        r.published = true;
    } catch (const std::exception &e) {
        r.error = e.what();
    }
    return r;
}

}  // namespace weft::control
