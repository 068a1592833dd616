#include "weft/dataplane/fib_builder.hpp"

#include <rte_errno.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "fib_tables.hpp"

namespace weft::dataplane {

namespace {

// DPDK names its FIB objects in one namespace per process; every table gets a fresh name.
std::string next_table_name(const char *prefix) {
    static std::atomic<std::uint64_t> counter{0};
    char name[32];
    std::snprintf(name, sizeof name, "%s%llu", prefix,
                  static_cast<unsigned long long>(counter.fetch_add(1, std::memory_order_relaxed)));
    return name;
}

std::shared_ptr<const Fib4Table> build_fib4(const FibConfig &cfg,
                                            const std::map<IpPrefix, std::uint32_t> &routes,
                                            const std::map<std::uint32_t, std::uint32_t> &index) {
    rte_fib_conf conf{};
    conf.type = RTE_FIB_DIR24_8;
    conf.default_nh = kNoRoute;
    conf.max_routes = cfg.max_routes4;
    conf.rib_ext_sz = 0;
    conf.dir24_8.nh_sz = RTE_FIB_DIR24_8_2B;
    conf.dir24_8.num_tbl8 = cfg.tbl8_groups4;
    const std::string name = next_table_name("wf4_");
    rte_fib *fib = rte_fib_create(name.c_str(), cfg.socket_id, &conf);
    if (fib == nullptr)
        throw std::runtime_error("rte_fib_create failed: " + std::string(rte_strerror(rte_errno)));
    auto table = std::make_shared<const Fib4Table>(fib);
    for (const auto &[prefix, id] : routes) {
        if (prefix.addr.v6) continue;
        if (const int rc = rte_fib_add(fib, prefix.addr.v4_host_order(), prefix.len, index.at(id)); rc != 0)
            throw std::runtime_error("route " + prefix.to_string() + " does not fit in the IPv4 FIB (" +
                                     rte_strerror(-rc) + ")");
    }
    return table;
}

std::shared_ptr<const Fib6Table> build_fib6(const FibConfig &cfg,
                                            const std::map<IpPrefix, std::uint32_t> &routes,
                                            const std::map<std::uint32_t, std::uint32_t> &index) {
    rte_fib6_conf conf{};
    conf.type = RTE_FIB6_TRIE;
    conf.default_nh = kNoRoute;
    conf.max_routes = cfg.max_routes6;
    conf.rib_ext_sz = 0;
    conf.trie.nh_sz = RTE_FIB6_TRIE_2B;
    conf.trie.num_tbl8 = cfg.tbl8_groups6;
    const std::string name = next_table_name("wf6_");
    rte_fib6 *fib = rte_fib6_create(name.c_str(), cfg.socket_id, &conf);
    if (fib == nullptr)
        throw std::runtime_error("rte_fib6_create failed: " + std::string(rte_strerror(rte_errno)));
    auto table = std::make_shared<const Fib6Table>(fib);
    for (const auto &[prefix, id] : routes) {
        if (!prefix.addr.v6) continue;
        if (const int rc = rte_fib6_add(fib, prefix.addr.bytes.data(), prefix.len, index.at(id)); rc != 0)
            throw std::runtime_error("route " + prefix.to_string() + " does not fit in the IPv6 FIB (" +
                                     rte_strerror(-rc) +
                                     "; --fib6-tbl8-groups and --fib6-max-routes size it)");
    }
    return table;
}

}  // namespace

FibBuilder::FibBuilder(FibConfig config) : config_(config) {
    if (config_.num_ports > kMaxPorts) config_.num_ports = kMaxPorts;
    // Default SL2VL: SL n -> VL n for the data VLs 0..14; SL 15 -> VL 0 (VL 15 is management).
    for (auto &port : sl2vl_)
        for (unsigned sl = 0; sl < kNumSl; ++sl) port[sl] = static_cast<std::uint8_t>(sl == 15 ? 0 : sl);
}

FibBuilder::~FibBuilder() = default;

void FibBuilder::remember(std::function<void()> undo) {
    if (undo_.empty()) dirty_at_start_ = {fib4_dirty_, fib6_dirty_, lids_dirty_};
    undo_.push_back(std::move(undo));
}

void FibBuilder::rollback() {
    for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) (*it)();
    if (!undo_.empty()) {
        fib4_dirty_ = dirty_at_start_[0];
        fib6_dirty_ = dirty_at_start_[1];
        lids_dirty_ = dirty_at_start_[2];
    }
    undo_.clear();
}

Status FibBuilder::check_port(std::uint16_t port) const {
    if (port >= config_.num_ports)
        return Status::error("port " + std::to_string(port) + " out of range (0.." +
                             std::to_string(config_.num_ports - 1) + ")");
    return Status::success();
}

// DIR-24-8 (DPDK 22.11) rounds its tbl8 groups up to a multiple of 64 and keeps one back. Each
// /24 block that holds routes longer than /24 takes one group.
std::uint32_t FibBuilder::usable_tbl8_groups4() const noexcept {
    return (config_.tbl8_groups4 + 63) / 64 * 64 - 1;
}

// The trie (DPDK 22.11) reserves tbl8 groups as it adds each route longer than /24, in the order
// the builder adds them (sorted): none when an earlier route lies in the same byte-aligned
// subtree below the route's length rounded down to a byte; otherwise one group per byte between
// its covering route (at least /24) and its own length, both rounded up to a byte. It refuses
// a route once the reservations would exceed the groups it has. Adding a byte-aligned route
// takes one group more for a moment (a table it fills, then finds uniform and gives back), so
// weft keeps one group back as DIR-24-8 does. A route whose covering route has the same next hop
// reserves nothing in DPDK; weft counts it anyway, since changing that route's next hop later
// must not make the table overflow. Only routes of the same /24 block affect each other, so
// each block's sum is kept and recomputed when its routes change.
std::uint32_t FibBuilder::usable_tbl8_groups6() const noexcept {
    return config_.tbl8_groups6 - 1;
}

std::uint32_t FibBuilder::tbl8_groups6_of_block(const IpPrefix &block) const {
    // Whether the first `len` bits of `a` and `b` agree (this runs once per route of the block).
    auto same_bits = [](const IpAddr &a, const IpAddr &b, unsigned len) {
        const unsigned whole = len / 8;
        if (!std::equal(a.bytes.begin(), a.bytes.begin() + whole, b.bytes.begin())) return false;
        const auto mask = static_cast<std::uint8_t>(0xFF00u >> (len % 8));
        return len % 8 == 0 || ((a.bytes[whole] ^ b.bytes[whole]) & mask) == 0;
    };
    auto covers = [&](const IpPrefix &p, const IpAddr &a) { return same_bits(p.addr, a, p.len); };
    auto ceil8 = [](unsigned len) { return (len + 7) / 8 * 8; };
    std::uint32_t groups = 0;
    std::vector<const IpPrefix *> covering;  // earlier routes longer than /24 covering the current
    const IpPrefix *previous = nullptr;
    for (auto it = routes_.lower_bound(IpPrefix{block.addr, 0});
         it != routes_.end() && it->first.addr.v6 && covers(block, it->first.addr);
         previous = &(it++)->first) {
        const IpPrefix &r = it->first;
        if (r.len <= 24) continue;
        while (!covering.empty() && !covers(*covering.back(), r.addr)) covering.pop_back();
        // In the builder's (sorted) order the routes of a subtree are contiguous, so an earlier
        // route below the same byte-aligned prefix, longer than it, is the one just before.
        const unsigned floor = r.len / 8 * 8;
        const bool shared =
            previous != nullptr && previous->len > floor && same_bits(previous->addr, r.addr, floor);
        if (!shared) {
            const unsigned parent = covering.empty() ? 24 : std::max(24u, unsigned{covering.back()->len});
            groups += (ceil8(r.len) - ceil8(parent)) / 8;
        }
        covering.push_back(&r);
    }
    return groups;
}

void FibBuilder::count_tbl8(const IpPrefix &prefix, int delta) {
    if (prefix.len <= 24) return;
    if (!prefix.addr.v6) {
        const std::uint32_t block = prefix.addr.v4_host_order() >> 8;
        auto &n = blocks4_[block];
        n = static_cast<std::uint32_t>(static_cast<int>(n) + delta);
        if (n == 0) blocks4_.erase(block);
        return;
    }
    const IpPrefix block = *IpPrefix::make(prefix.addr, 24);
    std::uint32_t &groups = blocks6_[block];
    tbl8_used6_ -= groups;
    groups = tbl8_groups6_of_block(block);
    tbl8_used6_ += groups;
    if (groups == 0) blocks6_.erase(block);
}

Status FibBuilder::check_fits(const IpPrefix &prefix) {
    const bool v6 = prefix.addr.v6;
    const std::size_t routes = v6 ? routes6_ : routes4_;
    const int max = v6 ? config_.max_routes6 : config_.max_routes4;
    const std::string family = v6 ? "IPv6" : "IPv4";
    if (routes >= static_cast<std::size_t>(max))
        return Status::error("route " + prefix.to_string() + " does not fit: the " + family + " FIB holds " +
                             std::to_string(max) + " routes, all in use (weft --fib" + (v6 ? "6" : "4") +
                             "-max-routes sizes it)");
    if (prefix.len <= 24) return Status::success();
    if (!v6) {
        if (!blocks4_.contains(prefix.addr.v4_host_order() >> 8) && blocks4_.size() >= usable_tbl8_groups4())
            return Status::error(
                "route " + prefix.to_string() +
                " does not fit: routes longer than /24 take a tbl8 group per /24 block, and all " +
                std::to_string(usable_tbl8_groups4()) +
                " IPv4 groups are in use (weft --fib4-tbl8-groups sizes them)");
        return Status::success();
    }
    const IpPrefix block = *IpPrefix::make(prefix.addr, 24);
    const auto it = blocks6_.find(block);
    const std::uint32_t before = it == blocks6_.end() ? 0 : it->second;
    routes_.emplace(prefix, 0);  // counted as if added, then taken out again
    const std::uint32_t after = tbl8_groups6_of_block(block);
    routes_.erase(prefix);
    if (tbl8_used6_ - before + after > usable_tbl8_groups6())
        return Status::error("route " + prefix.to_string() + " does not fit: it needs " +
                             std::to_string(after - before) + " more IPv6 tbl8 groups, and " +
                             std::to_string(tbl8_used6_) + " of " + std::to_string(usable_tbl8_groups6()) +
                             " are in use (weft --fib6-tbl8-groups sizes them)");
    return Status::success();
}

FibCapacity FibBuilder::capacity() const {
    FibCapacity c;
    c.ipv4 = {routes4_, static_cast<std::size_t>(config_.max_routes4), blocks4_.size(),
              usable_tbl8_groups4()};
    c.ipv6 = {routes6_, static_cast<std::size_t>(config_.max_routes6), tbl8_used6_, usable_tbl8_groups6()};
    c.nhgs = nhgs_.size();
    c.max_nhgs = kMaxNhgs;
    c.neighbours = neighbours_.size();
    return c;
}

std::optional<std::uint32_t> FibBuilder::nhg_index(std::uint32_t id) const {
    const auto it = nhg_index_.find(id);
    if (it == nhg_index_.end()) return std::nullopt;
    return it->second;
}

bool FibBuilder::nhg_referenced(std::uint32_t id) const {
    for (const auto &[prefix, nhg] : routes_)
        if (nhg == id) return true;
    for (const auto &[lid, spec] : lft_)
        if (spec.kind == LftTarget::Kind::Nhg && spec.value == id) return true;
    return false;
}

std::optional<std::uint32_t> FibBuilder::nhg_using(const IpAddr &ip, std::uint16_t port) const {
    // A member without `via` takes its MAC from the port's peer, its lowest-addressed neighbour.
    const IpAddr *peer = nullptr;
    for (const auto &[addr, n] : neighbours_)
        if (n.port == port) {
            peer = &addr;
            break;
        }
    for (const auto &[id, spec] : nhgs_)
        for (const NhgMemberSpec &m : spec.members)
            if (m.via ? *m.via == ip : m.port == port && peer != nullptr && *peer == ip) return id;
    return std::nullopt;
}

std::uint32_t FibBuilder::index_for(std::uint32_t id) {
    if (const auto it = nhg_index_.find(id); it != nhg_index_.end()) return it->second;
    std::uint32_t index;
    const bool reused = !free_indices_.empty();
    if (reused) {
        index = free_indices_.back();
        free_indices_.pop_back();
    } else {
        index = next_index_++;
    }
    nhg_index_.emplace(id, index);
    remember([this, id, index, reused] {
        nhg_index_.erase(id);
        if (reused)
            free_indices_.push_back(index);
        else
            --next_index_;
    });
    return index;
}

Status FibBuilder::add_route(const IpPrefix &prefix, std::uint32_t nhg_id) {
    if (!nhgs_.contains(nhg_id)) return Status::error("nhg " + std::to_string(nhg_id) + " does not exist");
    if (!prefix.addr.v6 && prefix.len > 32) return Status::error("IPv4 prefix length above 32");
    const auto it = routes_.find(prefix);
    const std::optional<std::uint32_t> old = it == routes_.end() ? std::nullopt : std::optional(it->second);
    if (!old)
        if (Status s = check_fits(prefix); !s.ok()) return s;
    routes_[prefix] = nhg_id;
    if (!old) {
        ++(prefix.addr.v6 ? routes6_ : routes4_);
        count_tbl8(prefix, +1);
    }
    mark_dirty(prefix);
    remember([this, prefix, old] {
        if (old) {
            routes_[prefix] = *old;
        } else {
            routes_.erase(prefix);
            --(prefix.addr.v6 ? routes6_ : routes4_);
            count_tbl8(prefix, -1);
        }
    });
    return Status::success();
}

Status FibBuilder::del_route(const IpPrefix &prefix) {
    const auto it = routes_.find(prefix);
    if (it == routes_.end()) return Status::error("no route " + prefix.to_string());
    const std::uint32_t old = it->second;
    routes_.erase(it);
    --(prefix.addr.v6 ? routes6_ : routes4_);
    count_tbl8(prefix, -1);
    // Without it, the routes it covered or shared a subtree with may reserve more groups.
    if (prefix.addr.v6 && tbl8_used6_ > usable_tbl8_groups6()) {
        const std::size_t need = tbl8_used6_;
        routes_.emplace(prefix, old);
        ++routes6_;
        count_tbl8(prefix, +1);
        return Status::error("route " + prefix.to_string() +
                             " stays: without it the routes near it would hold " + std::to_string(need) +
                             " IPv6 tbl8 groups, more than the " + std::to_string(usable_tbl8_groups6()) +
                             " there are (weft --fib6-tbl8-groups sizes them)");
    }
    mark_dirty(prefix);
    remember([this, prefix, old] {
        routes_[prefix] = old;
        ++(prefix.addr.v6 ? routes6_ : routes4_);
        count_tbl8(prefix, +1);
    });
    return Status::success();
}

Status FibBuilder::check_via(std::uint32_t id, const NhgMemberSpec &m) const {
    if (!m.via) return Status::success();
    const std::string member =
        "nhg " + std::to_string(id) + " member " + std::to_string(m.port) + "@" + m.via->to_string();
    const auto n = neighbours_.find(*m.via);
    if (n == neighbours_.end())
        return Status::error(member + ": no neighbour " + m.via->to_string() + " (add it first: neigh add)");
    if (n->second.port != m.port)
        return Status::error(member + ": neighbour " + m.via->to_string() + " is on port " +
                             std::to_string(n->second.port) + ", not on port " + std::to_string(m.port));
    return Status::success();
}

Status FibBuilder::set_nhg(std::uint32_t id, std::vector<NhgMemberSpec> members, NhgMode mode) {
    if (members.empty()) return Status::error("an nhg needs at least one member");
    if (members.size() > kMaxNhgMembers)
        return Status::error("an nhg has at most " + std::to_string(kMaxNhgMembers) + " members");
    if (!nhgs_.contains(id) && nhg_index_.size() >= kMaxNhgs) return Status::error("nhg table full");
    for (const auto &m : members) {
        if (Status s = check_port(m.port); !s.ok()) return s;
        if (Status s = check_via(id, m); !s.ok()) return s;
    }
    const auto it = nhgs_.find(id);
    std::optional<NhgSpec> old = it == nhgs_.end() ? std::nullopt : std::optional(it->second);
    index_for(id);
    nhgs_[id] = NhgSpec{std::move(members), mode};
    remember([this, id, old = std::move(old)] {
        if (old)
            nhgs_[id] = *old;
        else
            nhgs_.erase(id);
    });
    return Status::success();
}

Status FibBuilder::del_nhg(std::uint32_t id) {
    const auto it = nhgs_.find(id);
    if (it == nhgs_.end()) return Status::error("nhg " + std::to_string(id) + " does not exist");
    if (nhg_referenced(id))
        return Status::error("nhg " + std::to_string(id) + " is used by a route or LFT entry");
    NhgSpec old = std::move(it->second);
    nhgs_.erase(it);
    const std::uint32_t index = nhg_index_.at(id);
    free_indices_.push_back(index);
    nhg_index_.erase(id);
    remember([this, id, index, old = std::move(old)] {
        free_indices_.pop_back();  // undone in reverse order: the index pushed above is last
        nhg_index_.emplace(id, index);
        nhgs_[id] = old;
    });
    return Status::success();
}

Status FibBuilder::set_neighbour(const IpAddr &ip, const rte_ether_addr &mac, std::uint16_t port) {
    if (Status s = check_port(port); !s.ok()) return s;
    if (rte_is_multicast_ether_addr(&mac) || rte_is_zero_ether_addr(&mac))
        return Status::error("a neighbour needs a unicast MAC");
    const auto it = neighbours_.find(ip);
    const std::optional<NeighbourSpec> old =
        it == neighbours_.end() ? std::nullopt : std::optional(it->second);
    if (old && old->port != port)
        if (const auto user = nhg_using(ip, old->port))
            return Status::error("neighbour " + ip.to_string() + " is used by nhg " + std::to_string(*user) +
                                 " on port " + std::to_string(old->port) + "; it cannot move to port " +
                                 std::to_string(port));
    neighbours_[ip] = NeighbourSpec{mac, port};
    remember([this, ip, old] {
        if (old)
            neighbours_[ip] = *old;
        else
            neighbours_.erase(ip);
    });
    return Status::success();
}

Status FibBuilder::del_neighbour(const IpAddr &ip) {
    const auto it = neighbours_.find(ip);
    if (it == neighbours_.end()) return Status::error("no neighbour " + ip.to_string());
    if (const auto user = nhg_using(ip, it->second.port))
        return Status::error("neighbour " + ip.to_string() + " is used by nhg " + std::to_string(*user) +
                             " (its members' MAC); change or delete the group first");
    const NeighbourSpec old = it->second;
    neighbours_.erase(it);
    remember([this, ip, old] { neighbours_[ip] = old; });
    return Status::success();
}

namespace {

template <typename Map, typename Key>
std::optional<typename Map::mapped_type> value_of(const Map &map, const Key &key) {
    const auto it = map.find(key);
    if (it == map.end()) return std::nullopt;
    return it->second;
}

template <typename Map, typename Key>
void restore(Map &map, const Key &key, const std::optional<typename Map::mapped_type> &old) {
    if (old)
        map[key] = *old;
    else
        map.erase(key);
}

}  // namespace

Status FibBuilder::set_lft_port(std::uint16_t lid, std::uint16_t port) {
    if (lid == 0 || lid > kMaxUnicastLid) return Status::error("unicast LIDs are 0x0001..0xBFFF");
    if (Status s = check_port(port); !s.ok()) return s;
    remember([this, lid, old = value_of(lft_, lid)] { restore(lft_, lid, old); });
    lft_[lid] = LftSpec{LftTarget::Kind::Port, port};
    lids_dirty_ = true;
    return Status::success();
}

Status FibBuilder::set_lft_nhg(std::uint16_t lid, std::uint32_t nhg_id) {
    if (lid == 0 || lid > kMaxUnicastLid) return Status::error("unicast LIDs are 0x0001..0xBFFF");
    if (!nhgs_.contains(nhg_id)) return Status::error("nhg " + std::to_string(nhg_id) + " does not exist");
    remember([this, lid, old = value_of(lft_, lid)] { restore(lft_, lid, old); });
    lft_[lid] = LftSpec{LftTarget::Kind::Nhg, nhg_id};
    lids_dirty_ = true;
    return Status::success();
}

Status FibBuilder::clear_lft(std::uint16_t lid) {
    const auto old = value_of(lft_, lid);
    if (!old) return Status::error("no LFT entry for LID " + std::to_string(lid));
    remember([this, lid, old] { restore(lft_, lid, old); });
    lft_.erase(lid);
    lids_dirty_ = true;
    return Status::success();
}

Status FibBuilder::set_mft(std::uint16_t mlid, std::uint64_t port_mask) {
    if (mlid < kFirstMulticastLid || mlid > kLastMulticastLid)
        return Status::error("multicast LIDs are 0xC000..0xFFFE");
    if (config_.num_ports < 64 && (port_mask >> config_.num_ports) != 0)
        return Status::error("port mask names a port out of range");
    remember([this, mlid, old = value_of(mft_, mlid)] { restore(mft_, mlid, old); });
    if (port_mask == 0)
        mft_.erase(mlid);
    else
        mft_[mlid] = port_mask;
    lids_dirty_ = true;
    return Status::success();
}

Status FibBuilder::set_sl2vl(std::uint16_t port, std::uint8_t sl, std::uint8_t vl) {
    if (Status s = check_port(port); !s.ok()) return s;
    if (sl >= kNumSl || vl >= kNumVl - 1) return Status::error("SL is 0..15, data VL is 0..14");
    remember([this, port, sl, old = sl2vl_[port][sl]] { sl2vl_[port][sl] = old; });
    sl2vl_[port][sl] = vl;
    return Status::success();
}

Status FibBuilder::set_switch_lid(std::uint16_t base, std::uint8_t lmc) {
    if (lmc > 7) return Status::error("LMC is 0..7");
    const std::uint32_t count = 1u << lmc;
    if (base != 0 && (base % count != 0 || base + count - 1 > kMaxUnicastLid))
        return Status::error("the switch's LIDs are unicast (0x0001..0xBFFF), the base a multiple of 2^LMC");
    remember([this, old = switch_lid_] { switch_lid_ = old; });
    switch_lid_ = SwitchLid{base, base == 0 ? std::uint8_t{0} : lmc};
    return Status::success();
}

void FibBuilder::set_ars(std::shared_ptr<const ars::Config> config) {
    remember([this, old = ars_] { ars_ = old; });
    ars_ = std::move(config);
}

std::unique_ptr<FibSnapshot> FibBuilder::build() {
    try {
        auto snapshot = build_snapshot();
        undo_.clear();
        return snapshot;
    } catch (const std::exception &e) {
        rollback();
        throw std::runtime_error(std::string(e.what()) + "; nothing changed");
    }
}

std::unique_ptr<FibSnapshot> FibBuilder::build_snapshot() {
    // Build everything that may throw into locals first; commit to members only at the end.
    auto fib4 = fib4_dirty_ || !fib4_ ? build_fib4(config_, routes_, nhg_index_) : fib4_;
    auto fib6 = fib6_dirty_ || !fib6_ ? build_fib6(config_, routes_, nhg_index_) : fib6_;

    auto route_list = route_list_;
    if (fib4_dirty_ || fib6_dirty_ || !route_list) {
        auto l = std::make_shared<std::vector<RouteEntry>>();
        l->reserve(routes_.size());
        for (const auto &[prefix, id] : routes_) l->push_back(RouteEntry{prefix, id});
        route_list = std::move(l);
    }

    std::shared_ptr<const LidTables> lids = lids_;
    if (lids_dirty_ || !lids) {
        auto t = std::make_shared<LidTables>();
        for (const auto &[lid, spec] : lft_) {
            const std::uint32_t value =
                spec.kind == LftTarget::Kind::Nhg ? nhg_index_.at(spec.value) : spec.value;
            t->lft[lid] = LidTables::encode(LftTarget{spec.kind, value});
        }
        for (const auto &[mlid, mask] : mft_) t->mft[mlid - kFirstMulticastLid] = mask;
        lids = std::move(t);
    }

    // The peer of each port: its lowest-addressed neighbour.
    std::array<const NeighbourSpec *, kMaxPorts> peer{};
    for (const auto &[ip, n] : neighbours_)
        if (peer[n.port] == nullptr) peer[n.port] = &n;

    std::vector<NhgEntry> entries(next_index_);
    std::vector<ResolvedMember> members;
    for (const auto &[id, spec] : nhgs_) {
        NhgEntry &e = entries[nhg_index_.at(id)];
        e.id = id;
        e.mode = spec.mode;
        e.first_member = static_cast<std::uint32_t>(members.size());
        e.member_count = static_cast<std::uint16_t>(spec.members.size());
        for (const auto &m : spec.members) {
            ResolvedMember r;
            r.port = m.port;
            const NeighbourSpec *n = nullptr;
            if (m.via) {
                const auto it = neighbours_.find(*m.via);
                if (it != neighbours_.end() && it->second.port == m.port) n = &it->second;
            } else {
                n = peer[m.port];
            }
            if (n != nullptr) {
                r.resolved = true;
                r.dst_mac = n->mac;
            }
            members.push_back(r);
        }
    }

    auto snapshot = std::make_unique<FibSnapshot>(++generation_, fib4, fib6, route_list, std::move(entries),
                                                  std::move(members), lids, sl2vl_, ars_, switch_lid_);
    route_list_ = std::move(route_list);
    fib4_ = std::move(fib4);
    fib6_ = std::move(fib6);
    lids_ = std::move(lids);
    fib4_dirty_ = fib6_dirty_ = lids_dirty_ = false;
    return snapshot;
}

}  // namespace weft::dataplane
