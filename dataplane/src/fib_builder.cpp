#include "weft/dataplane/fib_builder.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "fib_tables.hpp"
#include "weft/dataplane/fib_publisher.hpp"

namespace weft::dataplane {

namespace {

// The IPv6 table's group levels: a group per byte-aligned prefix of these lengths that holds a
// longer route (the first level takes 16 bits, each group one byte).
constexpr unsigned kFirst6 = 16;

// Route slots a batch looks at to refill the telemetry sample.
constexpr std::size_t kSampleRefillSlots = 4096;

// `a` with every bit from `len` on cleared.
IpAddr masked(const IpAddr &a, unsigned len) {
    IpAddr m = a;
    const unsigned whole = len / 8;
    if (whole < m.bytes.size()) {
        m.bytes[whole] = static_cast<std::uint8_t>(m.bytes[whole] & (0xFF00u >> (len % 8)));
        std::fill(m.bytes.begin() + whole + 1, m.bytes.end(), std::uint8_t{0});
    }
    return m;
}

IpPrefix prefix_of(const IpAddr &a, unsigned len) {
    return IpPrefix{masked(a, len), static_cast<std::uint8_t>(len)};
}

}  // namespace

std::vector<unsigned> ecmp_slots(const std::vector<NhgMemberSpec> &members) {
    std::vector<unsigned> w;
    unsigned g = 0;
    for (const NhgMemberSpec &m : members) {
        w.push_back(m.weight);
        g = std::gcd(g, unsigned{m.weight});
    }
    unsigned total = 0;
    for (unsigned &x : w) total += x /= std::max(g, 1u);
    if (total <= kMaxNhgMembers) return w;
    // One slot each, the rest shared in proportion to the weights (largest remainders first).
    const auto n = static_cast<unsigned>(w.size());
    const unsigned rest = static_cast<unsigned>(kMaxNhgMembers) - n;
    std::vector<unsigned> slots(n), order(n);
    unsigned given = 0;
    for (unsigned i = 0; i < n; ++i) {
        slots[i] = 1 + w[i] * rest / total;
        given += slots[i];
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](unsigned a, unsigned b) { return w[a] * rest % total > w[b] * rest % total; });
    for (unsigned k = 0; given < kMaxNhgMembers; ++k, ++given) ++slots[order[k]];
    return slots;
}

FibBuilder::FibBuilder(FibConfig config) : config_(config) {
    if (config_.num_ports > kMaxPorts) config_.num_ports = kMaxPorts;
    config_.tbl8_groups4 = std::min(config_.tbl8_groups4, kMaxTbl8Groups);
    config_.tbl8_groups6 = std::min(config_.tbl8_groups6, kMaxTbl8Groups6);
    fib4_ = std::make_shared<Fib4Table>(config_.tbl8_groups4, config_.socket_id, config_.rcu);
    fib6_ = std::make_shared<Fib6Table>(config_.tbl8_groups6, config_.socket_id, config_.rcu);
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

// ---- routes -----------------------------------------------------------------------------------

// The first change of a batch knows what the tables hold; the last says what they will.
FibBuilder::Staged &FibBuilder::stage(const IpPrefix &prefix, std::optional<std::uint32_t> in_tables_now,
                                      std::optional<std::uint32_t> next) {
    Staged &s = pending_.try_emplace(prefix, Staged{in_tables_now, next}).first->second;
    s.after = next;
    return s;
}

// A route longer than a level's bits holds a group at that level: IPv4, its /24 block; IPv6, each
// byte-aligned prefix from 16 bits up that is shorter than it. A route counts from the moment it
// is staged until a batch takes it out of the tables: a batch adds before it deletes, so the
// tables need the groups of both for a moment.
void FibBuilder::count_groups(const IpPrefix &prefix, int delta) {
    auto bump = [delta](auto &map, const auto &key) {
        auto &n = map[key];
        n = static_cast<std::uint32_t>(static_cast<int>(n) + delta);
        if (n == 0) map.erase(key);
    };
    if (!prefix.addr.v6) {
        if (prefix.len > 24) bump(blocks4_, prefix.addr.v4_host_order() >> 8);
        return;
    }
    for (unsigned base = kFirst6; base < prefix.len; base += 8) bump(nodes6_, prefix_of(prefix.addr, base));
}

std::size_t FibBuilder::groups_needed(const IpPrefix &prefix) const {
    if (!prefix.addr.v6) return prefix.len > 24 && !blocks4_.contains(prefix.addr.v4_host_order() >> 8);
    std::size_t n = 0;
    for (unsigned base = kFirst6; base < prefix.len; base += 8)
        n += !nodes6_.contains(prefix_of(prefix.addr, base));
    return n;
}

Status FibBuilder::check_fits(const IpPrefix &prefix, bool held) const {
    const bool v6 = prefix.addr.v6;
    const std::size_t routes = v6 ? routes6_ : routes4_;
    const int max = v6 ? config_.max_routes6 : config_.max_routes4;
    const char *family = v6 ? "IPv6" : "IPv4";
    const char *option = v6 ? "6" : "4";
    if (routes >= static_cast<std::size_t>(max))
        return Status::error("route " + prefix.to_string() + " does not fit: the " + family + " FIB holds " +
                             std::to_string(max) + " routes, all in use (weft --fib" + option +
                             "-max-routes sizes it)");
    if (held) return Status::success();  // deleted and added again: its groups are held
    const std::size_t need = groups_needed(prefix);
    if (need == 0) return Status::success();
    const std::size_t used = v6 ? nodes6_.size() : blocks4_.size();
    const std::size_t have = v6 ? fib6_->groups_max() : fib4_->groups_max();
    if (used + need > have)
        return Status::error("route " + prefix.to_string() + " does not fit: it needs " +
                             std::to_string(need) + " more " + family + " tbl8 groups, and " +
                             std::to_string(used) + " of " + std::to_string(have) + " are in use" +
                             (pending_.size() > 1 ? " (with the routes this batch adds and deletes)" : "") +
                             " (weft --fib" + option + "-tbl8-groups sizes them)");
    return Status::success();
}

Status FibBuilder::add_route(const IpPrefix &prefix, std::uint32_t nhg_id) {
    if (!nhgs_.contains(nhg_id)) return Status::error("nhg " + std::to_string(nhg_id) + " does not exist");
    if (!prefix.addr.v6 && prefix.len > 32) return Status::error("IPv4 prefix length above 32");
    const auto [it, added] = routes_.try_emplace(prefix, nhg_id);
    if (!added) {
        if (it->second == nhg_id) return Status::success();
        stage(prefix, it->second, nhg_id);
        --nhg_routes_[it->second];
        ++nhg_routes_[nhg_id];
        sample_add(prefix, nhg_id);
        it->second = nhg_id;
        return Status::success();
    }
    // Not a route now: in the tables only if this batch deleted it.
    const auto [touched, first] = pending_.try_emplace(prefix, Staged{std::nullopt, nhg_id});
    const bool held = !first && touched->second.before.has_value();
    if (Status s = check_fits(prefix, held); !s.ok()) {
        routes_.erase(prefix);
        if (first) pending_.erase(prefix);
        return s;
    }
    touched->second.after = nhg_id;
    ++(prefix.addr.v6 ? routes6_ : routes4_);
    ++(prefix.addr.v6 ? lengths6_[prefix.len] : lengths4_[prefix.len]);
    ++nhg_routes_[nhg_id];
    if (!held) count_groups(prefix, +1);
    sample_add(prefix, nhg_id);
    return Status::success();
}

Status FibBuilder::del_route(const IpPrefix &route) {
    const IpPrefix prefix = route;  // `route` may be the key erased below (a caller iterating routes())
    const auto it = routes_.find(prefix);
    if (it == routes_.end()) return Status::error("no route " + prefix.to_string());
    const std::uint32_t nhg = it->second;
    const bool held = stage(prefix, nhg, std::nullopt).before.has_value();
    if (--nhg_routes_[nhg] == 0) nhg_routes_.erase(nhg);
    routes_.erase(prefix);
    --(prefix.addr.v6 ? routes6_ : routes4_);
    --(prefix.addr.v6 ? lengths6_[prefix.len] : lengths4_[prefix.len]);
    if (!held) count_groups(prefix, -1);  // staged and taken back: never in the tables
    sample_del(prefix);
    return Status::success();
}

std::vector<RouteEntry> FibBuilder::sorted_routes() const {
    std::vector<RouteEntry> out;
    out.reserve(routes_.size());
    for (const auto &[prefix, id] : routes_) out.push_back(RouteEntry{prefix, id});
    std::sort(out.begin(), out.end(),
              [](const RouteEntry &a, const RouteEntry &b) { return a.prefix < b.prefix; });
    return out;
}

std::pair<std::uint32_t, unsigned> FibBuilder::covering(const IpPrefix &prefix) const {
    const std::uint32_t *lengths = prefix.addr.v6 ? lengths6_.data() : lengths4_.data();
    for (unsigned len = prefix.len; len-- > 0;) {
        if (lengths[len] == 0) continue;
        if (const auto it = routes_.find(prefix_of(prefix.addr, len)); it != routes_.end())
            return {nhg_index_.at(it->second), len};
    }
    return {kNoRoute, 0};
}

// The batch into the tables, in an order that gives each address, at every step, its old route
// or its new one: additions and replacements first, longest prefix first, so a route that takes
// over an address is its longest new match (every longer new route is in already); then
// deletions, shortest first, so the route an address falls back to is its new longest match
// (every shorter route left is a new one). A route deleted and added again within the batch is a
// replacement, or nothing.
void FibBuilder::apply_routes() {
    struct Change {
        IpPrefix prefix;
        std::uint32_t value;
    };
    // Bucketed by family and length (their order), each bucket in address order for locality.
    std::vector<std::vector<Change>> upserts(2 * 129), deletes(2 * 129);
    auto bucket = [](const IpPrefix &p) { return (p.addr.v6 ? 129u : 0u) + p.len; };
    std::uint32_t memo_id = 0, memo_index = kNoRoute;
    for (const auto &[prefix, change] : pending_) {
        if (!change.after) {
            if (change.before) deletes[bucket(prefix)].push_back({prefix, 0});
        } else if (change.before != change.after) {
            if (*change.after != memo_id || memo_index == kNoRoute) {
                memo_id = *change.after;
                memo_index = nhg_index_.at(memo_id);
            }
            upserts[bucket(prefix)].push_back({prefix, memo_index});
        }
    }
    auto by_address = [](const Change &a, const Change &b) {
        return a.prefix.addr.bytes < b.prefix.addr.bytes;
    };
    auto paint = [this](const IpPrefix &p, std::uint32_t value, unsigned owner) {
        if (p.addr.v6)
            fib6_->paint(p.addr.bytes.data(), p.len, value, owner);
        else
            fib4_->paint(p.addr.bytes.data(), p.len, value, owner);
    };
    for (unsigned family = 0; family < 2; ++family)
        for (unsigned len = 129; len-- > 0;) {
            auto &v = upserts[family * 129 + len];
            std::sort(v.begin(), v.end(), by_address);
            for (const Change &c : v) paint(c.prefix, c.value, len);
        }
    for (unsigned family = 0; family < 2; ++family)
        for (unsigned len = 0; len < 129; ++len) {
            auto &v = deletes[family * 129 + len];
            std::sort(v.begin(), v.end(), by_address);
            for (const Change &c : v) {
                const auto [value, covering_len] = covering(c.prefix);
                paint(c.prefix, value, covering_len);
                count_groups(c.prefix, -1);
            }
        }
    pending_.clear();
    fib4_->end_update();
    fib6_->end_update();
}

// ---- the sample of routes telemetry lists -------------------------------------------------------

void FibBuilder::sample_add(const IpPrefix &prefix, std::uint32_t nhg) {
    if (sample_.size() >= kRouteSample && sample_.rbegin()->first < prefix) return;  // most adds, at once
    const auto it = sample_.find(prefix);
    if (it != sample_.end()) {
        it->second = nhg;
    } else if (sample_.size() < kRouteSample) {
        sample_.emplace(prefix, nhg);
    } else if (prefix < sample_.rbegin()->first) {
        sample_.erase(std::prev(sample_.end()));  // keeps the lowest prefixes while it can
        sample_.emplace(prefix, nhg);
    } else {
        return;
    }
    sample_dirty_ = true;
}

void FibBuilder::sample_del(const IpPrefix &prefix) {
    if (sample_.erase(prefix) != 0) sample_dirty_ = true;
}

// ---- next-hop groups --------------------------------------------------------------------------

std::optional<std::uint32_t> FibBuilder::nhg_index(std::uint32_t id) const {
    const auto it = nhg_index_.find(id);
    if (it == nhg_index_.end()) return std::nullopt;
    return it->second;
}

std::size_t FibBuilder::routes_to(std::uint32_t id) const {
    const auto it = nhg_routes_.find(id);
    return it == nhg_routes_.end() ? 0 : it->second;
}

bool FibBuilder::nhg_referenced(std::uint32_t id) const {
    if (const auto it = nhg_routes_.find(id); it != nhg_routes_.end() && it->second != 0) return true;
    for (const auto &[lid, spec] : lft_)
        if (spec.kind == LftTarget::Kind::Nhg && spec.value == id) return true;
    return false;
}

std::optional<std::uint32_t> FibBuilder::nhg_using(const IpAddr &ip, std::uint16_t port) const {
    // A member without `via` takes its MAC from the port's peer, its lowest-addressed neighbour.
    const IpAddr *peer = nullptr;
    for (const auto &[key, n] : neighbours_)
        if (n.port == port) {
            peer = &key.ip;
            break;
        }
    for (const auto &[id, spec] : nhgs_) {
        if (spec.mode == NhgMode::Local) continue;  // its members are not used: no MAC taken
        for (const NhgMemberSpec &m : spec.members)
            if (m.via ? *m.via == ip && (!is_link_local_v6(ip) || m.port == port)
                      : m.port == port && peer != nullptr && *peer == ip)
                return id;
    }
    return std::nullopt;
}

const NeighbourSpec *FibBuilder::neighbour(const IpAddr &ip, std::uint16_t port) const {
    const auto it = neighbours_.find(NeighbourKey::of(ip, port));
    return it == neighbours_.end() || it->second.port != port ? nullptr : &it->second;
}

std::uint32_t FibBuilder::index_for(std::uint32_t id) {
    if (const auto it = nhg_index_.find(id); it != nhg_index_.end()) return it->second;
    std::uint32_t index;
    if (const auto it = leaving_.find(id); it != leaving_.end()) {
        // Deleted and added again within one batch: it stays what it was.
        index = it->second.index;
        leaving_.erase(it);
    } else if (!free_indices_.empty()) {
        index = free_indices_.back();
        free_indices_.pop_back();
        fresh_indices_.insert(index);
    } else {
        index = next_index_++;
        fresh_indices_.insert(index);
    }
    nhg_index_.emplace(id, index);
    return index;
}

Status FibBuilder::check_via(std::uint32_t id, const NhgMemberSpec &m) const {
    if (!m.via) return Status::success();
    const std::string member =
        "nhg " + std::to_string(id) + " member " + std::to_string(m.port) + "@" + m.via->to_string();
    const auto n = neighbours_.find(NeighbourKey::of(*m.via, m.port));
    if (n == neighbours_.end())
        return Status::error(
            member + ": no neighbour " + m.via->to_string() +
            (is_link_local_v6(*m.via) ? " on port " + std::to_string(m.port) : std::string()) +
            " (add it first: neigh add)");
    if (n->second.port != m.port)
        return Status::error(member + ": neighbour " + m.via->to_string() + " is on port " +
                             std::to_string(n->second.port) + ", not on port " + std::to_string(m.port));
    return Status::success();
}

Status FibBuilder::set_nhg(std::uint32_t id, std::vector<NhgMemberSpec> members, NhgMode mode) {
    if (mode == NhgMode::Drop && !members.empty()) return Status::error("a drop nhg has no members");
    if (members.empty() && mode != NhgMode::Drop) return Status::error("an nhg needs at least one member");
    if (members.size() > kMaxNhgMembers)
        return Status::error("an nhg has at most " + std::to_string(kMaxNhgMembers) + " members");
    // Indices in use: the groups', and those of groups leaving with this batch.
    if (!nhgs_.contains(id) && !leaving_.contains(id) && nhg_index_.size() + leaving_.size() >= kMaxNhgs)
        return Status::error("nhg table full");
    for (const auto &m : members) {
        if (Status s = check_port(m.port); !s.ok()) return s;
        if (Status s = check_via(id, m); !s.ok()) return s;
        if (m.weight < 1 || m.weight > kMaxNhgWeight)
            return Status::error("nhg " + std::to_string(id) + " member " + std::to_string(m.port) +
                                 ": weight " + std::to_string(m.weight) + " is not 1.." +
                                 std::to_string(kMaxNhgWeight));
        if (m.weight != 1 && mode == NhgMode::Ars)
            return Status::error("nhg " + std::to_string(id) +
                                 ": an ARS group's members have no weights (ARS chooses by quality)");
    }
    index_for(id);
    nhgs_[id] = NhgSpec{std::move(members), mode};
    return Status::success();
}

Status FibBuilder::del_nhg(std::uint32_t id) {
    const auto it = nhgs_.find(id);
    if (it == nhgs_.end()) return Status::error("nhg " + std::to_string(id) + " does not exist");
    if (nhg_referenced(id))
        return Status::error("nhg " + std::to_string(id) + " is used by a route or LFT entry");
    const std::uint32_t index = nhg_index_.at(id);
    if (fresh_indices_.erase(index) != 0) {
        free_indices_.push_back(index);  // never published: nothing can name it
    } else {
        leaving_.emplace(id, Leaving{index, std::move(it->second)});
    }
    nhgs_.erase(it);
    nhg_index_.erase(id);
    return Status::success();
}

// ---- neighbours, LID tables, switch LID, ARS ----------------------------------------------------

Status FibBuilder::set_neighbour(const IpAddr &ip, const rte_ether_addr &mac, std::uint16_t port) {
    if (Status s = check_port(port); !s.ok()) return s;
    if (rte_is_multicast_ether_addr(&mac) || rte_is_zero_ether_addr(&mac))
        return Status::error("a neighbour needs a unicast MAC");
    const NeighbourKey key = NeighbourKey::of(ip, port);  // a link-local one: this port's
    const auto it = neighbours_.find(key);
    if (it != neighbours_.end() && it->second.port != port)
        if (const auto user = nhg_using(ip, it->second.port))
            return Status::error("neighbour " + ip.to_string() + " is used by nhg " + std::to_string(*user) +
                                 " on port " + std::to_string(it->second.port) + "; it cannot move to port " +
                                 std::to_string(port));
    neighbours_[key] = NeighbourSpec{mac, port};
    return Status::success();
}

Status FibBuilder::del_neighbour_key(std::map<NeighbourKey, NeighbourSpec>::iterator it) {
    if (const auto user = nhg_using(it->first.ip, it->second.port))
        return Status::error("neighbour " + it->first.ip.to_string() + " is used by nhg " +
                             std::to_string(*user) + " (its members' MAC); change or delete the group first");
    neighbours_.erase(it);
    return Status::success();
}

Status FibBuilder::del_neighbour(const IpAddr &ip, std::optional<std::uint16_t> port) {
    if (!is_link_local_v6(ip) || port) {
        const auto it = neighbours_.find(NeighbourKey::of(ip, port.value_or(NeighbourKey::kAnyPort)));
        if (it == neighbours_.end() || (port && it->second.port != *port))
            return Status::error("no neighbour " + ip.to_string() +
                                 (port ? " on port " + std::to_string(*port) : ""));
        return del_neighbour_key(it);
    }
    // A link-local address alone: on every port it is on, all or none.
    std::vector<std::map<NeighbourKey, NeighbourSpec>::iterator> found;
    for (auto it = neighbours_.lower_bound(NeighbourKey{ip, 0});
         it != neighbours_.end() && it->first.ip == ip; ++it)
        found.push_back(it);
    if (found.empty()) return Status::error("no neighbour " + ip.to_string());
    for (const auto &it : found)
        if (const auto user = nhg_using(ip, it->second.port))
            return Status::error("neighbour " + ip.to_string() + " on port " +
                                 std::to_string(it->second.port) + " is used by nhg " +
                                 std::to_string(*user) +
                                 " (its members' MAC); change or delete the group first");
    for (const auto &it : found) neighbours_.erase(it);
    return Status::success();
}

namespace {
Status check_unicast_lid(std::uint32_t lid) {
    if ((lid >= 1 && lid <= kMaxUnicastLid) || (lid >= kFirstVlid && lid <= kMaxVlid))
        return Status::success();
    return Status::error("unicast LIDs are 0x0001..0xBFFF (pLIDs) and 0x10000..0x3FFFF (vLIDs)");
}
}  // namespace

Status FibBuilder::set_lft_port(std::uint32_t lid, std::uint16_t port) {
    if (Status s = check_unicast_lid(lid); !s.ok()) return s;
    if (Status s = check_port(port); !s.ok()) return s;
    lft_[lid] = LftSpec{LftTarget::Kind::Port, port};
    lids_dirty_ = true;
    return Status::success();
}

Status FibBuilder::set_lft_nhg(std::uint32_t lid, std::uint32_t nhg_id) {
    if (Status s = check_unicast_lid(lid); !s.ok()) return s;
    const auto it = nhgs_.find(nhg_id);
    if (it == nhgs_.end()) return Status::error("nhg " + std::to_string(nhg_id) + " does not exist");
    if (it->second.mode == NhgMode::Drop)
        return Status::error("nhg " + std::to_string(nhg_id) + " drops: no LFT entry names it");
    lft_[lid] = LftSpec{LftTarget::Kind::Nhg, nhg_id};
    lids_dirty_ = true;
    return Status::success();
}

Status FibBuilder::clear_lft(std::uint32_t lid) {
    if (lft_.erase(lid) == 0) return Status::error("no LFT entry for LID " + std::to_string(lid));
    lids_dirty_ = true;
    return Status::success();
}

Status FibBuilder::set_mft(std::uint16_t mlid, const PortMask &ports) {
    if (mlid < kFirstMulticastLid || mlid > kLastMulticastLid)
        return Status::error("multicast LIDs are 0xC000..0xFFFE");
    if (ports.end() > config_.num_ports) return Status::error("port mask names a port out of range");
    if (ports.none())
        mft_.erase(mlid);
    else
        mft_[mlid] = ports;
    lids_dirty_ = true;
    return Status::success();
}

Status FibBuilder::set_sl2vl(std::uint16_t port, std::uint8_t sl, std::uint8_t vl) {
    if (Status s = check_port(port); !s.ok()) return s;
    if (sl >= kNumSl || vl >= kNumVl - 1) return Status::error("SL is 0..15, data VL is 0..14");
    sl2vl_[port][sl] = vl;
    return Status::success();
}

Status FibBuilder::set_switch_lid(std::uint16_t base, std::uint8_t lmc) {
    if (lmc > 7) return Status::error("LMC is 0..7");
    const std::uint32_t count = 1u << lmc;
    if (base != 0 && (base % count != 0 || base + count - 1 > kMaxUnicastLid))
        return Status::error("the switch's LIDs are unicast (0x0001..0xBFFF), the base a multiple of 2^LMC");
    switch_lid_ = SwitchLid{base, base == 0 ? std::uint8_t{0} : lmc};
    return Status::success();
}

void FibBuilder::set_ars(std::shared_ptr<const ars::Config> config) {
    ars_ = std::move(config);
}

// ---- capacity ---------------------------------------------------------------------------------

FibCapacity FibBuilder::capacity() const {
    FibCapacity c;
    c.ipv4 = {routes4_, static_cast<std::size_t>(config_.max_routes4), blocks4_.size(), fib4_->groups_max(),
              fib4_->groups_linked()};
    c.ipv6 = {routes6_, static_cast<std::size_t>(config_.max_routes6), nodes6_.size(), fib6_->groups_max(),
              fib6_->groups_linked()};
    c.nhgs = nhgs_.size();
    c.max_nhgs = kMaxNhgs;
    c.neighbours = neighbours_.size();
    return c;
}

std::size_t FibBuilder::memory_bytes() const noexcept {
    // An unordered_map node: the next pointer, the cached hash and the key and value, rounded to
    // malloc's 16 bytes; its bucket array is one pointer a bucket.
    auto hashed = [](const auto &map, std::size_t kv) {
        return map.size() * ((8 + 8 + kv + 15) / 16 * 16 + 16) + map.bucket_count() * 8;
    };
    return fib4_->memory_bytes() + fib6_->memory_bytes() + routes_.memory_bytes() + pending_.memory_bytes() +
           nodes6_.memory_bytes() + hashed(blocks4_, 8) + hashed(nhg_routes_, 8);
}

// ---- batches ----------------------------------------------------------------------------------

std::unique_ptr<FibSnapshot> FibBuilder::build() {
    return apply(nullptr);
}

void FibBuilder::commit(FibPublisher &publisher) {
    publisher.publish(apply(&publisher));
}

std::unique_ptr<FibSnapshot> FibBuilder::apply(FibPublisher *publisher) {
    if (!pending_.empty()) {
        if (publisher != nullptr && !fresh_indices_.empty()) {
            // Routes of this batch may name these groups: every worker sees them first.
            publisher->publish(build_snapshot(true));
            publisher->synchronize();
            fresh_indices_.clear();
        }
        apply_routes();
    }
    auto snapshot = build_snapshot(false);
    finish_batch();
    return snapshot;
}

void FibBuilder::finish_batch() {
    for (const auto &[id, l] : leaving_) free_indices_.push_back(l.index);
    leaving_.clear();
    fresh_indices_.clear();
}

std::unique_ptr<FibSnapshot> FibBuilder::build_snapshot(bool with_leaving) {
    // Refill a sample that deletions thinned (it keeps the lowest prefixes it was given): a
    // bounded walk of the routes per batch, from where the last one stopped.
    if (sample_.size() < kRouteSample && sample_.size() < routes_.size() && routes_.slot_count() != 0)
        for (std::size_t n = 0; n < kSampleRefillSlots && sample_.size() < kRouteSample; ++n) {
            sample_cursor_ = (sample_cursor_ + 1) % routes_.slot_count();
            if (const auto *r = routes_.slot(sample_cursor_))
                sample_dirty_ |= sample_.emplace(r->first, r->second).second;
        }
    if (sample_dirty_ || !sample_list_) {
        auto l = std::make_shared<std::vector<RouteEntry>>();
        l->reserve(sample_.size());
        for (const auto &[prefix, id] : sample_) l->push_back(RouteEntry{prefix, id});
        sample_list_ = std::move(l);
        sample_dirty_ = false;
    }

    std::shared_ptr<const LidTables> lids = lids_;
    if (lids_dirty_ || !lids) {
        auto t = std::make_shared<LidTables>();
        if (!lft_.empty() && lft_.rbegin()->first >= kFirstVlid)
            t->vlft.assign(lft_.rbegin()->first - kFirstVlid + 1, 0);
        for (const auto &[lid, spec] : lft_) {
            const std::uint32_t value =
                spec.kind == LftTarget::Kind::Nhg ? nhg_index_.at(spec.value) : spec.value;
            (lid < kFirstVlid ? t->lft[lid] : t->vlft[lid - kFirstVlid]) =
                LidTables::encode(LftTarget{spec.kind, value});
        }
        for (const auto &[mlid, mask] : mft_) t->mft[mlid - kFirstMulticastLid] = mask;
        lids = std::move(t);
    }

    // The peer of each port: its lowest-addressed neighbour.
    std::array<const NeighbourSpec *, kMaxPorts> peer{};
    for (const auto &[key, n] : neighbours_)
        if (peer[n.port] == nullptr) peer[n.port] = &n;

    std::vector<NhgEntry> entries(next_index_);
    std::vector<ResolvedMember> members;
    auto add_group = [&](std::uint32_t id, std::uint32_t index, const NhgSpec &spec) {
        NhgEntry &e = entries[index];
        e.id = id;
        e.mode = spec.mode;
        e.first_member = static_cast<std::uint32_t>(members.size());
        const std::vector<unsigned> slots = ecmp_slots(spec.members);
        for (const auto &m : spec.members) {
            ResolvedMember r;
            r.port = m.port;
            const NeighbourSpec *n = nullptr;
            if (m.via) {
                n = neighbour(*m.via, m.port);
            } else {
                n = peer[m.port];
            }
            if (n != nullptr) {
                r.resolved = true;
                r.dst_mac = n->mac;
            }
            members.push_back(r);
        }
        for (std::size_t i = 0; i < slots.size(); ++i)
            for (unsigned k = 1; k < slots[i]; ++k) members.push_back(members[e.first_member + i]);
        e.member_count = static_cast<std::uint16_t>(members.size() - e.first_member);
    };
    for (const auto &[id, spec] : nhgs_) add_group(id, nhg_index_.at(id), spec);
    if (with_leaving)
        for (const auto &[id, l] : leaving_) add_group(id, l.index, l.spec);

    auto snapshot = std::make_unique<FibSnapshot>(++generation_, fib4_, fib6_, sample_list_, routes_.size(),
                                                  std::move(entries), std::move(members), lids, sl2vl_, ars_,
                                                  switch_lid_);
    lids_ = std::move(lids);
    lids_dirty_ = false;
    return snapshot;
}

}  // namespace weft::dataplane
