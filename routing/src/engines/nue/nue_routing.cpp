// Nue's routing step (OpenSM osm_ucast_nue.c's flow, our own code): the VL budget, the
// destinations and their orders, the layer partition, then per layer the central node, a complete
// CDG with the escape paths, and one constrained Dijkstra per destination LID with balancing
// weights, for several candidate runs (destination orders, searches and partitions) raced for the
// best-balanced one (candidate_race.hpp). Every switch gets the destination's layer as path SL;
// SL2VL maps SL i to VL i % budget.
#include <algorithm>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <utility>

#include "engines/engines.hpp"
#include "engines/nue/candidate_race.hpp"
#include "engines/nue/cdg_dijkstra.hpp"
#include "engines/nue/complete_cdg.hpp"
#include "engines/nue/escape_paths.hpp"
#include "engines/nue/layer_partition.hpp"
#include "engines/nue/osm_cdg_dijkstra.hpp"
#include "engines/nue/workers.hpp"
#include "engines/osm_guid_order.hpp"
#include "weft/routing/nue.hpp"

namespace weft::routing {

using namespace engines;
using namespace engines::nue;

namespace {

// OpenSM's nue_max_num_vls: 0 = every operational VL; otherwise no more than the fabric offers.
// Operational VLs: qos_max_vls when QoS sets it, else max_vls; at most 15 data VLs.
unsigned operational_vls(const RoutingOptions &o) {
    return std::clamp((o.qos && o.qos_max_vls) ? o.qos_max_vls : o.max_vls, 1u, 15u);
}
unsigned vl_budget(const RoutingOptions &o) {
    const unsigned operational = operational_vls(o);
    return o.nue_max_num_vls == 0 ? operational : std::min(o.nue_max_num_vls, operational);
}

// Layers only stay apart if the switches' SL2VL tables map SL i to VL i, which needs QoS. OpenSM
// (warning NUE48) then routes with one layer instead of failing; so does weft, and says why.
unsigned layer_budget(const RoutingOptions &o, std::vector<std::string> &warnings) {
    const unsigned budget = vl_budget(o);
    if (budget == 1 || o.qos) return budget;
    warnings.push_back("nue_max_num_vls " + std::to_string(budget) +
                       " needs QoS (-Q) for a valid SL2VL mapping; routing with 1 VL (OpenSM NUE48)");
    return 1;
}

// The lowest busiest-channel load any routes toward dests can have: every switch's sources
// travel at least the hop distance to each destination switch, over ch.size() channels.
std::uint64_t even_spread(const SwitchGraph &g, const Channels &ch, ShortestPaths &paths,
                          const std::vector<Lid> &dests, const std::vector<std::uint64_t> &sources) {
    const std::size_t n = g.size();
    if (ch.size() == 0) return 0;
    std::vector<std::uint64_t> per_switch(n, 0);  // destinations on each switch
    for (Lid l : dests) ++per_switch[g.target(l).sw];
    std::uint64_t total = 0;
    for (SwitchIdx d = 0; d < n; ++d) {
        if (!per_switch[d]) continue;
        const ShortestPaths::From p = paths.from(d);
        std::uint64_t load = 0;  // one destination on d
        for (std::size_t i = 0; i < p.reached; ++i) load += sources[p.order[i]] * p.dist[p.order[i]];
        total += load * per_switch[d];
    }
    return (total + ch.size() - 1) / ch.size();
}

// What a layer starts from, whatever the destination order: its central node and escape tree.
// Built once, when a run first enters the layer (runs dropped early never need the later
// layers). Each run marks the escape paths in its own complete CDG.
struct LayerStart {
    SwitchIdx root;
    EscapeTree escape;
};

// A partition of the destinations with its layers' starts, and the stats it reports.
struct Plan {
    LayerPartition part;
    std::vector<std::vector<SwitchIdx>> members;        // per layer, its destinations' switches
    std::vector<std::vector<std::uint32_t>> terminals;  // per layer, its CA destinations per switch
    std::vector<std::optional<LayerStart>> starts;
    std::vector<SwitchIdx> osm_roots;  // OpenSM's central node per layer, once one is needed
    NueStats stats;
};

// One candidate: a destination order routed layer by layer, one destination a step, with weft's
// search or OpenSM's. Not movable: the search holds its weights.
struct OrderRun {
    NueOrder which;
    bool osm;              // OpenSM's search instead of weft's
    bool osm_escape;       // and OpenSM's central nodes and escape paths instead of weft's
    Plan *plan;            // the partition it routes with
    std::vector<Lid> seq;  // the order's destinations grouped by layer, layer 0 first
    std::size_t next = 0;
    unsigned layer = 0;
    RoutingTables out;  // its ports only (the kept run's hops come from its LFTs)
    NueStats stats;
    std::vector<std::uint64_t> in_weight;  // balancing weights, see RouteTree
    std::optional<CdgDijkstra> search;
    std::optional<OsmCdgDijkstra> osm_search;
    std::optional<CompleteCdg> cdg;    // of its current layer, reset on entering the next
    std::optional<EscapeTree> escape;  // with OpenSM's escape paths: its own tree (on its weights)

    OrderRun(NueOrder w, bool o, bool oe, Plan &pl)
        : which(w), osm(o), osm_escape(oe), plan(&pl), stats(pl.stats) {}
    // Its tables, weights and search are built when it routes its first destination: a run that
    // a finished one rules out before it starts costs nothing.
    bool started() const { return search || osm_search; }
    void start(const Fabric &f, const Channels &c, std::uint64_t base,
               const std::vector<SwitchIdx> &node_order) {
        out.lft.assign(f.switch_count(), std::vector<PortNum>(std::size_t{f.max_lid()} + 1, kNoPort));
        in_weight.assign(c.size(), base);
        if (osm)
            osm_search.emplace(c, in_weight, node_order);
        else
            search.emplace(c, in_weight);
    }
    bool done() const { return next == seq.size(); }
    std::uint64_t rejected() const {
        return !started() ? 0 : osm ? osm_search->rejected() : search->rejected();
    }
};

class NueRouting final : public RaceRuns {
  public:
    NueRouting(const Fabric &f, const RoutingOptions &o, NuePartitioner partitioner,
               const std::function<void(std::size_t, std::size_t)> &progress)
        : f_(f), o_(o), partitioner_(partitioner), progress_(progress), g_(f), ch_(f, g_), paths_(g_) {}

    HookResult route(RoutingTables &t, NueStats &st);

    // RaceRuns
    std::size_t slots() const override { return runs_.size(); }
    bool present(std::size_t slot) const override { return runs_[slot] != nullptr; }
    bool done(std::size_t slot) const override { return runs_[slot]->done(); }
    std::uint64_t step(std::size_t slot, unsigned worker) override;
    void drop(std::size_t slot) override { runs_[slot].reset(); }
    void stepped() override {
        if (progress_ && ++done_ % 256 == 0) progress_(done_, total_);
    }

  private:
    void find_destinations();
    void order_destinations();
    std::unique_ptr<Plan> make_plan(LayerPartition p) const;
    void add_runs(std::size_t slot, bool osm, bool osm_escape, Plan &plan, NueOrder which);
    void add_candidates(LayerPartition part, unsigned layers);
    void prepare(Workers &workers);
    const LayerStart &layer_start(Plan &plan, unsigned layer);
    SwitchIdx osm_root(Plan &plan, unsigned layer);
    template <class Search>
    void store(const Search &search, RoutingTables &out, Lid lid) const;
    void finish(OrderRun &win, RoutingTables &t, Workers &workers);

    const Fabric &f_;
    const RoutingOptions &o_;
    const NuePartitioner partitioner_;
    const std::function<void(std::size_t, std::size_t)> &progress_;
    const SwitchGraph g_;
    const Channels ch_;
    ShortestPaths paths_;     // shared by every layer's central node and the even-spread floor
    std::mutex start_mutex_;  // a layer start is built by the first run to enter it
    // Sources per switch weigh the routes for balancing: as OpenSM's num_terminals, the LIDs of
    // the switch itself and of the CAs behind it, whether or not switches count as endpoints.
    std::vector<std::uint64_t> sources_;
    std::uint64_t all_lids_ = 0, p2_ = 0;
    // Destinations: every CA/router LID, and switch LIDs when switches count as endpoints. The
    // other switch LIDs are routed after the race, for the kept routes only.
    std::vector<Lid> dests_, switch_lids_, interleaved_, port_table_;
    std::vector<SwitchIdx> osm_node_order_;  // OpenSM's switch order: by LID in network byte order
    std::vector<std::unique_ptr<Plan>> plans_;
    std::vector<std::unique_ptr<OrderRun>> runs_ = std::vector<std::unique_ptr<OrderRun>>(5);
    std::vector<CdgScratch> scratch_;  // per worker
    std::vector<std::string> warnings_;
    NueStats base_stats_;               // what every plan's stats start from
    std::size_t done_ = 0, total_ = 0;  // progress
};

void NueRouting::find_destinations() {
    sources_.assign(g_.size(), 0);
    for (Lid l = 1; l <= g_.max_lid(); ++l) {
        const LidTarget &tg = g_.target(l);
        if (tg.sw == kNoSwitch) continue;
        ++all_lids_;
        if (!tg.is_switch || o_.nue_include_switches) ++sources_[tg.sw];
        if (tg.is_switch && !o_.nue_include_switches)
            switch_lids_.push_back(l);
        else
            dests_.push_back(l);
    }
    p2_ = std::max<std::uint64_t>(all_lids_, 1) * std::max<std::uint64_t>(all_lids_, 1);
}

// Three destination orders. Per switch (dests_: its LIDs one after another, as sssp): on fat
// trees each leaf's LIDs then spread over its uplinks in turn. Interleaved (every switch's first
// LID, then every second, ...): consecutive trees toward one switch mostly reuse each other's
// dependencies, and alternating spreads the weights and the refused turns, which suits tori and
// random graphs. OpenSM's (its port table: GUIDs in network byte order, so by their low bytes
// first), which scatters the destinations and suits the dragonfly. The first two are routed with
// weft's search (a switch's channel is checked when the switch is settled), OpenSM's order with
// OpenSM's search (checked when offered, see osm_cdg_dijkstra.hpp), which balances better on
// some fabrics (random graphs, meshes, hypercubes with 8 VLs).
void NueRouting::order_destinations() {
    const std::size_t n = g_.size();
    // Switches with the most endpoints first, GUID order among equals; CA LIDs before switch LIDs.
    std::vector<std::uint32_t> rank(n);
    {
        std::vector<SwitchIdx> sws(n);
        std::iota(sws.begin(), sws.end(), 0);
        std::stable_sort(sws.begin(), sws.end(), [&](SwitchIdx a, SwitchIdx b) {
            if (g_.end_ports(a) != g_.end_ports(b)) return g_.end_ports(a) > g_.end_ports(b);
            return f_.node(f_.switch_node(a)).guid < f_.node(f_.switch_node(b)).guid;
        });
        for (std::uint32_t i = 0; i < n; ++i) rank[sws[i]] = i;
    }
    auto consecutive = [&](Lid a, Lid b) {
        const LidTarget &x = g_.target(a), &y = g_.target(b);
        if (x.is_switch != y.is_switch) return y.is_switch;
        if (x.sw != y.sw) return rank[x.sw] < rank[y.sw];
        return a < b;
    };
    std::stable_sort(dests_.begin(), dests_.end(), consecutive);
    std::stable_sort(switch_lids_.begin(), switch_lids_.end(), consecutive);
    std::vector<std::uint32_t> nth(std::size_t{g_.max_lid()} + 1, 0), seen(n, 0);
    for (Lid l : dests_) nth[l] = seen[g_.target(l).sw]++;
    interleaved_ = dests_;
    std::stable_sort(interleaved_.begin(), interleaved_.end(), [&](Lid a, Lid b) {
        if (nth[a] != nth[b]) return nth[a] < nth[b];
        return consecutive(a, b);
    });
    // OpenSM walks its port table, a map keyed by the GUID in network byte order, on x86:
    // ordered by the byte-swapped value (checked against its log's layer of every LID).
    auto port_table_key = [&](Lid l) {
        const LidTarget &x = g_.target(l);
        return osm_table_key(f_.port(x.node, x.node_port).guid);
    };
    port_table_ = dests_;
    std::stable_sort(port_table_.begin(), port_table_.end(), [&](Lid a, Lid b) {
        const bool sa = g_.target(a).is_switch, sb = g_.target(b).is_switch;
        if (sa != sb) return sb;  // CA LIDs first, as OpenSM routes them
        return port_table_key(a) < port_table_key(b);
    });
    // OpenSM keeps its switches sorted by LID in network byte order; its backtracking walks them so.
    osm_node_order_.resize(n);
    std::iota(osm_node_order_.begin(), osm_node_order_.end(), 0);
    auto net_order_lid = [&](SwitchIdx s) {
        const Lid l = f_.port(f_.switch_node(s), 0).lid;
        return static_cast<std::uint16_t>((l >> 8) | ((l & 0xFF) << 8));
    };
    std::stable_sort(osm_node_order_.begin(), osm_node_order_.end(),
                     [&](SwitchIdx a, SwitchIdx b) { return net_order_lid(a) < net_order_lid(b); });
}

std::unique_ptr<Plan> NueRouting::make_plan(LayerPartition p) const {
    auto plan = std::make_unique<Plan>();
    plan->stats = base_stats_;
    plan->part = std::move(p);
    plan->stats.metis_used = plan->part.metis;
    plan->stats.partition_note = plan->part.note;
    plan->stats.layers_used = plan->part.used;
    const LayerPartition &pt = plan->part;
    plan->starts.resize(pt.used);
    plan->members.resize(pt.used);
    plan->terminals.assign(pt.used, std::vector<std::uint32_t>(g_.size(), 0));
    for (Lid l : dests_) {
        plan->members[pt.layer[l]].push_back(g_.target(l).sw);
        if (!g_.target(l).is_switch) ++plan->terminals[pt.layer[l]][g_.target(l).sw];
    }
    for (auto &m : plan->members) {
        std::sort(m.begin(), m.end());
        m.erase(std::unique(m.begin(), m.end()), m.end());
    }
    return plan;
}

void NueRouting::add_runs(std::size_t slot, bool osm, bool osm_escape, Plan &plan, NueOrder which) {
    const std::vector<Lid> &order = which == NueOrder::PerSwitch     ? dests_
                                    : which == NueOrder::Interleaved ? interleaved_
                                                                     : port_table_;
    auto &r = *(runs_[slot] = std::make_unique<OrderRun>(which, osm, osm_escape, plan));
    for (unsigned layer = 0; layer < plan.part.used; ++layer)
        for (Lid l : order)
            if (plan.part.layer[l] == layer) r.seq.push_back(l);
}

// The candidates, in the order that decides ties: weft's search per switch and interleaved,
// OpenSM's search with its port-table order (slots 0-2, on the partition `part`; slot 2 on weft's
// central nodes and escape trees), and with METIS chosen by default (Auto), several layers and a
// METIS partition, OpenSM's own partition (Debian's OpenSM has no METIS: CA LIDs dealt
// round-robin in port-table order) with weft's search, interleaved (slot 3). Slot 4 is OpenSM
// itself: its partition, order, search, central nodes and escape trees (on dragonfly:a=4,p=2,h=2
// with 8 VLs the same CA routes as Debian's OpenSM 3.3.23), so the kept routes never balance
// worse than OpenSM's. Left out, as they never balanced best where tried with 1, 2 and 8 VLs:
// weft's search with the port-table order, and OpenSM's partition per switch or in port-table
// order.
void NueRouting::add_candidates(LayerPartition part, unsigned layers) {
    plans_.push_back(make_plan(std::move(part)));
    Plan &own = *plans_.back();
    add_runs(0, false, false, own, NueOrder::PerSwitch);
    add_runs(1, false, false, own, NueOrder::Interleaved);
    add_runs(2, true, false, own, NueOrder::PortTable);
    // OpenSM's partition is a plan of its own with several layers by default; otherwise OpenSM's
    // run routes the partition above (OpenSM built with METIS would partition with it).
    Plan *round_robin = &own;
    if (layers > 1 && partitioner_ == NuePartitioner::Auto) {
        plans_.push_back(make_plan(deal_round_robin(g_, port_table_, layers)));
        round_robin = plans_.back().get();
        round_robin->stats.partition_note = "OpenSM's round-robin partition balanced better";
        if (own.part.metis) add_runs(3, false, false, *round_robin, NueOrder::Interleaved);
    }
    add_runs(4, true, true, *round_robin, NueOrder::PortTable);
}

// Before the race, on every worker: the floor's searches out of every destination switch (the
// central nodes use them again; each search writes only its own source's arrays), and the first
// layer's central node, where the first run starts.
void NueRouting::prepare(Workers &workers) {
    std::vector<SwitchIdx> dest_switches;
    std::vector<std::uint8_t> is_dest(g_.size(), 0);
    for (const Lid l : dests_) {
        const SwitchIdx sw = g_.target(l).sw;
        if (!is_dest[sw]) is_dest[sw] = 1, dest_switches.push_back(sw);
    }
    const unsigned count = workers.count();
    workers.run([&](unsigned w) {
        for (std::size_t i = w; i < dest_switches.size(); i += count) paths_.from(dest_switches[i]);
    });
    Plan &plan = *plans_[0];
    if (count < 2 || plan.part.used == 0) return;  // layer_start finds it when needed
    const std::vector<SwitchIdx> &members = plan.members[0];
    Centrality half[2];
    workers.run([&](unsigned w) {
        if (w < 2) half[w] = centrality_half(g_, members, paths_, w);
    });
    const SwitchIdx root = central_node(g_, members, std::move(half[0]), half[1]);
    plan.starts[0].emplace(LayerStart{root, EscapeTree(g_, ch_, root)});
}

const LayerStart &NueRouting::layer_start(Plan &plan, unsigned layer) {
    const std::lock_guard lock(start_mutex_);
    auto &start = plan.starts[layer];
    if (!start) {
        const SwitchIdx root = central_node(g_, plan.members[layer], paths_);
        start.emplace(LayerStart{root, EscapeTree(g_, ch_, root)});
    }
    return *start;
}

// All layers at once: their searches are shared, and the OpenSM run mostly enters most layers.
SwitchIdx NueRouting::osm_root(Plan &plan, unsigned layer) {
    const std::lock_guard lock(start_mutex_);
    if (plan.osm_roots.empty())
        plan.osm_roots = osm_central_nodes(ch_, osm_node_order_, plan.members, plan.terminals, paths_);
    return plan.osm_roots[layer];
}

// Writes the last search's routes toward lid into out: the ports, and the hops unless out has
// none.
template <class Search>
void NueRouting::store(const Search &search, RoutingTables &out, Lid lid) const {
    const LidTarget &tg = g_.target(lid);
    const std::uint8_t extra = tg.is_switch ? 0 : 1;
    const auto &next = search.next();
    const auto &hops = search.hops();
    const bool with_hops = !out.hops.empty();
    for (SwitchIdx s : search.settled()) {
        out.lft[s][lid] = s == tg.sw ? tg.port : ch_.port(next[s]);
        if (with_hops)
            out.hops[s][lid] = static_cast<std::uint8_t>(std::min<unsigned>(hops[s] + extra, kInfHops - 1u));
    }
}

// Routes the run's next destination; returns the busiest channel of its routes so far. Touches
// only the run and the layer starts, so two runs can step at once.
std::uint64_t NueRouting::step(std::size_t slot, unsigned worker) {
    OrderRun &r = *runs_[slot];
    const Lid lid = r.seq[r.next];
    if (!r.started()) r.start(f_, ch_, p2_, osm_node_order_);  // P^2 + load
    CdgScratch &scratch = scratch_[worker];
    if (r.cdg) r.cdg->use_scratch(scratch);
    if (!r.cdg || r.plan->part.layer[lid] != r.layer) {
        r.layer = r.plan->part.layer[lid];
        const std::vector<SwitchIdx> &members = r.plan->members[r.layer];
        // The run's CDG is reset in place: its storage is reused from layer to layer.
        auto fresh_cdg = [&](const EscapeTree &escape) {
            if (r.cdg) {
                r.cdg->reset(escape.levels());
            } else {
                r.cdg.emplace(ch_, escape.levels());
                r.cdg->use_scratch(scratch);
            }
        };
        if (r.osm_escape) {
            // As OpenSM: its central node, and a tree grown on this run's weights so far.
            const SwitchIdx root = osm_root(*r.plan, r.layer);
            r.stats.central_nodes.push_back(root);
            r.escape.emplace(EscapeTree::osm(ch_, root, osm_node_order_, r.in_weight));
            fresh_cdg(*r.escape);
            r.cdg->block_tried_only();
            r.escape->mark_osm(members, *r.cdg);
        } else {
            const LayerStart &start = layer_start(*r.plan, r.layer);
            r.stats.central_nodes.push_back(start.root);
            fresh_cdg(start.escape);
            start.escape.mark(members, *r.cdg);
        }
    }
    const SwitchIdx d = g_.target(lid).sw;
    // Built before r entered the layer.
    const EscapeTree *escape = r.osm_escape ? &*r.escape : &r.plan->starts[r.layer]->escape;
    const bool own = r.osm ? r.osm_search->route(d, &*r.cdg, escape) : r.search->route(d, &*r.cdg, escape);
    if (!own) ++r.stats.escape_routed;
    const RouteTree &tree = r.osm ? static_cast<const RouteTree &>(*r.osm_search) : *r.search;
    if (r.osm) {
        r.osm_search->add_load(sources_);
        store(*r.osm_search, r.out, lid);
    } else {
        r.search->add_load(sources_);
        store(*r.search, r.out, lid);
    }
    ++r.next;
    // The weights start at P^2 (no load can make a longer path cheaper): the routes' load is what
    // lies above it.
    return tree.max_weight() >= p2_ ? tree.max_weight() - p2_ : 0;
}

HookResult NueRouting::route(RoutingTables &t, NueStats &st) {
    if (g_.size() == 0) return HookResult::failure("not a switched subnet");
    st.layers_allowed = layer_budget(o_, warnings_);
    find_destinations();
    order_destinations();
    LayerPartition part =
        partitioner_ == NuePartitioner::PortGuidRoundRobin
            ? deal_round_robin(g_, port_table_, st.layers_allowed)
            : partition_layers(g_, dests_, st.layers_allowed, partitioner_ != NuePartitioner::SemiRandom,
                               partitioner_ == NuePartitioner::Metis, o_.seed);
    st.metis_used = part.metis;
    st.partition_note = part.note;
    st.layers_used = part.used;
    if (part.used == 0) return HookResult::failure("nue: " + part.note);
    base_stats_ = st;
    add_candidates(std::move(part), st.layers_allowed);
    total_ = 5 * dests_.size() + switch_lids_.size();  // at most every run to the end

    // The kept routes do not depend on the thread count (candidate_race.hpp); more threads than
    // candidates would have nothing to race.
    const auto candidates = static_cast<unsigned>(
        std::count_if(runs_.begin(), runs_.end(), [](const auto &r) { return r != nullptr; }));
    Workers workers(std::min(Workers::resolve(o_.nue_threads), candidates));
    scratch_.resize(workers.count());
    prepare(workers);
    const std::size_t kept = race(*this, even_spread(g_, ch_, paths_, dests_, sources_), workers);
    OrderRun &win = *runs_[kept == kNoRun ? 0 : kept];  // kNoRun: no destinations, every order empty
    if (!win.started()) win.start(f_, ch_, p2_, osm_node_order_);
    win.stats.destinations = win.seq.size();
    win.stats.rejected_dependencies = win.rejected();
    win.stats.order = win.which;
    st = win.stats;
    finish(win, t, workers);
    return HookResult::success();
}

// The kept routes' tables: path SLs and hop counts toward its destinations from its LFTs (they
// read and write only the destinations' entries), and the switch LIDs outside the endpoint set,
// balanced on the kept run's weights with no dependency constraint and SL 0, each adding its load
// for the next (as OpenSM). The two parts run side by side where there are two workers.
void NueRouting::finish(OrderRun &win, RoutingTables &t, Workers &workers) {
    const std::size_t n = g_.size(), lids = std::size_t{g_.max_lid()} + 1;
    const Plan &plan = *win.plan;
    std::vector<std::uint64_t> weight = std::move(win.in_weight);
    t = std::move(win.out);
    t.hops.assign(n, std::vector<std::uint8_t>(lids, kInfHops));
    auto destination_tables = [&] {
        t.path_sl.assign(n, std::vector<std::uint8_t>(lids, 0));
        for (SwitchIdx s = 0; s < n; ++s)
            for (Lid lid : dests_) t.path_sl[s][lid] = plan.part.layer[lid];
        hops_from_lfts(f_, g_, t, dests_);
    };
    auto switch_routes = [&] {
        if (switch_lids_.empty()) return;
        CdgDijkstra search(ch_, weight);
        for (Lid lid : switch_lids_) {
            search.route(g_.target(lid).sw, nullptr, nullptr);
            search.add_load(sources_);
            store(search, t, lid);
            if (progress_ && ++done_ % 256 == 0) progress_(done_, total_);
        }
    };
    if (workers.count() > 1 && !switch_lids_.empty()) {
        workers.run([&](unsigned w) {
            if (w == 0) switch_routes();
            if (w == 1) destination_tables();
        });
    } else {
        destination_tables();
        switch_routes();
    }
    const unsigned used = plan.part.used;
    t.vls_used = used;
    t.warnings.insert(t.warnings.end(), warnings_.begin(), warnings_.end());
    if (used > 1) {
        // Layers stay apart only if every switch maps SL i to VL i (OpenSM's doc: VL = SL % VLs).
        const unsigned operational = operational_vls(o_);
        Sl2Vl map{};
        for (unsigned sl = 0; sl < 16; ++sl) map[sl] = static_cast<std::uint8_t>(sl % operational);
        t.sl2vl_all = map;
    }
}

}  // namespace

bool nue_has_metis() {
    return metis_available();
}

HookResult route_nue(const Fabric &f, const RoutingOptions &o, RoutingTables &t, NuePartitioner partitioner,
                     NueStats *stats, const std::function<void(std::size_t, std::size_t)> &progress) {
    NueStats local;
    NueStats &st = stats ? *stats : local;
    st = NueStats{};
    if (f.switch_count() == 0) return HookResult::failure("not a switched subnet");
    NueRouting nue(f, o, partitioner, progress);
    return nue.route(t, st);
}

}  // namespace weft::routing
