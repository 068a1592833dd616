// OpenSM's lash (LAyered SHortest path routing). Routes: for each switch in GUID order a BFS
// tree over its links in port order (or in dimension order after --do_mesh_analysis); every
// switch on that tree takes, toward each switch below it that has no route yet, the link to the
// child it reaches it through, so all routes are shortest paths and the LFTs stay destination
// based. Layers: switch pairs in GUID order go, both directions together, into the first layer
// whose channel dependency graph stays acyclic with them; when none does a new layer opens, and
// more layers than the VL budget fail the engine (the chain falls back, as in OpenSM). Then
// pairs move from the fullest layer to the emptiest while that stays acyclic, until the two
// differ by less than OpenSM's balance limit. A pair's layer plus lash_start_vl is the SL of
// every CA-to-CA path between the two switches; paths within one switch keep SL 0 (OpenSM's
// default SL). LMC > 0 is not supported (OpenSM falls back to minhop). With --do_mesh_analysis
// (lash_mesh.hpp) parallel cables form one link whose LIDs take its ports in turn, and on a
// recognised mesh the trees and pairs follow the analysis' switch and link order.
#include <algorithm>
#include <numeric>

#include "engines/engines.hpp"
#include "engines/lash_layers.hpp"
#include "engines/lash_mesh.hpp"
#include "engines/switch_graph.hpp"
#include "weft/routing/seeded_rng.hpp"

namespace weft::routing::engines {
namespace {

constexpr std::uint8_t kNoLink = 0xFF;
constexpr unsigned kBalanceLimit = 6;  // OpenSM: stop when fullest - emptiest < 6 paths

// next[s * n + d]: index (into g.links(s)) of the link s routes toward switch d.
std::vector<std::uint8_t> bfs_tree_routes(const SwitchGraph &g, const std::vector<SwitchIdx> &root_order,
                                          const std::vector<std::vector<std::uint8_t>> &link_order) {
    const std::size_t n = g.size();
    std::vector<std::uint8_t> next_v(n * n, kNoLink);
    std::vector<SwitchIdx> parent_v(n), queue_v(n);
    std::vector<std::uint8_t> via_v(n);  // link of the parent that reaches this switch
    // Byte stores may alias anything: the loops work through local pointers.
    std::uint8_t *next = next_v.data(), *via = via_v.data();
    SwitchIdx *parent = parent_v.data(), *queue = queue_v.data();
    for (SwitchIdx root : root_order) {
        std::fill(parent, parent + n, kNoSwitch);
        parent[root] = root;
        std::size_t head = 0, tail = 0;
        queue[tail++] = root;
        while (head < tail) {
            const SwitchIdx u = queue[head++];
            const SwitchLink *links = g.links(u).data();
            for (const std::uint8_t *k = link_order[u].data(), *end = k + link_order[u].size(); k != end;
                 ++k) {
                const SwitchIdx v = links[*k].peer;
                if (parent[v] != kNoSwitch) continue;
                // k is the first link to v in this switch's order (lowest port for parallel
                // cables): an earlier one would have reached v already.
                parent[v] = u, queue[tail++] = v, via[v] = *k;
            }
        }
        // Every ancestor x of d on this tree routes d through its child on the way to d.
        for (std::size_t i = 1; i < tail; ++i) {
            const SwitchIdx d = queue[i];
            SwitchIdx child = d;
            for (SwitchIdx x = parent[d];; x = parent[x]) {
                std::uint8_t &e = next[std::size_t{x} * n + d];
                if (e == kNoLink) e = via[child];
                if (x == root) break;
                child = x;
            }
        }
    }
    return next_v;
}

class LashRouting {
  public:
    LashRouting(const Fabric &f, const SwitchGraph &g, const RoutingOptions &o)
        : f_(f), g_(g), o_(o), cdg_(g) {}

    HookResult run(RoutingTables &t) {
        const std::size_t n = g_.size();
        const unsigned cap =
            std::min({o_.max_vls ? o_.max_vls : 1u, 15u, o_.qos_max_vls ? o_.qos_max_vls : 15u});
        const unsigned start_vl = o_.lash_start_vl_set ? o_.lash_start_vl : 0;
        if (start_vl >= cap)
            return HookResult::failure("lash_start_vl " + std::to_string(start_vl) + " leaves no VL of the " +
                                       std::to_string(cap) + " the budget allows (max_vls/qos_max_vls)");
        const unsigned budget = cap - start_vl;

        std::vector<SwitchIdx> by_guid(n);
        std::iota(by_guid.begin(), by_guid.end(), SwitchIdx{0});
        std::sort(by_guid.begin(), by_guid.end(), [&](SwitchIdx a, SwitchIdx b) {
            return f_.node(f_.switch_node(a)).guid < f_.node(f_.switch_node(b)).guid;
        });
        std::vector<SwitchIdx> order = by_guid;
        std::vector<std::vector<std::uint8_t>> link_order(n);
        MeshAnalysis mesh;
        if (o_.do_mesh_analysis) {
            // One link per neighbour, represented by its first cable.
            mesh = analyse_mesh(g_, by_guid);
            order = mesh.order;
            for (SwitchIdx s = 0; s < n; ++s)
                for (const MeshLink &l : mesh.links[s]) link_order[s].push_back(l.cables.front());
        } else {
            for (SwitchIdx s = 0; s < n; ++s) {
                link_order[s].resize(g_.links(s).size());
                std::iota(link_order[s].begin(), link_order[s].end(), std::uint8_t{0});
            }
        }
        next_ = bfs_tree_routes(g_, order, link_order);

        if (auto r = assign_layers(order, budget); !r.ok) return r;
        balance();

        if (o_.do_mesh_analysis)
            fill_mesh_lfts(mesh, t);
        else
            fill_lfts(t);
        fill_path_sls(t, start_vl);
        t.vls_used = std::max(1u, cdg_.layers());
        if (!o_.qos)
            t.warnings.push_back(
                "QoS is off (OpenSM: -Q): lash's SLs only keep routes on separate VLs where "
                "the switches' SL2VL tables map them so");
        return HookResult::success();
    }

  private:
    static constexpr std::uint8_t kNoLayer = 0xFF;

    // Destination switch of every LID, kNoSwitch mapped to n (a row entry that routes nowhere).
    std::vector<SwitchIdx> lid_switches() const {
        const std::size_t n = g_.size();
        std::vector<SwitchIdx> dst(std::size_t{g_.max_lid()} + 1, static_cast<SwitchIdx>(n));
        for (Lid l = 1; l <= g_.max_lid(); ++l)
            if (const SwitchIdx d = g_.target(l).sw; d != kNoSwitch) dst[l] = d;
        return dst;
    }

    // LFTs: a LID goes where its switch is routed; a switch's own LIDs to their ports. One
    // port per destination switch, then a dense pass over the LIDs.
    // Byte stores may alias anything, so the loops read through local pointers and bounds.
    void fill_lfts(RoutingTables &t) const {
        const std::size_t n = g_.size();
        const Lid max_lid = g_.max_lid();
        const std::vector<SwitchIdx> dst_v = lid_switches();
        const SwitchIdx *dst = dst_v.data();
        // The LIDs of each switch (its own and its end ports'), grouped by switch.
        std::vector<std::uint32_t> own_begin(n + 2, 0);
        std::vector<Lid> own(max_lid);
        for (Lid l = 1; l <= max_lid; ++l) ++own_begin[dst[l] + 1];
        std::partial_sum(own_begin.begin(), own_begin.end(), own_begin.begin());
        {
            std::vector<std::uint32_t> at(own_begin.begin(), own_begin.end() - 1);
            for (Lid l = 1; l <= max_lid; ++l) own[at[dst[l]]++] = l;
        }
        std::vector<PortNum> port_to(n + 1, kNoPort);
        PortNum *to = port_to.data();
        for (SwitchIdx s = 0; s < n; ++s) {
            const SwitchLink *links = g_.links(s).data();
            const std::uint8_t *next = next_.data() + std::size_t{s} * n;
            for (SwitchIdx d = 0; d < n; ++d) to[d] = next[d] == kNoLink ? kNoPort : links[next[d]].port;
            auto &row = t.lft[s];
            std::fill(row.begin() + std::min<std::size_t>(row.size(), std::size_t{max_lid} + 1), row.end(),
                      kNoPort);
            PortNum *lft = row.data();
            lft[0] = kNoPort;
            for (Lid l = 1; l <= max_lid; ++l) lft[l] = to[dst[l]];
            for (std::uint32_t i = own_begin[s]; i < own_begin[s + 1]; ++i)
                lft[own[i]] = g_.target(own[i]).port;
        }
    }

    // With the mesh analysis a link's cables take the LIDs routed over it in turn, in LID order
    // (OpenSM's get_next_port).
    void fill_mesh_lfts(const MeshAnalysis &mesh, RoutingTables &t) const {
        const std::size_t n = g_.size();
        std::vector<std::uint8_t> link_of;
        std::vector<std::size_t> turn;
        for (SwitchIdx s = 0; s < n; ++s) {
            auto &lft = t.lft[s];
            std::fill(lft.begin(), lft.end(), kNoPort);
            link_of.assign(g_.links(s).size(), 0);
            for (std::size_t i = 0; i < mesh.links[s].size(); ++i)
                for (std::uint8_t k : mesh.links[s][i].cables) link_of[k] = static_cast<std::uint8_t>(i);
            turn.assign(mesh.links[s].size(), 0);
            for (Lid l = 1; l <= g_.max_lid(); ++l) {
                const LidTarget &tg = g_.target(l);
                if (tg.sw == kNoSwitch) continue;
                if (tg.sw == s) {
                    lft[l] = tg.port;
                } else if (std::uint8_t k = next_[std::size_t{s} * n + tg.sw]; k != kNoLink) {
                    const auto &cables = mesh.links[s][link_of[k]].cables;
                    std::size_t &i = turn[link_of[k]];
                    k = cables[i];
                    i = (i + 1) % cables.size();
                    lft[l] = g_.links(s)[k].port;
                }
            }
        }
    }

    // A pair's layer plus lash_start_vl on every LID of the other switch; 0 within a switch.
    void fill_path_sls(RoutingTables &t, unsigned start_vl) const {
        const std::size_t n = g_.size();
        const Lid max_lid = g_.max_lid();
        const std::vector<SwitchIdx> dst = lid_switches();
        std::vector<std::uint8_t> sl_to(n + 1, 0);
        t.path_sl.resize(n);
        for (SwitchIdx s = 0; s < n; ++s) {
            for (SwitchIdx d = 0; d < n; ++d) {
                const std::uint8_t layer = d == s ? kNoLayer : layer_of(s, d);
                sl_to[d] = layer == kNoLayer ? 0 : static_cast<std::uint8_t>(layer + start_vl);
            }
            auto &row = t.path_sl[s];
            row.resize(std::size_t{max_lid} + 1);
            std::uint8_t *out = row.data();
            const std::uint8_t *to = sl_to.data();
            const SwitchIdx *dl = dst.data();
            out[0] = 0;
            for (Lid l = 1; l <= max_lid; ++l) out[l] = to[dl[l]];
        }
    }

    struct Pair {
        SwitchIdx a, b;
    };

    std::uint8_t layer_of(SwitchIdx s, SwitchIdx d) const {
        return pair_layer_[pair_id_[std::size_t{s} * g_.size() + d]];
    }

    // Channels of the route from s to d.
    void path(SwitchIdx s, SwitchIdx d, std::vector<std::uint32_t> &out) const {
        out.clear();
        const std::size_t n = g_.size();
        const std::uint8_t *next = next_.data();
        while (s != d) {
            const std::uint32_t c = cdg_.channel(s, next[std::size_t{s} * n + d]);
            out.push_back(c);
            s = cdg_.head(c);
        }
    }

    // Pairs in lash's switch order (`order`), both directions together.
    HookResult assign_layers(const std::vector<SwitchIdx> &order, unsigned budget) {
        const std::size_t n = g_.size();
        pair_id_.assign(n * n, 0);
        pairs_.clear();
        pair_layer_.assign(1, kNoLayer);  // pair id 0: no pair (same switch or unreachable)
        pairs_.push_back({0, 0});
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = i + 1; j < n; ++j) {
                const SwitchIdx a = order[i], b = order[j];
                if (next_[std::size_t{a} * n + b] == kNoLink) continue;
                const auto id = static_cast<std::uint32_t>(pairs_.size());
                pairs_.push_back({a, b});
                pair_layer_.push_back(kNoLayer);
                pair_id_[std::size_t{a} * n + b] = pair_id_[std::size_t{b} * n + a] = id;
            }
        cdg_.open_layer();
        in_layer_.assign(1, 0);
        for (std::uint32_t id = 1; id < pairs_.size(); ++id) {
            path(pairs_[id].a, pairs_[id].b, pa_);
            path(pairs_[id].b, pairs_[id].a, pb_);
            unsigned layer = 0;
            while (layer < cdg_.layers() && !cdg_.try_add(layer, pa_, pb_)) ++layer;
            if (layer == cdg_.layers()) {
                if (layer >= budget)
                    return HookResult::failure(
                        "needs more than " + std::to_string(budget) + " layers (VL budget " +
                        std::to_string(budget + (o_.lash_start_vl_set ? o_.lash_start_vl : 0)) +
                        " from max_vls/qos_max_vls, minus lash_start_vl)");
                cdg_.open_layer();
                in_layer_.push_back(0);
                cdg_.try_add(layer, pa_, pb_);  // one pair alone cannot close a cycle
            }
            pair_layer_[id] = static_cast<std::uint8_t>(layer);
            in_layer_[layer] += 2;
        }
        return HookResult::success();
    }

    // OpenSM's balancing: random pairs of the fullest layer move to the emptiest one while that
    // layer stays acyclic; a pair that cannot move is not tried again until the fullest or
    // emptiest layer changes. Seeded, so deterministic.
    void balance() {
        const unsigned layers = cdg_.layers();
        if (layers < 2) return;
        SeededRng rng(o_.seed);
        std::vector<std::vector<std::uint32_t>> members(layers);
        std::vector<std::uint32_t> where(pairs_.size(), 0);
        for (std::uint32_t id = 1; id < pairs_.size(); ++id) {
            where[id] = static_cast<std::uint32_t>(members[pair_layer_[id]].size());
            members[pair_layer_[id]].push_back(id);
        }
        std::vector<std::uint32_t> tried(pairs_.size(), 0);
        std::uint32_t epoch = 1;
        auto pick = [&] {
            unsigned lo = 0, hi = 0;
            for (unsigned l = 0; l < layers; ++l) {
                if (in_layer_[l] < in_layer_[lo]) lo = l;
                if (in_layer_[l] > in_layer_[hi]) hi = l;
            }
            return std::pair{lo, hi};
        };
        auto [lo, hi] = pick();
        std::uint64_t trials = in_layer_[hi];
        while (trials > 0 && in_layer_[hi] - in_layer_[lo] >= kBalanceLimit && lo != hi) {
            auto &from = members[hi];
            // A random untried pair of the fullest layer: rejection sampling, then a scan.
            std::uint32_t id = 0;
            for (int attempt = 0; attempt < 32 && !id; ++attempt) {
                const std::uint32_t c = from[rng.below(from.size())];
                if (tried[c] != epoch) id = c;
            }
            if (!id) {
                const std::size_t s0 = rng.below(from.size());
                for (std::size_t k = 0; k < from.size() && !id; ++k)
                    if (const std::uint32_t c = from[(s0 + k) % from.size()]; tried[c] != epoch) id = c;
            }
            if (!id) break;
            path(pairs_[id].a, pairs_[id].b, pa_);
            path(pairs_[id].b, pairs_[id].a, pb_);
            if (cdg_.try_add(lo, pa_, pb_)) {
                cdg_.remove(hi, pa_, pb_);
                // Move id from members[hi] to members[lo].
                const std::uint32_t last = from.back();
                from[where[id]] = last, where[last] = where[id], from.pop_back();
                where[id] = static_cast<std::uint32_t>(members[lo].size());
                members[lo].push_back(id);
                pair_layer_[id] = static_cast<std::uint8_t>(lo);
                in_layer_[hi] -= 2, in_layer_[lo] += 2;
            } else {
                tried[id] = epoch;
                trials = trials >= 2 ? trials - 2 : 0;
            }
            const auto [nlo, nhi] = pick();
            if (nlo != lo || nhi != hi) {
                lo = nlo, hi = nhi;
                trials = in_layer_[hi];
                ++epoch;
            }
        }
    }

    const Fabric &f_;
    const SwitchGraph &g_;
    const RoutingOptions &o_;
    LayeredCdg cdg_;
    std::vector<std::uint8_t> next_;
    std::vector<Pair> pairs_;
    std::vector<std::uint32_t> pair_id_;  // [s * n + d] -> pair id (0 = none)
    std::vector<std::uint8_t> pair_layer_;
    std::vector<std::uint32_t> in_layer_;  // paths per layer (two per pair)
    std::vector<std::uint32_t> pa_, pb_;
};

class Lash final : public Engine {
  public:
    std::string_view name() const override { return "lash"; }
    bool supports_lmc() const override { return false; }
    bool provides_fwd_tables() const override { return true; }
    HookResult build_fwd_tables(RoutingContext &ctx, RoutingTables &t) override {
        if (ctx.options.lmc > 0)
            return HookResult::failure("LMC > 0 is not supported by lash (as in OpenSM)");
        const SwitchGraph g(ctx.fabric);
        if (g.size() == 0) return HookResult::failure("not a switched subnet");
        return LashRouting(ctx.fabric, g, ctx.options).run(t);
    }
};

}  // namespace

std::unique_ptr<Engine> make_lash() {
    return std::make_unique<Lash>();
}

}  // namespace weft::routing::engines
