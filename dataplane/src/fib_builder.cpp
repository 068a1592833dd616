#include "weft/dataplane/fib_builder.hpp"

#include <rte_errno.h>

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
        if (rte_fib_add(fib, prefix.addr.v4_host_order(), prefix.len, index.at(id)) != 0)
            throw std::runtime_error("rte_fib_add failed for " + prefix.to_string());
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
        if (rte_fib6_add(fib, prefix.addr.bytes.data(), prefix.len, index.at(id)) != 0)
            throw std::runtime_error("rte_fib6_add failed for " + prefix.to_string());
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

Status FibBuilder::check_port(std::uint16_t port) const {
    if (port >= config_.num_ports)
        return Status::error("port " + std::to_string(port) + " out of range (0.." +
                             std::to_string(config_.num_ports - 1) + ")");
    return Status::success();
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

std::uint32_t FibBuilder::index_for(std::uint32_t id) {
    if (const auto it = nhg_index_.find(id); it != nhg_index_.end()) return it->second;
    std::uint32_t index;
    if (!free_indices_.empty()) {
        index = free_indices_.back();
        free_indices_.pop_back();
    } else {
        index = next_index_++;
    }
    nhg_index_.emplace(id, index);
    return index;
}

Status FibBuilder::add_route(const IpPrefix &prefix, std::uint32_t nhg_id) {
    if (!nhgs_.contains(nhg_id)) return Status::error("nhg " + std::to_string(nhg_id) + " does not exist");
    if (!prefix.addr.v6 && prefix.len > 32) return Status::error("IPv4 prefix length above 32");
    auto &slot = routes_[prefix];
    slot = nhg_id;
    (prefix.addr.v6 ? fib6_dirty_ : fib4_dirty_) = true;
    return Status::success();
}

Status FibBuilder::del_route(const IpPrefix &prefix) {
    if (routes_.erase(prefix) == 0) return Status::error("no route " + prefix.to_string());
    (prefix.addr.v6 ? fib6_dirty_ : fib4_dirty_) = true;
    return Status::success();
}

Status FibBuilder::set_nhg(std::uint32_t id, std::vector<NhgMemberSpec> members, NhgMode mode) {
    if (members.empty()) return Status::error("an nhg needs at least one member");
    if (members.size() > kMaxNhgMembers)
        return Status::error("an nhg has at most " + std::to_string(kMaxNhgMembers) + " members");
    if (!nhgs_.contains(id) && nhg_index_.size() >= kMaxNhgs) return Status::error("nhg table full");
    for (const auto &m : members)
        if (Status s = check_port(m.port); !s.ok()) return s;
    index_for(id);
    nhgs_[id] = NhgSpec{std::move(members), mode};
    return Status::success();
}

Status FibBuilder::del_nhg(std::uint32_t id) {
    if (!nhgs_.contains(id)) return Status::error("nhg " + std::to_string(id) + " does not exist");
    if (nhg_referenced(id))
        return Status::error("nhg " + std::to_string(id) + " is used by a route or LFT entry");
    nhgs_.erase(id);
    free_indices_.push_back(nhg_index_.at(id));
    nhg_index_.erase(id);
    return Status::success();
}

Status FibBuilder::set_neighbour(const IpAddr &ip, const rte_ether_addr &mac, std::uint16_t port) {
    if (Status s = check_port(port); !s.ok()) return s;
    if (rte_is_multicast_ether_addr(&mac) || rte_is_zero_ether_addr(&mac))
        return Status::error("a neighbour needs a unicast MAC");
    neighbours_[ip] = NeighbourSpec{mac, port};
    return Status::success();
}

Status FibBuilder::del_neighbour(const IpAddr &ip) {
    if (neighbours_.erase(ip) == 0) return Status::error("no neighbour " + ip.to_string());
    return Status::success();
}

Status FibBuilder::set_lft_port(std::uint16_t lid, std::uint16_t port) {
    if (lid == 0 || lid > kMaxUnicastLid) return Status::error("unicast LIDs are 0x0001..0xBFFF");
    if (Status s = check_port(port); !s.ok()) return s;
    lft_[lid] = LftSpec{LftTarget::Kind::Port, port};
    lids_dirty_ = true;
    return Status::success();
}

Status FibBuilder::set_lft_nhg(std::uint16_t lid, std::uint32_t nhg_id) {
    if (lid == 0 || lid > kMaxUnicastLid) return Status::error("unicast LIDs are 0x0001..0xBFFF");
    if (!nhgs_.contains(nhg_id)) return Status::error("nhg " + std::to_string(nhg_id) + " does not exist");
    lft_[lid] = LftSpec{LftTarget::Kind::Nhg, nhg_id};
    lids_dirty_ = true;
    return Status::success();
}

Status FibBuilder::clear_lft(std::uint16_t lid) {
    if (lft_.erase(lid) == 0) return Status::error("no LFT entry for LID " + std::to_string(lid));
    lids_dirty_ = true;
    return Status::success();
}

Status FibBuilder::set_mft(std::uint16_t mlid, std::uint64_t port_mask) {
    if (mlid < kFirstMulticastLid || mlid > kLastMulticastLid)
        return Status::error("multicast LIDs are 0xC000..0xFFFE");
    if (config_.num_ports < 64 && (port_mask >> config_.num_ports) != 0)
        return Status::error("port mask names a port out of range");
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
    sl2vl_[port][sl] = vl;
    return Status::success();
}

std::unique_ptr<FibSnapshot> FibBuilder::build() {
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
                                                  std::move(members), lids, sl2vl_, ars_);
    route_list_ = std::move(route_list);
    fib4_ = std::move(fib4);
    fib6_ = std::move(fib6);
    lids_ = std::move(lids);
    fib4_dirty_ = fib6_dirty_ = lids_dirty_ = false;
    return snapshot;
}

}  // namespace weft::dataplane
