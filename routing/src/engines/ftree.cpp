// OpenSM's fat-tree routing (ftree). Topology: switches are ranked from the roots (given) or
// from the leaves (switches with compute nodes), every switch link must join adjacent ranks,
// and without a root list each rank must be uniform (same number of up/down port groups and
// ports per group). Switches get OpenSM's index tuples by BFS from the first leaf, which fixes
// the leaf order and the compute-node order.
//
// Routing, per compute node in leaf/port order: the route *down* to it is assigned going up
// from its leaf, at each level through the up group and port with the fewest down routes so
// far; every switch passed on the way then assigns the route *up* to it for the switches below
// it, through its least-used down ports. Leaves with fewer compute nodes than the fullest leaf
// route "dummy" nodes so that indices stay aligned. This spreads the downward routes of
// consecutive nodes over distinct top switches, which makes shift permutations congestion-free
// on pure fat trees.
#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_set>

#include "engines/engines.hpp"
#include "engines/osm_guid_order.hpp"
#include "engines/switch_graph.hpp"
#include "engines/updown_routing.hpp"
#include "weft/routing/ftree.hpp"

namespace weft::routing::engines {
namespace {

constexpr SwitchIdx kNone = kNoSwitch;
constexpr std::uint64_t kLoadUnit = std::uint64_t{1} << 32;  // one route in a Slot key

struct FtPort {
    PortNum port = 0, remote_port = 0;
    std::uint32_t up = 0, down = 0;  // routes going up / down through this link
};

struct FtGroup {
    SwitchIdx remote = kNone;  // kNone: the group is a CA port
    NodeIdx ca = kNoNode;
    PortNum ca_port = 0;
    bool cn = false, io = false;
    std::uint32_t first = 0, count = 0;  // ports
    std::uint32_t up = 0, down = 0;
};

struct FtSwitch {
    unsigned rank = 0;
    bool leaf = false;  // has compute nodes
    std::uint64_t tuple = 0;
    bool indexed = false;
    std::vector<std::uint32_t> up, down;  // group ids
    std::uint32_t cns = 0;
    // Routing view: switch groups only, as ranges of FatTree::slots_.
    std::uint32_t up_off = 0, up_len = 0, down_off = 0, down_len = 0;
    bool switch_below = false, ca_below = false;
    std::uint32_t below_set = 0;  // id of the set of switches below (shared by e.g. a root group)
};

bool listed(const std::vector<Guid> &list, Guid a, Guid b) {
    return std::find(list.begin(), list.end(), a) != list.end() ||
           std::find(list.begin(), list.end(), b) != list.end();
}

// Tuple bytes packed big-endian so that integer order is OpenSM's lexicographic tuple order.
std::uint8_t tuple_at(std::uint64_t t, unsigned i) {
    return static_cast<std::uint8_t>(t >> (8 * (7 - i)));
}
std::uint64_t tuple_set(std::uint64_t t, unsigned i, std::uint8_t v) {
    const unsigned shift = 8 * (7 - i);
    return (t & ~(std::uint64_t{0xFF} << shift)) | (std::uint64_t{v} << shift);
}

}  // namespace

class FatTree {
  public:
    std::string analyse(const Fabric &f, const RoutingOptions &o);
    void route(const Fabric &f, const RoutingOptions &o, RoutingTables &t);
    FtreeCaOrder ca_order(const Fabric &f) const;

  private:
    bool route_up_by_down(SwitchIdx sw, SwitchIdx prev, bool real, bool main, unsigned hops);
    bool route_down_by_up(SwitchIdx sw, SwitchIdx prev, bool real, bool main, unsigned credit, unsigned hops);
    std::uint32_t least_up_port(const FtGroup &g) const;
    std::uint32_t least_down_port(const FtGroup &g) const;
    void set_route(SwitchIdx sw, PortNum port, unsigned hops);
    void resort(std::uint32_t off, std::uint32_t len);
    void begin_lid();
    void end_lid(Lid lid, RoutingTables &t);
    void flush(RoutingTables &t);
    std::string index_switches();
    void build_slots();

    // Port groups of a switch in load order: a compact copy of the load next to the group id.
    struct Slot {
        // Sort key: the group's load (routes counted for this direction) in the high half, the
        // remote switch's position in tuple order (OpenSM's tie-break) in the low half.
        std::uint64_t key = 0;
        std::uint32_t gid = 0;
        SwitchIdx remote = kNone;     // copied from the group: most visits only look at it
        bool remote_is_leaf = false;  // no switches below the remote: nothing to recurse into
        bool remote_has_ca = false;
    };
    std::vector<Slot> slots_;
    // Per LID and per set of switches below: the fewest hops at which a switch with that set
    // below has checked all of them. Hops only shrink within a LID, so a later visit with at
    // least as many hops would skip every one of them (the check that dominates at scale).
    std::vector<std::uint8_t> below_done_;
    static constexpr std::size_t kBlock = 64;
    std::vector<PortNum> col_port_, block_port_;
    std::vector<std::uint8_t> block_hop_;
    std::vector<Lid> block_lids_;

    std::vector<FtSwitch> sw_;
    std::vector<FtGroup> groups_;
    std::vector<FtPort> ports_;
    std::vector<SwitchIdx> leaves_;  // in index order
    std::vector<Guid> guid_;
    std::vector<Lid> sw_lid_;
    unsigned leaf_rank_ = 0;
    std::uint32_t max_cns_ = 0;
    // Per routed LID: hops from each switch (kInfHops = not routed yet).
    std::vector<std::uint8_t> hop_;
};

std::string FatTree::analyse(const Fabric &f, const RoutingOptions &o) {
    if (o.lmc > 0) return "LMC > 0 is not supported by fat-tree routing";
    const SwitchGraph g(f);
    const std::size_t n = g.size();
    if (n == 0) return "not a switched subnet";
    sw_.assign(n, {});
    guid_.resize(n);
    sw_lid_.resize(n);
    for (SwitchIdx s = 0; s < n; ++s) {
        guid_[s] = f.node(f.switch_node(s)).guid;
        sw_lid_[s] = f.port(f.switch_node(s), 0).lid;
    }
    // Compute nodes: the CN list, else every CA port; a leaf is a switch with one cabled to it.
    std::vector<SwitchIdx> leaves;
    for (SwitchIdx s = 0; s < n; ++s) {
        const auto ports = f.ports(f.switch_node(s));
        for (PortNum p = 1; p < ports.size(); ++p) {
            const Port &x = ports[p];
            if (!x.linked() || f.node(x.peer).is_switch()) continue;
            const Node &ca = f.node(x.peer);
            const Port &cp = f.port(x.peer, x.peer_port);
            if (cp.lid == 0) continue;
            if (o.cn_guids.empty() || listed(o.cn_guids, cp.guid, ca.guid)) ++sw_[s].cns;
        }
        if (sw_[s].cns) sw_[s].leaf = true, leaves.push_back(s);
    }
    if (leaves.empty()) return "no compute nodes";
    const bool roots_given = !o.root_guids.empty();
    std::vector<unsigned> rank;
    if (roots_given) {
        const auto roots = switches_named(f, o.root_guids);
        if (roots.empty()) return "none of the root GUIDs names a switch of the fabric";
        rank = bfs_rank(g, roots);
        leaf_rank_ = rank[leaves.front()];
        for (SwitchIdx s : leaves)
            if (rank[s] != leaf_rank_)
                return "compute nodes on switches of different ranks (" + std::to_string(rank[s]) + " and " +
                       std::to_string(leaf_rank_) + ")";
    } else {
        rank = bfs_rank(g, leaves);
        unsigned top = 0;
        for (unsigned r : rank)
            if (r != UpDownRouting::kUnranked) top = std::max(top, r);
        for (unsigned &r : rank)
            if (r != UpDownRouting::kUnranked) r = top - r;
        leaf_rank_ = top;
    }
    for (SwitchIdx s = 0; s < n; ++s) {
        if (rank[s] == UpDownRouting::kUnranked)
            return "switch " + std::to_string(guid_[s]) + " is not connected";
        sw_[s].rank = rank[s];
        if (rank[s] > leaf_rank_) return "switches below the leaf rank";
    }
    if (leaf_rank_ + 1 < 2 || leaf_rank_ + 1 > 8)
        return "tree rank " + std::to_string(leaf_rank_ + 1) + " is outside 2..8";

    // Port groups, in port order: one per remote switch, one per CA port.
    groups_.clear();
    ports_.clear();
    for (SwitchIdx s = 0; s < n; ++s) {
        const NodeIdx node = f.switch_node(s);
        const auto ports = f.ports(node);
        std::vector<std::pair<SwitchIdx, std::uint32_t>> by_remote;
        std::vector<std::pair<std::uint32_t, FtPort>> members;  // (group, port)
        for (PortNum p = 1; p < ports.size(); ++p) {
            const Port &x = ports[p];
            if (!x.linked() || x.peer == node) continue;
            const Node &peer = f.node(x.peer);
            if (peer.is_switch()) {
                const SwitchIdx r = peer.sw;
                const unsigned rr = sw_[r].rank, rs = sw_[s].rank;
                if (rr + 1 != rs && rs + 1 != rr)
                    return "link between switches of rank " + std::to_string(rs) + " and " +
                           std::to_string(rr) + " (not a fat tree)";
                auto it =
                    std::find_if(by_remote.begin(), by_remote.end(), [&](auto &e) { return e.first == r; });
                std::uint32_t gid;
                if (it == by_remote.end()) {
                    gid = static_cast<std::uint32_t>(groups_.size());
                    FtGroup grp;
                    grp.remote = r;
                    groups_.push_back(grp);
                    by_remote.emplace_back(r, gid);
                    (rr < rs ? sw_[s].up : sw_[s].down).push_back(gid);
                } else {
                    gid = it->second;
                }
                members.push_back({gid, FtPort{p, x.peer_port}});
            } else {
                const Port &cp = f.port(x.peer, x.peer_port);
                if (cp.lid == 0) continue;
                FtGroup grp;
                grp.ca = x.peer;
                grp.ca_port = x.peer_port;
                grp.cn = o.cn_guids.empty() || listed(o.cn_guids, cp.guid, peer.guid);
                grp.io = listed(o.io_guids, cp.guid, peer.guid);
                const auto gid = static_cast<std::uint32_t>(groups_.size());
                groups_.push_back(grp);
                sw_[s].down.push_back(gid);
                members.push_back({gid, FtPort{p, x.peer_port}});
            }
        }
        std::stable_sort(members.begin(), members.end(), [](auto &a, auto &b) { return a.first < b.first; });
        for (auto &[gid, port] : members) {
            if (groups_[gid].count == 0) groups_[gid].first = static_cast<std::uint32_t>(ports_.size());
            ++groups_[gid].count;
            ports_.push_back(port);
        }
    }
    if (!roots_given) {
        // Purity: per rank, the same group counts and group widths.
        struct Shape {
            bool seen = false;
            std::size_t up = 0, down = 0;
            std::uint32_t up_w = 0, down_w = 0;
        };
        std::vector<Shape> shape(leaf_rank_ + 1);
        for (SwitchIdx s = 0; s < n; ++s) {
            const FtSwitch &x = sw_[s];
            Shape me;
            me.up = x.up.size();
            for (auto gid : x.up) {
                if (me.up_w && me.up_w != groups_[gid].count) return "up port groups of unequal width";
                me.up_w = groups_[gid].count;
            }
            for (auto gid : x.down) {
                if (groups_[gid].remote == kNone) continue;
                ++me.down;
                if (me.down_w && me.down_w != groups_[gid].count) return "down port groups of unequal width";
                me.down_w = groups_[gid].count;
            }
            Shape &ref = shape[x.rank];
            if (!ref.seen) {
                ref = me;
                ref.seen = true;
                continue;
            }
            const bool leaf = x.rank == leaf_rank_;
            if (ref.up != me.up || ref.up_w != me.up_w ||
                (!leaf && (ref.down != me.down || ref.down_w != me.down_w)))
                return "switches of rank " + std::to_string(x.rank) +
                       " differ in their port groups (not a pure fat tree)";
        }
    }
    return index_switches();
}

std::string FatTree::index_switches() {
    // OpenSM's tuples: BFS from the first leaf in its switch table (osm_table_key order); a switch found
    // going down gets its parent's tuple with the rank byte +1 and the next free value at index rank+1, going
    // up the rank byte -1 and the next free value at index rank.
    const std::size_t n = sw_.size();
    std::unordered_set<std::uint64_t> used;
    SwitchIdx first = kNone;
    for (SwitchIdx s = 0; s < n; ++s)
        if (sw_[s].leaf && (first == kNone || osm_table_key(guid_[s]) < osm_table_key(guid_[first])))
            first = s;
    auto assign = [&](SwitchIdx s, std::uint64_t t) {
        sw_[s].tuple = t;
        sw_[s].indexed = true;
        used.insert(t);
    };
    auto next_free = [&](std::uint64_t from, bool down) -> std::uint64_t {
        const unsigned r = tuple_at(from, 0);
        std::uint64_t t = tuple_set(from, 0, static_cast<std::uint8_t>(down ? r + 1 : r - 1));
        const unsigned var = down ? r + 1 : r;
        for (unsigned i = 0; i < 0xFF; ++i) {
            t = tuple_set(t, var, static_cast<std::uint8_t>(i));
            if (!used.count(t)) return t;
        }
        return ~std::uint64_t{0};
    };
    auto by_tuple = [&](std::vector<std::uint32_t> &v) {
        std::stable_sort(v.begin(), v.end(), [&](std::uint32_t a, std::uint32_t b) {
            const SwitchIdx ra = groups_[a].remote, rb = groups_[b].remote;
            if ((ra == kNone) != (rb == kNone)) return ra != kNone;  // switches before CAs
            if (ra == kNone) return false;
            return sw_[ra].tuple < sw_[rb].tuple;
        });
    };
    assign(first, tuple_set(0, 0, static_cast<std::uint8_t>(sw_[first].rank)));
    std::vector<SwitchIdx> queue{first};
    for (std::size_t i = 0; i < queue.size(); ++i) {
        const SwitchIdx s = queue[i];
        if (sw_[s].rank < leaf_rank_) {
            for (auto gid : sw_[s].down) {
                const SwitchIdx r = groups_[gid].remote;
                if (r == kNone || sw_[r].indexed) continue;
                const auto t = next_free(sw_[s].tuple, true);
                if (t == ~std::uint64_t{0}) return "more than 255 switches in one direction";
                assign(r, t);
                queue.push_back(r);
            }
            by_tuple(sw_[s].down);
        }
        if (sw_[s].rank != 0) {
            for (auto gid : sw_[s].up) {
                const SwitchIdx r = groups_[gid].remote;
                if (sw_[r].indexed) continue;
                const auto t = next_free(sw_[s].tuple, false);
                if (t == ~std::uint64_t{0}) return "more than 255 switches in one direction";
                assign(r, t);
                queue.push_back(r);
            }
            by_tuple(sw_[s].up);
        }
    }
    if (queue.size() != n) return "switches not reachable through the tree";
    // Leaves in index order: the span of leaf-rank switches from the first to the last with CNs.
    std::vector<SwitchIdx> at_leaf_rank;
    for (SwitchIdx s = 0; s < n; ++s)
        if (sw_[s].rank == leaf_rank_) at_leaf_rank.push_back(s);
    std::sort(at_leaf_rank.begin(), at_leaf_rank.end(),
              [&](SwitchIdx a, SwitchIdx b) { return sw_[a].tuple < sw_[b].tuple; });
    std::size_t lo = at_leaf_rank.size(), hi = 0;
    for (std::size_t i = 0; i < at_leaf_rank.size(); ++i)
        if (sw_[at_leaf_rank[i]].leaf) lo = std::min(lo, i), hi = i;
    if (lo >= hi) return "fewer than two leaf switches: not a fat tree";
    leaves_.assign(at_leaf_rank.begin() + static_cast<std::ptrdiff_t>(lo),
                   at_leaf_rank.begin() + static_cast<std::ptrdiff_t>(hi) + 1);
    max_cns_ = 0;
    for (SwitchIdx s : leaves_) max_cns_ = std::max(max_cns_, sw_[s].cns);
    build_slots();
    return {};
}

void FatTree::build_slots() {
    slots_.clear();
    for (FtSwitch &x : sw_) {
        x.down_off = static_cast<std::uint32_t>(slots_.size());
        for (auto gid : x.down) {
            if (groups_[gid].remote == kNone) {
                x.ca_below = true;
                continue;
            }
            slots_.push_back({0, gid, groups_[gid].remote, false, false});
        }
        x.down_len = static_cast<std::uint32_t>(slots_.size()) - x.down_off;
        x.switch_below = x.down_len > 0;
        x.up_off = static_cast<std::uint32_t>(slots_.size());
        for (auto gid : x.up) slots_.push_back({0, gid, groups_[gid].remote, false, false});
        x.up_len = static_cast<std::uint32_t>(slots_.size()) - x.up_off;
    }
    std::vector<SwitchIdx> by_tuple(sw_.size());
    for (SwitchIdx s = 0; s < by_tuple.size(); ++s) by_tuple[s] = s;
    std::sort(by_tuple.begin(), by_tuple.end(),
              [&](SwitchIdx a, SwitchIdx b) { return sw_[a].tuple < sw_[b].tuple; });
    std::vector<std::uint32_t> index(sw_.size());
    for (std::uint32_t i = 0; i < by_tuple.size(); ++i) index[by_tuple[i]] = i;
    for (Slot &sl : slots_) {
        sl.key = index[sl.remote];
        sl.remote_is_leaf = !sw_[sl.remote].switch_below;
        sl.remote_has_ca = sw_[sl.remote].ca_below;
    }
    std::map<std::vector<SwitchIdx>, std::uint32_t> sets;
    for (FtSwitch &x : sw_) {
        std::vector<SwitchIdx> below;
        for (std::uint32_t k = 0; k < x.down_len; ++k) below.push_back(slots_[x.down_off + k].remote);
        std::sort(below.begin(), below.end());
        x.below_set = sets.emplace(std::move(below), static_cast<std::uint32_t>(sets.size())).first->second;
    }
    below_done_.assign(sets.size(), kInfHops);
}

std::uint32_t FatTree::least_up_port(const FtGroup &g) const {
    std::uint32_t best = g.first;
    for (std::uint32_t i = g.first + 1; i < g.first + g.count; ++i)
        if (ports_[i].up < ports_[best].up) best = i;
    return best;
}

std::uint32_t FatTree::least_down_port(const FtGroup &g) const {
    std::uint32_t best = g.first;
    for (std::uint32_t i = g.first + 1; i < g.first + g.count; ++i)
        if (ports_[i].down < ports_[best].down) best = i;
    return best;
}

void FatTree::set_route(SwitchIdx sw, PortNum port, unsigned hops) {
    col_port_[sw] = port;
    hop_[sw] = static_cast<std::uint8_t>(std::min(hops, unsigned{kInfHops - 1}));
}

void FatTree::resort(std::uint32_t off, std::uint32_t len) {
    // OpenSM re-sorts port groups by load on every visit, equal loads by the remote switch's
    // index (tuple); only increments happen, so keeping the slots sorted after each change
    // gives the same order. Insertion sort: the slots are nearly sorted already.
    Slot *v = slots_.data() + off;
    for (std::uint32_t i = 1; i < len; ++i) {
        const Slot x = v[i];
        std::uint32_t j = i;
        while (j > 0 && v[j - 1].key > x.key) v[j] = v[j - 1], --j;
        v[j] = x;
    }
}

bool FatTree::route_up_by_down(SwitchIdx sw, SwitchIdx prev, bool real, bool main, unsigned hops) {
    const FtSwitch &x = sw_[sw];
    if (!x.switch_below) return x.ca_below;  // a leaf: nothing below to route up
    if (real && hops >= below_done_[x.below_set]) return x.ca_below;
    bool created = x.ca_below, moved = false, all_checked = true;
    Slot *slots = slots_.data() + x.down_off;
    for (std::uint32_t k = 0; k < x.down_len; ++k) {
        const SwitchIdx r = slots[k].remote;
        if (real && hop_[r] != kInfHops && hops + 1 >= hop_[r]) continue;
        if (r == prev) {
            all_checked = false;
            continue;
        }
        FtGroup &g = groups_[slots[k].gid];
        const std::uint32_t p = least_up_port(g);
        if (real) set_route(r, ports_[p].remote_port, hops + 1);
        const bool routed = slots[k].remote_is_leaf ? slots[k].remote_has_ca
                                                    : route_up_by_down(r, kNone, real, main, hops + 1);
        created |= routed;
        if (routed) ++ports_[p].up, ++g.up, slots[k].key += kLoadUnit, moved = true;
    }
    if (moved) resort(x.down_off, x.down_len);
    if (real && all_checked)
        below_done_[x.below_set] = static_cast<std::uint8_t>(std::min(hops, unsigned{kInfHops - 1}));
    return created;
}

bool FatTree::route_down_by_up(SwitchIdx sw, SwitchIdx prev, bool real, bool main, unsigned credit,
                               unsigned hops) {
    bool created = route_up_by_down(sw, prev, real, main, hops);
    const FtSwitch &x = sw_[sw];
    if (x.rank == 0) {
        if (credit > 0)  // I/O nodes may turn down again at the top, a limited number of times
            for (std::uint32_t k = 0; k < x.down_len; ++k) {
                const SwitchIdx r = groups_[slots_[x.down_off + k].gid].remote;
                created |= route_down_by_up(r, sw, real, main, credit - 1, hops + 1);
            }
        return created;
    }
    Slot *up = slots_.data() + x.up_off;
    FtGroup &best = groups_[up[0].gid];
    const std::uint32_t bp = least_down_port(best);
    if (main) {
        ++best.down;
        ++ports_[bp].down;
        up[0].key += kLoadUnit;
        if (real && (hop_[best.remote] == kInfHops || hops + 1 < hop_[best.remote])) {
            set_route(best.remote, ports_[bp].remote_port, hops + 1);
            created |= route_down_by_up(best.remote, sw, real, main, credit, hops + 1);
        }
    }
    if (real) {
        // Secondary routes: every other switch above learns the way down, without counting load.
        for (std::uint32_t k = main ? 1 : 0; k < x.up_len; ++k) {
            const FtGroup &g = groups_[up[k].gid];
            if (hop_[g.remote] != kInfHops && hops + 1 >= hop_[g.remote]) continue;
            set_route(g.remote, ports_[least_down_port(g)].remote_port, hops + 1);
            created |= route_down_by_up(g.remote, sw, real, false, credit, hops + 1);
        }
    }
    if (main) resort(x.up_off, x.up_len);
    if (!real || credit == 0 || x.leaf) return created;
    for (std::uint32_t k = 0; k < x.down_len; ++k) {
        const SwitchIdx r = groups_[slots_[x.down_off + k].gid].remote;
        created |= route_down_by_up(r, sw, real, true, credit - 1, hops + 1);
    }
    return created;
}

void FatTree::begin_lid() {
    std::fill(hop_.begin(), hop_.end(), kInfHops);
    std::fill(below_done_.begin(), below_done_.end(), kInfHops);
    std::fill(col_port_.begin(), col_port_.end(), kNoPort);
}

void FatTree::end_lid(Lid lid, RoutingTables &t) {
    // Routes are found per LID (a column of every table); gather columns and write them in
    // blocks so each switch row is touched once per block, not once per LID.
    // Raw pointers: byte stores may alias the vectors' own pointers, which the compiler would
    // otherwise reload on every step.
    const std::size_t n = sw_.size();
    const std::size_t j = block_lids_.size();
    block_lids_.push_back(lid);
    const PortNum *col = col_port_.data();
    const std::uint8_t *hop = hop_.data();
    PortNum *bp = block_port_.data() + j;
    std::uint8_t *bh = block_hop_.data() + j;
    for (SwitchIdx s = 0; s < n; ++s) {
        bp[s * kBlock] = col[s];
        bh[s * kBlock] = hop[s];
    }
    if (block_lids_.size() == kBlock) flush(t);
}

void FatTree::flush(RoutingTables &t) {
    const std::size_t n = sw_.size();
    const Lid *lids = block_lids_.data();
    const std::size_t m = block_lids_.size();
    for (SwitchIdx s = 0; s < n; ++s) {
        PortNum *lft = t.lft[s].data();
        std::uint8_t *hops = t.hops[s].data();
        const PortNum *bp = block_port_.data() + s * kBlock;
        const std::uint8_t *bh = block_hop_.data() + s * kBlock;
        for (std::size_t j = 0; j < m; ++j) {
            lft[lids[j]] = bp[j];
            hops[lids[j]] = bh[j];
        }
    }
    block_lids_.clear();
}

void FatTree::route(const Fabric &f, const RoutingOptions &o, RoutingTables &t) {
    const std::size_t n = sw_.size();
    hop_.assign(n, kInfHops);
    col_port_.assign(n, kNoPort);
    block_port_.assign(n * kBlock, kNoPort);
    block_hop_.assign(n * kBlock, kInfHops);
    block_lids_.clear();
    // Compute nodes, leaf by leaf in index order, then dummies for missing ones.
    for (SwitchIdx leaf : leaves_) {
        std::uint32_t routed = 0;
        for (auto gid : sw_[leaf].down) {
            const FtGroup &g = groups_[gid];
            if (g.remote != kNone || !g.cn) continue;
            const Lid lid = f.port(g.ca, g.ca_port).lid;
            begin_lid();
            set_route(leaf, ports_[g.first].port, 1);
            route_down_by_up(leaf, kNone, true, true, 0, 1);
            end_lid(lid, t);
            ++routed;
        }
        for (; routed < max_cns_; ++routed) route_down_by_up(leaf, kNone, false, true, 0, 1);
    }
    // Other CAs (I/O and service nodes) wherever they hang, in OpenSM's CA table order (by node
    // GUID, osm_table_key).
    std::vector<std::pair<std::uint64_t, std::pair<SwitchIdx, std::uint32_t>>> others;
    for (SwitchIdx s = 0; s < n; ++s)
        for (auto gid : sw_[s].down) {
            const FtGroup &g = groups_[gid];
            if (g.remote == kNone && !g.cn) others.push_back({osm_table_key(f.node(g.ca).guid), {s, gid}});
        }
    std::stable_sort(others.begin(), others.end(), [](auto &a, auto &b) { return a.first < b.first; });
    for (auto &[guid, where] : others) {
        const FtGroup &g = groups_[where.second];
        begin_lid();
        set_route(where.first, ports_[g.first].port, 1);
        route_down_by_up(where.first, kNone, true, true, g.io ? o.max_reverse_hops : 0, 1);
        end_lid(f.port(g.ca, g.ca_port).lid, t);
    }
    // Switch LIDs: secondary routes only, in OpenSM's switch table order (osm_table_key).
    std::vector<SwitchIdx> by_guid(n);
    for (SwitchIdx s = 0; s < n; ++s) by_guid[s] = s;
    std::sort(by_guid.begin(), by_guid.end(),
              [&](SwitchIdx a, SwitchIdx b) { return osm_table_key(guid_[a]) < osm_table_key(guid_[b]); });
    for (SwitchIdx s : by_guid) {
        if (sw_lid_[s] == 0) continue;
        begin_lid();
        set_route(s, 0, 0);
        route_down_by_up(s, kNone, true, false, 0, 0);
        end_lid(sw_lid_[s], t);
    }
    flush(t);
}

FtreeCaOrder FatTree::ca_order(const Fabric &f) const {
    FtreeCaOrder out;
    out.ok = true;
    for (SwitchIdx leaf : leaves_) {
        std::uint32_t printed = 0;
        for (auto gid : sw_[leaf].down) {
            const FtGroup &g = groups_[gid];
            if (g.remote != kNone || !g.cn) continue;
            out.entries.emplace_back(f.port(g.ca, g.ca_port).lid, f.node(g.ca).desc);
            ++printed;
        }
        for (; printed < max_cns_; ++printed) out.entries.emplace_back(kFtreeDummyLid, "DUMMY");
    }
    return out;
}

namespace {

class Ftree final : public Engine {
  public:
    std::string_view name() const override { return "ftree"; }
    // "LMC > 0 is not supported by fat-tree routing" (OpenSM): the chain falls through.
    bool supports_lmc() const override { return false; }
    bool provides_lid_matrices() const override { return true; }
    bool provides_fwd_tables() const override { return true; }
    HookResult build_lid_matrices(RoutingContext &ctx, RoutingTables &) override {
        if (auto why = tree_.analyse(ctx.fabric, ctx.options); !why.empty()) return HookResult::failure(why);
        return HookResult::success();
    }
    HookResult build_fwd_tables(RoutingContext &ctx, RoutingTables &t) override {
        tree_.route(ctx.fabric, ctx.options, t);
        return HookResult::success();
    }

  private:
    FatTree tree_;
};

}  // namespace

std::unique_ptr<Engine> make_ftree() {
    return std::make_unique<Ftree>();
}

}  // namespace weft::routing::engines

namespace weft::routing {

FtreeCaOrder ftree_ca_order(const Fabric &f, const RoutingOptions &o) {
    engines::FatTree tree;
    if (auto why = tree.analyse(f, o); !why.empty()) {
        FtreeCaOrder bad;
        bad.error = why;
        return bad;
    }
    return tree.ca_order(f);
}

std::string FtreeCaOrder::text() const {
    std::string out;
    char buf[16];
    for (const auto &[lid, desc] : entries) {
        std::snprintf(buf, sizeof buf, lid == kFtreeDummyLid ? "0xFFFF\t" : "0x%04x\t", lid);
        out += buf;
        out += desc;
        out += '\n';
    }
    return out;
}

std::vector<Lid> FtreeCaOrder::lids() const {
    std::vector<Lid> out;
    for (const auto &e : entries) out.push_back(e.first == kFtreeDummyLid ? 0 : e.first);
    return out;
}

}  // namespace weft::routing
