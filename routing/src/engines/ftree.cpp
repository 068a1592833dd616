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

#include "engines/engines.hpp"
#include "engines/fat_tree.hpp"
#include "engines/osm_guid_order.hpp"
#include "engines/updown_routing.hpp"
#include "weft/routing/ftree.hpp"

namespace weft::routing::engines {
namespace {

bool listed(const std::vector<Guid> &list, Guid a, Guid b) {
    return !list.empty() && (std::find(list.begin(), list.end(), a) != list.end() ||
                             std::find(list.begin(), list.end(), b) != list.end());
}

// Tuple bytes packed big-endian so that integer order is OpenSM's lexicographic tuple order.
std::uint8_t tuple_at(std::uint64_t t, unsigned i) {
    return static_cast<std::uint8_t>(t >> (8 * (7 - i)));
}
std::uint64_t tuple_set(std::uint64_t t, unsigned i, std::uint8_t v) {
    const unsigned shift = 8 * (7 - i);
    return (t & ~(std::uint64_t{0xFF} << shift)) | (std::uint64_t{v} << shift);
}

// The tuples handed out so far: open addressing over a power-of-two table. No tuple has all
// bits set (that would be rank 255), so that marks a free entry.
class TupleSet {
  public:
    explicit TupleSet(std::size_t n) {
        unsigned bits = 4;
        while ((std::size_t{1} << bits) < 4 * n) ++bits;
        v_.assign(std::size_t{1} << bits, kFree);
        mask_ = v_.size() - 1;
        shift_ = 64 - bits;
    }
    bool contains(std::uint64_t t) const {
        for (std::size_t i = home(t);; i = (i + 1) & mask_) {
            if (v_[i] == t) return true;
            if (v_[i] == kFree) return false;
        }
    }
    void insert(std::uint64_t t) {
        std::size_t i = home(t);
        while (v_[i] != kFree && v_[i] != t) i = (i + 1) & mask_;
        v_[i] = t;
    }

  private:
    static constexpr std::uint64_t kFree = ~std::uint64_t{0};
    // Fibonacci hashing: the top bits of the product depend on all bits of the tuple.
    std::size_t home(std::uint64_t t) const {
        return static_cast<std::size_t>((t * 0x9E3779B97F4A7C15) >> shift_);
    }
    std::vector<std::uint64_t> v_;
    std::size_t mask_ = 0;
    unsigned shift_ = 60;
};

}  // namespace

std::string FatTree::analyse(const Fabric &f, const RoutingOptions &o) {
    if (o.lmc > 0) return "LMC > 0 is not supported by fat-tree routing";
    const std::size_t n = f.switch_count();
    if (n == 0) return "not a switched subnet";
    sw_.assign(n, {});
    guid_.resize(n);
    sw_lid_.resize(n);
    // Port groups, in port order: one per remote switch (its ports in port order), one per CA
    // port. A switch's groups are contiguous in groups_, their ports contiguous in ports_.
    groups_.clear();
    ports_.clear();
    std::size_t cabled = 0;  // an upper bound of groups and ports, so that they never grow
    for (SwitchIdx s = 0; s < n; ++s) cabled += f.ports(f.switch_node(s)).size();
    groups_.reserve(cabled);
    ports_.reserve(cabled);
    std::vector<std::uint32_t> group_of(n, 0), seen_by(n, 0);  // per remote switch, stamped s + 1
    std::vector<std::uint32_t> placed;                         // ports placed per group of s
    for (SwitchIdx s = 0; s < n; ++s) {
        const NodeIdx node = f.switch_node(s);
        guid_[s] = f.node(node).guid;
        sw_lid_[s] = f.port(node, 0).lid;
        const auto ports = f.ports(node);
        FtSwitch &x = sw_[s];
        x.gbeg = static_cast<std::uint32_t>(groups_.size());
        for (PortNum p = 1; p < ports.size(); ++p) {
            const Port &pt = ports[p];
            if (!pt.linked() || pt.peer == node) continue;  // loopback cables carry no routes
            const Node &peer = f.node(pt.peer);
            if (peer.is_switch()) {
                const SwitchIdx r = peer.sw;
                if (seen_by[r] == s + 1) {
                    ++groups_[group_of[r]].count;
                    continue;
                }
                seen_by[r] = s + 1;
                group_of[r] = static_cast<std::uint32_t>(groups_.size());
                FtGroup grp;
                grp.remote = r;
                grp.count = 1;
                groups_.push_back(grp);
            } else {
                const Port &cp = f.port(pt.peer, pt.peer_port);
                if (cp.lid == 0) continue;
                FtGroup grp;
                grp.ca = pt.peer;
                grp.ca_port = pt.peer_port;
                grp.cn = o.cn_guids.empty() || listed(o.cn_guids, cp.guid, peer.guid);
                grp.io = listed(o.io_guids, cp.guid, peer.guid);
                grp.count = 1;
                groups_.push_back(grp);
                if (grp.cn) ++x.cns;
            }
        }
        x.gend = static_cast<std::uint32_t>(groups_.size());
        x.leaf = x.cns > 0;
        // Place the ports group by group, each group's in port order.
        auto at = static_cast<std::uint32_t>(ports_.size());
        for (std::uint32_t gid = x.gbeg; gid < x.gend; ++gid)
            groups_[gid].first = at, at += groups_[gid].count;
        ports_.resize(at);
        placed.assign(x.gend - x.gbeg, 0);
        std::uint32_t ca_gid = x.gbeg;
        for (PortNum p = 1; p < ports.size(); ++p) {
            const Port &pt = ports[p];
            if (!pt.linked() || pt.peer == node) continue;
            const Node &peer = f.node(pt.peer);
            std::uint32_t gid;
            if (peer.is_switch()) {
                gid = group_of[peer.sw];
            } else {
                if (f.port(pt.peer, pt.peer_port).lid == 0) continue;
                while (groups_[ca_gid].remote != kNone) ++ca_gid;  // CA groups come in port order
                gid = ca_gid++;
            }
            FtPort &fp = ports_[groups_[gid].first + placed[gid - x.gbeg]++];
            fp.port = p;
            fp.remote_port = pt.peer_port;
        }
        for (std::uint32_t gid = x.gbeg; gid < x.gend; ++gid)
            ports_[groups_[gid].first].group_width = static_cast<std::uint8_t>(groups_[gid].count);
    }
    return rank_switches(f, o);
}

std::string FatTree::rank_switches(const Fabric &f, const RoutingOptions &o) {
    // A leaf is a switch with a compute node (the CN list, else every CA port) cabled to it.
    const std::size_t n = sw_.size();
    std::vector<SwitchIdx> leaves;
    for (SwitchIdx s = 0; s < n; ++s)
        if (sw_[s].leaf) leaves.push_back(s);
    if (leaves.empty()) return "no compute nodes";
    // Ranks by BFS over switch links, from the given roots or from the leaves.
    const bool roots_given = !o.root_guids.empty();
    std::vector<SwitchIdx> from = leaves;
    if (roots_given) {
        from = switches_named(f, o.root_guids);
        if (from.empty()) return "none of the root GUIDs names a switch of the fabric";
    }
    constexpr unsigned kUnranked = UpDownRouting::kUnranked;
    std::vector<unsigned> rank(n, kUnranked);
    std::vector<SwitchIdx> queue;
    queue.reserve(n);
    for (SwitchIdx s : from)
        if (rank[s] != 0) rank[s] = 0, queue.push_back(s);
    for (std::size_t i = 0; i < queue.size(); ++i) {
        const FtSwitch &x = sw_[queue[i]];
        for (std::uint32_t gid = x.gbeg; gid < x.gend; ++gid) {
            const SwitchIdx r = groups_[gid].remote;
            if (r != kNone && rank[r] == kUnranked) rank[r] = rank[queue[i]] + 1, queue.push_back(r);
        }
    }
    if (roots_given) {
        leaf_rank_ = rank[leaves.front()];
        for (SwitchIdx s : leaves)
            if (rank[s] != leaf_rank_)
                return "compute nodes on switches of different ranks (" + std::to_string(rank[s]) + " and " +
                       std::to_string(leaf_rank_) + ")";
    } else {
        unsigned top = 0;
        for (unsigned r : rank)
            if (r != kUnranked) top = std::max(top, r);
        for (unsigned &r : rank)
            if (r != kUnranked) r = top - r;
        leaf_rank_ = top;
    }
    for (SwitchIdx s = 0; s < n; ++s) {
        if (rank[s] == kUnranked) return "switch " + std::to_string(guid_[s]) + " is not connected";
        sw_[s].rank = rank[s];
        if (rank[s] > leaf_rank_) return "switches below the leaf rank";
    }
    if (leaf_rank_ + 1 < 2 || leaf_rank_ + 1 > 8)
        return "tree rank " + std::to_string(leaf_rank_ + 1) + " is outside 2..8";
    // Every switch link must join adjacent ranks; the lower rank is up.
    for (SwitchIdx s = 0; s < n; ++s) {
        const unsigned rs = sw_[s].rank;
        for (std::uint32_t gid = sw_[s].gbeg; gid < sw_[s].gend; ++gid) {
            FtGroup &g = groups_[gid];
            if (g.remote == kNone) continue;
            const unsigned rr = sw_[g.remote].rank;
            if (rr + 1 != rs && rs + 1 != rr)
                return "link between switches of rank " + std::to_string(rs) + " and " + std::to_string(rr) +
                       " (not a fat tree)";
            g.up = rr < rs;
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
            for (std::uint32_t gid = x.gbeg; gid < x.gend; ++gid) {
                const FtGroup &g = groups_[gid];
                if (g.up) {
                    ++me.up;
                    if (me.up_w && me.up_w != g.count) return "up port groups of unequal width";
                    me.up_w = g.count;
                }
            }
            for (std::uint32_t gid = x.gbeg; gid < x.gend; ++gid) {
                const FtGroup &g = groups_[gid];
                if (g.up || g.remote == kNone) continue;
                ++me.down;
                if (me.down_w && me.down_w != g.count) return "down port groups of unequal width";
                me.down_w = g.count;
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
    // up the rank byte -1 and the next free value at index rank. Neighbours are taken in port order.
    const std::size_t n = sw_.size();
    TupleSet used(n);
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
            if (!used.contains(t)) return t;
        }
        return ~std::uint64_t{0};
    };
    assign(first, tuple_set(0, 0, static_cast<std::uint8_t>(sw_[first].rank)));
    std::vector<SwitchIdx> queue{first};
    queue.reserve(n);
    for (std::size_t i = 0; i < queue.size(); ++i) {
        const SwitchIdx s = queue[i];
        const FtSwitch &x = sw_[s];
        if (x.rank < leaf_rank_) {
            for (std::uint32_t gid = x.gbeg; gid < x.gend; ++gid) {
                const FtGroup &g = groups_[gid];
                if (g.up || g.remote == kNone || sw_[g.remote].indexed) continue;
                const auto t = next_free(x.tuple, true);
                if (t == ~std::uint64_t{0}) return "more than 255 switches in one direction";
                assign(g.remote, t);
                queue.push_back(g.remote);
            }
        }
        if (x.rank != 0) {
            for (std::uint32_t gid = x.gbeg; gid < x.gend; ++gid) {
                const FtGroup &g = groups_[gid];
                if (!g.up || sw_[g.remote].indexed) continue;
                const auto t = next_free(x.tuple, false);
                if (t == ~std::uint64_t{0}) return "more than 255 switches in one direction";
                assign(g.remote, t);
                queue.push_back(g.remote);
            }
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
    // Each switch's down and up switch groups, ordered by the remote switch's tuple (all loads
    // are 0 at first), which is the order OpenSM starts from.
    const std::size_t n = sw_.size();
    std::vector<SwitchIdx> by_tuple(n);
    for (SwitchIdx s = 0; s < n; ++s) by_tuple[s] = s;
    std::sort(by_tuple.begin(), by_tuple.end(),
              [&](SwitchIdx a, SwitchIdx b) { return sw_[a].tuple < sw_[b].tuple; });
    std::vector<std::uint32_t> index(n);
    for (std::uint32_t i = 0; i < n; ++i) index[by_tuple[i]] = i;
    slots_.clear();
    slots_.reserve(groups_.size());
    below_kind_.assign(n, 0);
    below_set_.assign(n, 0);
    auto by_key = [](const Slot &a, const Slot &b) { return a.key < b.key; };
    for (SwitchIdx s = 0; s < n; ++s) {
        FtSwitch &x = sw_[s];
        x.down_off = static_cast<std::uint32_t>(slots_.size());
        for (std::uint32_t gid = x.gbeg; gid < x.gend; ++gid) {
            const FtGroup &g = groups_[gid];
            if (g.remote == kNone)
                x.ca_below = true;
            else if (!g.up)
                slots_.push_back({index[g.remote], g.remote, g.first});
        }
        x.down_len = static_cast<std::uint32_t>(slots_.size()) - x.down_off;
        x.switch_below = x.down_len > 0;
        x.up_off = static_cast<std::uint32_t>(slots_.size());
        for (std::uint32_t gid = x.gbeg; gid < x.gend; ++gid) {
            const FtGroup &g = groups_[gid];
            if (g.up) slots_.push_back({index[g.remote], g.remote, g.first});
        }
        x.up_len = static_cast<std::uint32_t>(slots_.size()) - x.up_off;
        std::sort(slots_.begin() + x.down_off, slots_.begin() + x.up_off, by_key);
        std::sort(slots_.begin() + x.up_off, slots_.end(), by_key);
        below_kind_[s] = static_cast<std::uint8_t>((x.switch_below ? kSwitchBelow : 0) |
                                                   (x.ca_below ? kCaBelow : 0) | (x.rank == 0 ? kTop : 0));
    }
    // Number the distinct sets of switches below: a switch's down slots are now in tuple order,
    // so equal sets are equal key sequences. Sets are bucketed by a hash of the sequence.
    auto below = [&](SwitchIdx s) {
        const Slot *b = slots_.data() + sw_[s].down_off;
        return std::pair{b, b + sw_[s].down_len};
    };
    std::vector<std::pair<std::uint64_t, SwitchIdx>> by_hash(n);
    for (SwitchIdx s = 0; s < n; ++s) {
        std::uint64_t h = 0xcbf29ce484222325;  // FNV-1a over the keys
        for (auto [b, e] = below(s); b != e; ++b) h = (h ^ b->key) * 0x100000001b3;
        by_hash[s] = {h, s};
    }
    std::sort(by_hash.begin(), by_hash.end());
    std::uint32_t sets = 0;
    std::vector<SwitchIdx> reps;  // one switch per set within a run of equal hashes
    for (std::size_t i = 0; i < n; ++i) {
        if (i == 0 || by_hash[i].first != by_hash[i - 1].first) reps.clear();
        const SwitchIdx s = by_hash[i].second;
        const auto mine = below(s);  // not a structured binding: clang 14 cannot capture one
        auto same = [&](SwitchIdx r) {
            const auto [rb, re] = below(r);
            return std::equal(mine.first, mine.second, rb, re,
                              [](const Slot &x, const Slot &y) { return x.key == y.key; });
        };
        const auto it = std::find_if(reps.begin(), reps.end(), same);
        if (it != reps.end()) {
            below_set_[s] = below_set_[*it];
        } else {
            below_set_[s] = sets++;
            reps.push_back(s);
        }
    }
    below_done_.assign(sets, kInfHops);
}

FatTree::Column FatTree::column() {
    // Dummy routes (Real = false) write nothing and may come before any LID.
    return {hop_.data(), stage_.data() + (staged_lid_.empty() ? 0 : staged_lid_.size() - 1)};
}

template <std::uint32_t FtPort::*Load>
std::uint32_t FatTree::least_port(const FtPort *ports, const Slot &s) {
    const FtPort *const g = ports + s.first;
    const unsigned width = g->group_width;
    unsigned best = 0;
    for (unsigned i = 1; i < width; ++i)
        if (g[i].*Load < g[best].*Load) best = i;
    return s.first + best;
}

void FatTree::resort(Slot *v, std::uint32_t len) {
    // OpenSM re-sorts port groups by load on every visit, equal loads by the remote switch's
    // index (tuple); only increments happen, so keeping the slots sorted after each change
    // gives the same order. Insertion sort: the slots are nearly sorted already.
    for (std::uint32_t i = 1; i < len; ++i) {
        if (v[i - 1].key <= v[i].key) continue;
        const Slot x = v[i];
        std::uint32_t j = i;
        while (j > 0 && v[j - 1].key > x.key) v[j] = v[j - 1], --j;
        v[j] = x;
    }
}

void FatTree::sift_first(Slot *v, std::uint32_t len) {
    // Only the first slot's load grew (the up group a route went through): move it to its
    // place. Nested visits of the same switch only ever grow the first slot too, so the rest
    // is sorted whenever this runs.
    const Slot x = v[0];
    Slot *const end = std::partition_point(v + 1, v + len, [&](const Slot &y) { return y.key < x.key; });
    std::move(v + 1, end, v);
    end[-1] = x;
}

template <bool Real>
bool FatTree::route_up_by_down(SwitchIdx sw, SwitchIdx prev, unsigned hops) {
    const std::uint8_t here = below_kind_[sw];
    const bool ca_below = (here & kCaBelow) != 0;
    if (!(here & kSwitchBelow)) return ca_below;  // a leaf: nothing below to route up
    std::uint8_t *const done = below_done_.data() + below_set_[sw];
    if (Real && hops >= *done) return ca_below;
    const Column col = column();
    const std::uint8_t *const kind = below_kind_.data();
    FtPort *const ports = ports_.data();
    Slot *const slots = slots_.data() + sw_[sw].down_off;
    const std::uint32_t len = sw_[sw].down_len;
    const unsigned next = hops + 1;
    bool created = ca_below, moved = false, all_checked = true;
    for (std::uint32_t k = 0; k < len; ++k) {
        const SwitchIdx r = slots[k].remote;
        if (Real && col.hop[r] != kInfHops && next >= col.hop[r]) continue;
        if (r == prev) {
            all_checked = false;
            continue;
        }
        const std::uint32_t p = least_port<&FtPort::up>(ports, slots[k]);
        if (Real) col.set(r, ports[p].remote_port, next);
        const std::uint8_t kr = kind[r];
        const bool routed =
            (kr & kSwitchBelow) ? route_up_by_down<Real>(r, kNone, next) : (kr & kCaBelow) != 0;
        created |= routed;
        if (routed) ports[p].up += w_, slots[k].key += kLoadUnit * w_, moved = true;
    }
    if (moved) resort(slots, len);
    if (Real && all_checked) *done = static_cast<std::uint8_t>(std::min(hops, unsigned{kInfHops - 1}));
    return created;
}

template <bool Real>
void FatTree::route_down_by_up(SwitchIdx sw, SwitchIdx prev, bool main, unsigned credit, unsigned hops) {
    route_up_by_down<Real>(sw, prev, hops);
    const FtSwitch &x = sw_[sw];
    const unsigned next = hops + 1;
    if (x.rank == 0) {
        if (credit > 0)  // I/O nodes may turn down again at the top, a limited number of times
            for (std::uint32_t k = 0; k < x.down_len; ++k)
                route_down_by_up<Real>(slots_[x.down_off + k].remote, sw, main, credit - 1, next);
        return;
    }
    const Column col = column();
    FtPort *const ports = ports_.data();
    Slot *const up = slots_.data() + x.up_off;
    const std::uint32_t up_len = x.up_len;
    const std::uint8_t *const kind = below_kind_.data();
    const std::uint8_t *const done = below_done_.data();
    const std::uint32_t *const below_set = below_set_.data();
    if (main) {
        const Slot best = up[0];
        const std::uint32_t bp = least_port<&FtPort::down>(ports, best);
        ports[bp].down += w_;
        up[0].key += kLoadUnit * w_;
        if (Real && (col.hop[best.remote] == kInfHops || next < col.hop[best.remote])) {
            col.set(best.remote, ports[bp].remote_port, next);
            route_down_by_up<Real>(best.remote, sw, main, credit, next);
        }
    }
    if (Real) {
        // Secondary routes: every other switch above learns the way down, without counting load.
        for (std::uint32_t k = main ? 1 : 0; k < up_len; ++k) {
            const SwitchIdx r = up[k].remote;
            if (col.hop[r] != kInfHops && next >= col.hop[r]) continue;
            col.set(r, ports[least_port<&FtPort::down>(ports, up[k])].remote_port, next);
            // A top switch that has already checked everything below it at no more hops has
            // nothing to do on a visit without credit: skip the call.
            const std::uint8_t kr = kind[r];
            if (credit == 0 && (kr & kTop) && (!(kr & kSwitchBelow) || next >= done[below_set[r]])) continue;
            route_down_by_up<Real>(r, sw, false, credit, next);
        }
    }
    if (main) sift_first(up, up_len);
    if (!Real || credit == 0 || x.leaf) return;
    for (std::uint32_t k = 0; k < x.down_len; ++k)
        route_down_by_up<Real>(slots_[x.down_off + k].remote, sw, true, credit - 1, next);
}

// vswitch-ftree (vswitch_ftree.cpp) routes through the same visits.
template void FatTree::route_down_by_up<true>(SwitchIdx, SwitchIdx, bool, unsigned, unsigned);
template void FatTree::route_down_by_up<false>(SwitchIdx, SwitchIdx, bool, unsigned, unsigned);

void FatTree::begin_lid(Lid lid) {
    if (staged_lid_.size() == kStaged) flush();
    staged_lid_.push_back(lid);
    std::fill(hop_.begin(), hop_.end(), kInfHops);
    std::fill(below_done_.begin(), below_done_.end(), kInfHops);
}

void FatTree::attach(RoutingTables &t) {
    const std::size_t n = sw_.size();
    hop_.assign(n, kInfHops);
    lft_row_.resize(n);
    hop_row_.resize(n);
    for (SwitchIdx s = 0; s < n; ++s) lft_row_[s] = t.lft[s].data(), hop_row_[s] = t.hops[s].data();
    stage_.assign(n * kStaged, kUnstaged);
    staged_lid_.clear();
    staged_lid_.reserve(kStaged);
}

void FatTree::flush() {
    const std::size_t used = staged_lid_.size();
    if (!used) return;
    const Lid *lid = staged_lid_.data();
    const std::size_t n = sw_.size();
    constexpr std::size_t ahead = 8;  // the rows are separate allocations: no hardware prefetch across them
    for (SwitchIdx s = 0; s < n; ++s) {
        if (s + ahead < n) {
            __builtin_prefetch(lft_row_[s + ahead] + lid[0], 1);
            __builtin_prefetch(hop_row_[s + ahead] + lid[0], 1);
        }
        std::uint16_t *slot = stage_.data() + std::size_t{s} * kStaged;
        std::uint16_t v[kStaged];  // a copy: the byte stores below could alias the slots
        std::copy(slot, slot + used, v);
        std::fill(slot, slot + used, kUnstaged);
        PortNum *lft = lft_row_[s];
        std::uint8_t *hops = hop_row_[s];
        for (std::size_t k = 0; k < used; ++k) {  // in routing order: a LID staged twice keeps its last
            if (v[k] == kUnstaged) continue;
            lft[lid[k]] = static_cast<PortNum>(v[k]);
            hops[lid[k]] = static_cast<std::uint8_t>(v[k] >> 8);
        }
    }
    staged_lid_.clear();
}

void FatTree::route(const Fabric &f, const RoutingOptions &o, RoutingTables &t) {
    // Routes go into the tables (reset to unrouted by the chain), one LID at a time.
    const std::size_t n = sw_.size();
    attach(t);
    // Compute nodes, leaf by leaf in index order, then dummies for missing ones.
    for (SwitchIdx leaf : leaves_) {
        std::uint32_t routed = 0;
        for (std::uint32_t gid = sw_[leaf].gbeg; gid < sw_[leaf].gend; ++gid) {
            const FtGroup &g = groups_[gid];
            if (g.remote != kNone || !g.cn) continue;
            begin_lid(f.port(g.ca, g.ca_port).lid);
            set_route(leaf, ports_[g.first].port, 1);
            route_down_by_up<true>(leaf, kNone, true, 0, 1);
            ++routed;
        }
        for (; routed < max_cns_; ++routed) route_down_by_up<false>(leaf, kNone, true, 0, 1);
    }
    // Other CAs (I/O and service nodes) wherever they hang, in OpenSM's CA table order (by node
    // GUID, osm_table_key).
    std::vector<std::pair<std::uint64_t, std::pair<SwitchIdx, std::uint32_t>>> others;
    for (SwitchIdx s = 0; s < n; ++s)
        for (std::uint32_t gid = sw_[s].gbeg; gid < sw_[s].gend; ++gid) {
            const FtGroup &g = groups_[gid];
            if (g.remote == kNone && !g.cn) others.push_back({osm_table_key(f.node(g.ca).guid), {s, gid}});
        }
    std::stable_sort(others.begin(), others.end(), [](auto &a, auto &b) { return a.first < b.first; });
    for (auto &[guid, where] : others) {
        const FtGroup &g = groups_[where.second];
        begin_lid(f.port(g.ca, g.ca_port).lid);
        set_route(where.first, ports_[g.first].port, 1);
        route_down_by_up<true>(where.first, kNone, true, g.io ? o.max_reverse_hops : 0, 1);
    }
    // Switch LIDs: secondary routes only, in OpenSM's switch table order (osm_table_key).
    std::vector<SwitchIdx> by_guid(n);
    for (SwitchIdx s = 0; s < n; ++s) by_guid[s] = s;
    std::sort(by_guid.begin(), by_guid.end(),
              [&](SwitchIdx a, SwitchIdx b) { return osm_table_key(guid_[a]) < osm_table_key(guid_[b]); });
    for (SwitchIdx s : by_guid) {
        if (sw_lid_[s] == 0) continue;
        begin_lid(sw_lid_[s]);
        set_route(s, 0, 0);
        route_down_by_up<true>(s, kNone, false, 0, 0);
    }
    flush();
}

FtreeCaOrder FatTree::ca_order(const Fabric &f) const {
    FtreeCaOrder out;
    out.ok = true;
    for (SwitchIdx leaf : leaves_) {
        std::uint32_t printed = 0;
        for (std::uint32_t gid = sw_[leaf].gbeg; gid < sw_[leaf].gend; ++gid) {
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

// ftree, and vswitch-ftree (seed 002) when `vms`: the same tree routed, then its VMs by weight.
class Ftree final : public Engine {
  public:
    explicit Ftree(bool vms) : vms_(vms) {}
    std::string_view name() const override { return vms_ ? "vswitch-ftree" : "ftree"; }
    // "LMC > 0 is not supported by fat-tree routing" (OpenSM): the chain falls through.
    bool supports_lmc() const override { return false; }
    bool routes_vms() const override { return vms_; }
    bool provides_lid_matrices() const override { return true; }
    bool provides_fwd_tables() const override { return true; }
    HookResult build_lid_matrices(RoutingContext &ctx, RoutingTables &) override {
        if (auto why = tree_.analyse(ctx.fabric, ctx.options); !why.empty()) return HookResult::failure(why);
        return HookResult::success();
    }
    HookResult build_fwd_tables(RoutingContext &ctx, RoutingTables &t) override {
        tree_.route(ctx.fabric, ctx.options, t);
        if (vms_) tree_.route_vms(ctx.fabric, t);
        return HookResult::success();
    }

  private:
    bool vms_;
    FatTree tree_;
};

}  // namespace

std::unique_ptr<Engine> make_ftree() {
    return std::make_unique<Ftree>(false);
}

std::unique_ptr<Engine> make_vswitch_ftree() {
    return std::make_unique<Ftree>(true);
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
