// Up*/down* routing shared by updn and dnup: given a rank per switch (0 = top), a move from x
// to y goes UP when y ranks higher in the tree (smaller rank, or equal rank and smaller GUID,
// as OpenSM breaks ties), so the order is strict and no route can close a credit loop when
// it never goes up after going down -- except over links between two roots, which OpenSM
// lets routes use freely before their first down move.
//
// Per destination switch the engine computes the all-down distance and, for switches with no
// all-down path, the up-then-down distance; a switch that can reach the destination going only
// down always does (so a packet that has turned down never meets a switch that sends it up),
// and the others go up. The LFT step is OpenSM's port equalization over those allowed ports.
#pragma once

#include <optional>
#include <vector>

#include "engines/switch_graph.hpp"
#include "weft/routing/engine.hpp"

namespace weft::routing::engines {

class UpDownRouting {
  public:
    // rank[s]: 0 for the roots; kUnranked for switches the ranking did not reach.
    static constexpr unsigned kUnranked = 0xFFFFFFFFu;
    // free_roots: moves between two rank-0 switches are up both ways (updn, as OpenSM); dnup
    // orders every equal-rank move by GUID instead, which keeps it free of credit loops.
    // ids (-m / --ids_guid_file) replace the GUIDs of the switches they name in that ordering.
    void compute(const Fabric &f, std::vector<unsigned> rank, bool free_roots, RoutingTables &t,
                 const std::vector<std::pair<Guid, std::uint64_t>> &ids = {});
    void build_lfts(const Fabric &f, const RoutingOptions &o, RoutingTables &t);
    // The switch graph of f, built afresh: an engine calls this first in a routing run, and
    // compute and build_lfts of that run reuse it instead of building their own.
    const SwitchGraph &new_graph(const Fabric &f) {
        graph_.emplace(f);
        graph_of_ = &f;
        return *graph_;
    }

  private:
    // A move between two roots counts as up both ways (OpenSM's hack for cabled roots, and what
    // keeps fabrics routable when the histogram marks every switch a root); any other move is
    // down exactly when it is not up.
    bool is_up(SwitchIdx from, SwitchIdx to) const {
        if (free_roots_ && rank_[to] == 0 && rank_[from] == 0) return true;
        return rank_[to] < rank_[from] || (rank_[to] == rank_[from] && guid_[to] < guid_[from]);
    }
    std::vector<unsigned> rank_;
    std::vector<std::uint64_t> guid_;  // the switch's GUID, or its ID from the ids file
    bool free_roots_ = true;
    const SwitchGraph &graph(const Fabric &f) { return graph_of_ == &f ? *graph_ : new_graph(f); }
    std::optional<SwitchGraph> graph_;
    const Fabric *graph_of_ = nullptr;
    HopMatrix down_;   // all-down distance
    HopMatrix route_;  // distance along the routes taken (down_ where finite)
};

// Switches the GUIDs name (a CA's node or port GUID stands for the switch it is cabled to).
std::vector<SwitchIdx> switches_named(const Fabric &f, const std::vector<Guid> &guids);

// BFS distance from a set of switches over switch links; UpDownRouting::kUnranked if unreached.
std::vector<unsigned> bfs_rank(const SwitchGraph &g, const std::vector<SwitchIdx> &from);

// updn and dnup differ only in how they rank switches (build_lid_matrices); both build their
// LFTs from the up*/down* hop matrix the same way.
class UpDownEngine : public Engine {
  public:
    bool provides_lid_matrices() const override { return true; }
    bool provides_fwd_tables() const override { return true; }
    HookResult build_fwd_tables(RoutingContext &ctx, RoutingTables &t) override {
        routing_.build_lfts(ctx.fabric, ctx.options, t);
        return HookResult::success();
    }

  protected:
    UpDownRouting routing_;
};

}  // namespace weft::routing::engines
