// OpenSM's dor (Dimension Order Routing): the min-hop matrices of minhop, then for each switch
// and LID the first min-hop port in search order, so that with consistent cabling (port numbers
// name dimensions, see dor_cabling.hpp) every path corrects the lowest dimension first and
// meshes and hypercubes stay free of credit loops. The search order is port order, or for a
// switch listed in -O (port_search_ordering_file, OpenSM's dimension ports file) the listed
// ports first in file order: the file chooses which dimension is corrected first. Parallel
// cables to that same neighbour are one dimension: the LID goes to the least loaded of them
// (OpenSM's port equalization; with LMC > 0, ties go to the cable this end port's earlier LIDs
// used least) unless port equalization is off, then always to the first. Unlike the other
// engines, every LID of an end port starts the scan afresh, as OpenSM's dor does, so that all of
// them keep dimension order. Inconsistent cabling is routed anyway; here it is reported,
// naming switches and ports, in the tables' warnings.
#include <algorithm>
#include <optional>

#include "engines/dor_cabling.hpp"
#include "engines/engines.hpp"
#include "engines/lft_builder.hpp"
#include "engines/switch_graph.hpp"

namespace weft::routing::engines {
namespace {

// With LMC > 0, per end port: how many of its LIDs this switch forwarded to each far end
// (switch, port) so far (OpenSM keeps this per end port and switch).
struct FarEnd {
    SwitchIdx sw;
    PortNum port;
    std::uint32_t forwarded_to;
};

std::uint32_t forwarded(const std::vector<FarEnd> &used, const SwitchLink &l) {
    for (const FarEnd &u : used)
        if (u.sw == l.peer && u.port == l.peer_port) return u.forwarded_to;
    return 0;
}

void note_forwarded(std::vector<FarEnd> &used, SwitchIdx sw, PortNum port) {
    for (FarEnd &u : used)
        if (u.sw == sw && u.port == port) {
            ++u.forwarded_to;
            return;
        }
    used.push_back({sw, port, 1});
}

// switch_hops: the switch-level hops toward each destination switch if known, else read from t.hops.
[[gnu::hot]] void build_dor_lfts(const Fabric &f, const SwitchGraph &g, const RoutingOptions &o,
                                 RoutingTables &t, const SwitchHops *switch_hops) {
    const std::size_t n = g.size();
    const auto order = route_order(f, g);
    if (is_plain_order(o, order)) {
        // One LID per end port, port order: the first min-hop link's neighbour over the shared
        // row builder (the least loaded of parallel links, first on a tie, as below).
        for (auto &row : t.lft) std::fill(row.begin(), row.end(), kNoPort);
        SwitchHops from_lids;
        if (!switch_hops) from_lids = switch_hops_from_lids(g, t), switch_hops = &from_lids;
        const SwitchHops &h = *switch_hops;
        return build_row_lfts(f, g, o, t, order, CandRule::first_neighbour, o.port_equalization,
                              [&](SwitchIdx s, const SwitchLink &l, std::uint8_t *ok) {
                                  min_hop_row(h.row(s), h.row(l.peer), ok, h.stride);
                              });
    }
    std::uint32_t max_count = 1;
    for (const auto &e : order) max_count = std::max(max_count, e.count);
    // Min-hop links of s toward each destination switch, in search order (port order unless -O).
    std::vector<std::int32_t> cand_begin;
    std::vector<std::uint8_t> cand_len;
    std::vector<SwitchLink> cand;
    std::vector<std::uint32_t> load;
    const bool lmc = o.lmc > 0;
    std::vector<std::vector<FarEnd>> used(lmc ? order.size() : 0);  // by route order entry
    for (SwitchIdx s = 0; s < n; ++s) {
        for (auto &u : used) u.clear();
        auto &lft = t.lft[s];
        std::fill(lft.begin(), lft.end(), kNoPort);
        const auto &hops = t.hops[s];
        const auto ignored = ignored_ports(f, o, s);
        const auto search_rank = port_search_rank(f, o, s);
        cand_begin.assign(n, -1);
        cand_len.assign(n, 0);
        cand.clear();
        load.assign(std::size_t{f.node(f.switch_node(s)).num_ports} + 1, 0);
        for (std::uint32_t i = 0; i < max_count; ++i) {
            for (std::size_t e_idx = 0; e_idx < order.size(); ++e_idx) {
                const RouteOrderEntry &e = order[e_idx];
                if (i >= e.count) continue;
                const Lid lid = e.base + i;
                const LidTarget &tg = g.target(lid);
                if (tg.sw == kNoSwitch) continue;
                PortNum port;
                if (tg.sw == s) {
                    port = tg.port;
                } else {
                    if (hops[lid] == kInfHops) continue;
                    if (cand_begin[tg.sw] < 0) {
                        cand_begin[tg.sw] = static_cast<std::int32_t>(cand.size());
                        for (const SwitchLink &l : g.links(s))
                            if (t.hops[l.peer][lid] != kInfHops && t.hops[l.peer][lid] + 1 == hops[lid])
                                cand.push_back(l);
                        cand_len[tg.sw] = static_cast<std::uint8_t>(cand.size() - cand_begin[tg.sw]);
                        // -O: the scan goes through the ports in the file's order (the
                        // dimensions in that order), not in port number order.
                        if (!search_rank.empty())
                            std::stable_sort(cand.begin() + cand_begin[tg.sw], cand.end(),
                                             [&](const SwitchLink &a, const SwitchLink &b) {
                                                 return search_rank[a.port] < search_rank[b.port];
                                             });
                    }
                    const unsigned len = cand_len[tg.sw];
                    if (len == 0) continue;
                    const SwitchLink *c = cand.data() + cand_begin[tg.sw];
                    // The first min-hop port fixes the neighbour (the dimension); among its
                    // parallel ports the least loaded, then (LMC > 0) the one whose far end this
                    // end port's LIDs were forwarded to least, then the first.
                    const SwitchIdx via = c[0].peer;
                    port = c[0].port;
                    if (o.port_equalization) {
                        std::uint32_t least = 0xFFFFFFFFu, least_fwd = 0xFFFFFFFFu;
                        for (unsigned k = 0; k < len; ++k) {
                            const SwitchLink &l = c[k];
                            if (l.peer != via) continue;
                            const std::uint32_t fwd = lmc ? forwarded(used[e_idx], l) : 0;
                            if (load[l.port] < least) {
                                least = load[l.port], port = l.port;
                                least_fwd = std::min(least_fwd, fwd);  // as OpenSM: lowered, not reset
                            } else if (lmc && load[l.port] == least && fwd < least_fwd) {
                                least_fwd = fwd, port = l.port;
                            }
                        }
                    }
                }
                lft[lid] = port;
                if (port == 0 || ignored[port] || (tg.is_switch && !o.port_profile_switch_nodes)) continue;
                ++load[port];
                if (lmc && tg.sw != s) {
                    const NodeIdx node = f.switch_node(s);
                    note_forwarded(used[e_idx], f.node(f.port(node, port).peer).sw,
                                   f.port(node, port).peer_port);
                }
            }
        }
    }
}

class Dor final : public Engine {
  public:
    [[gnu::hot]] std::string_view name() const override { return "dor"; }
    // dor's hop matrices are minhop's; building them here lets the LFT step reuse the switch
    // graph and the switch hop matrix of the same run.
    [[gnu::hot]] bool provides_lid_matrices() const override { return true; }
    [[gnu::hot]] bool provides_fwd_tables() const override { return true; }
    [[gnu::hot]] HookResult build_lid_matrices(RoutingContext &ctx, RoutingTables &t) override {
        graph_.reset();
        graph_of_ = nullptr;
        hops_ = {};
        if (!ctx.options.hop_weights.empty()) {
            build_minhop_matrices(ctx.fabric, ctx.options, t);
            return HookResult::success();
        }
        graph_.emplace(ctx.fabric);
        graph_of_ = &ctx.fabric;
        HopMatrix m = switch_min_hops(*graph_, switch_hops_stride(graph_->size()));
        fill_lid_hops(*graph_, m, t);
        hops_ = switch_hops_of(std::move(m));
        return HookResult::success();
    }
    [[gnu::hot]] HookResult build_fwd_tables(RoutingContext &ctx, RoutingTables &t) override {
        std::optional<SwitchGraph> own;
        const bool reuse = graph_of_ == &ctx.fabric;
        if (!reuse) own.emplace(ctx.fabric);
        const SwitchGraph &g = reuse ? *graph_ : *own;
        if (g.size() == 0) return HookResult::failure("not a switched subnet");
        build_dor_lfts(ctx.fabric, g, ctx.options, t, reuse ? &hops_ : nullptr);
        const DorCabling c = check_dor_cabling(ctx.fabric, g);
        for (const auto &p : c.problems)
            t.warnings.push_back("inconsistent cabling for dimension order: " + p);
        for (const auto &r : c.rings) t.warnings.push_back(r);
        return HookResult::success();
    }

  private:
    std::optional<SwitchGraph> graph_;  // of the fabric build_lid_matrices saw last
    const Fabric *graph_of_ = nullptr;
    SwitchHops hops_;
};

}  // namespace

[[gnu::hot]] std::unique_ptr<Engine> make_dor() {
    return std::make_unique<Dor>();
}

}  // namespace weft::routing::engines
