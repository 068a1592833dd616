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

class Dor final : public Engine {
  public:
    std::string_view name() const override { return "dor"; }
    // dor's hop matrices are minhop's; building them here lets the LFT step reuse the switch
    // graph and the switch hop matrix of the same run.
    bool provides_lid_matrices() const override { return true; }
    bool provides_fwd_tables() const override { return true; }
    HookResult build_lid_matrices(RoutingContext &ctx, RoutingTables &t) override {
        graph_.reset();
        graph_of_ = nullptr;
        hops_ = {};
        if (!ctx.options.hop_weights.empty()) {
            build_minhop_matrices(ctx.fabric, ctx.options, t);
            return HookResult::success();
        }
        graph_.emplace(ctx.fabric);
        graph_of_ = &ctx.fabric;
        hops_ = switch_min_hops(*graph_);
        fill_lid_hops(*graph_, hops_, t);
        return HookResult::success();
    }
    HookResult build_fwd_tables(RoutingContext &ctx, RoutingTables &t) override {
        std::optional<SwitchGraph> own;
        const bool reuse = graph_of_ == &ctx.fabric;
        if (!reuse) own.emplace(ctx.fabric);
        const SwitchGraph &g = reuse ? *graph_ : *own;
        if (g.size() == 0) return HookResult::failure("not a switched subnet");
        // The first min-hop link's neighbour (the lowest dimension that brings the packet
        // closer), the least loaded of the parallel cables to it.
        for (auto &row : t.lft) std::fill(row.begin(), row.end(), kNoPort);
        const HopMatrix h = reuse ? HopMatrix{} : switch_hops_from_lids(g, t);
        const HopMatrix &hops = reuse ? hops_ : h;
        PortPolicy policy;
        policy.first_neighbour_only = true;
        policy.equalize = ctx.options.port_equalization;
        policy.lmc = PortPolicy::Lmc::far_ports;
        build_lfts(ctx.fabric, g, ctx.options, t, route_order(ctx.fabric, g), policy,
                   [&](SwitchIdx s, const SwitchLink &l, std::uint8_t *ok) {
                       min_hop_row(hops.row(s), hops.row(l.peer), ok, g.size());
                   });
        const DorCabling c = check_dor_cabling(ctx.fabric, g);
        for (const auto &p : c.problems)
            t.warnings.push_back("inconsistent cabling for dimension order: " + p);
        for (const auto &r : c.rings) t.warnings.push_back(r);
        return HookResult::success();
    }

  private:
    std::optional<SwitchGraph> graph_;  // of the fabric build_lid_matrices saw last
    const Fabric *graph_of_ = nullptr;
    HopMatrix hops_;  // its switch hop matrix
};

}  // namespace

std::unique_ptr<Engine> make_dor() {
    return std::make_unique<Dor>();
}

}  // namespace weft::routing::engines
