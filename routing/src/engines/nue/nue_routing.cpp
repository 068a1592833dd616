// Nue's driver (OpenSM osm_ucast_nue.c's flow, our own code): the VL budget, the destinations and
// their order, the layer partition, then per layer the central node, a fresh complete CDG with
// the escape paths, and one constrained Dijkstra per destination LID with balancing weights,
// for several destination orders, searches and partitions, of which the best-balanced is kept.
// Every switch gets the destination's layer as path SL; SL2VL maps SL i to VL i % budget.
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "engines/engines.hpp"
#include "engines/nue/cdg_dijkstra.hpp"
#include "engines/nue/complete_cdg.hpp"
#include "engines/nue/escape_paths.hpp"
#include "engines/nue/layer_partition.hpp"
#include "engines/nue/osm_cdg_dijkstra.hpp"
#include "engines/osm_guid_order.hpp"
#include "weft/routing/nue.hpp"

namespace weft::routing {

using namespace engines;
using namespace engines::nue;

namespace {

// OpenSM's nue_max_num_vls: 0 = every operational VL; otherwise no more than the fabric offers.
// Operational VLs: qos_max_vls when QoS sets it, else max_vls; at most 15 data VLs.
unsigned vl_budget(const RoutingOptions &o) {
    unsigned operational = (o.qos && o.qos_max_vls) ? o.qos_max_vls : o.max_vls;
    operational = std::clamp(operational, 1u, 15u);
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

// Threads that help race the candidate runs, started before the route's set-up so that their
// start-up overlaps it, or later once the race turns out to need them; they wait until the race
// opens. If a thread cannot be started, the race runs on fewer.
class Helpers {
  public:
    explicit Helpers(std::size_t count) { add(count); }
    Helpers(const Helpers &) = delete;
    Helpers &operator=(const Helpers &) = delete;
    ~Helpers() {
        open({});
        for (auto &t : threads_)
            if (t.joinable()) t.join();
    }
    // Starts count more threads; once the race is open they join it at once. Called by one thread
    // only (the one that routes), before join().
    void add(std::size_t count) {
        try {
            for (std::size_t i = 0; i < count; ++i) {
                std::exception_ptr &failed = failed_.emplace_back();  // a deque: stays where it is
                threads_.emplace_back([this, &failed] {
                    std::function<void()> work;
                    {
                        std::unique_lock lock(mutex_);
                        for (;;) {
                            opened_cv_.wait(lock, [this] { return opened_ || lent_; });
                            if (!lent_) break;  // the race opened
                            const std::function<void()> task = std::exchange(lent_, nullptr);
                            lock.unlock();
                            try {
                                task();
                            } catch (...) {
                                lent_error_ = std::current_exception();
                            }
                            lock.lock();
                            lent_busy_ = false;
                            lent_cv_.notify_all();
                        }
                        work = work_;
                    }
                    if (!work) return;
                    try {
                        work();
                    } catch (...) {
                        failed = std::current_exception();
                    }
                });
            }
        } catch (const std::system_error &) {
        }
    }
    std::size_t count() const { return threads_.size(); }
    // Before the race opens: runs ours here while whichever helper is free first runs theirs; a new
    // thread may start a millisecond late, so theirs runs here too if no helper has taken it by
    // then. Returns once both are done (theirs may use what the caller's frame holds), rethrowing
    // what either threw; if ours throws, theirs is dropped unless a helper is running it. Returns
    // false (and runs neither) without helpers.
    bool split(std::function<void()> theirs, const std::function<void()> &ours) {
        if (threads_.empty()) return false;
        {
            const std::lock_guard lock(mutex_);
            lent_ = std::move(theirs);
            lent_busy_ = true;
        }
        opened_cv_.notify_one();
        std::exception_ptr failed;
        try {
            ours();
        } catch (...) {
            failed = std::current_exception();
        }
        std::unique_lock lock(mutex_);
        if (lent_) {  // not taken
            const std::function<void()> task = std::exchange(lent_, nullptr);
            lent_busy_ = false;
            lock.unlock();
            if (failed) std::rethrow_exception(failed);
            task();
            return true;
        }
        lent_cv_.wait(lock, [this] { return !lent_busy_; });
        const std::exception_ptr theirs_failed = std::exchange(lent_error_, nullptr);
        if (!failed) failed = theirs_failed;
        if (failed) std::rethrow_exception(failed);
        return true;
    }
    // Lets the helpers run work (an empty one sends them home); only the first call counts.
    void open(std::function<void()> work) {
        {
            const std::lock_guard lock(mutex_);
            if (opened_) return;
            work_ = std::move(work);
            opened_ = true;
        }
        opened_cv_.notify_all();
    }
    // Waits for the helpers to finish (sends them home if the race never opened); rethrows own,
    // else the first error a helper hit.
    void join(std::exception_ptr own) {
        open({});
        for (auto &t : threads_)
            if (t.joinable()) t.join();
        if (own) std::rethrow_exception(own);
        for (auto &e : failed_)
            if (e) std::rethrow_exception(e);
    }

  private:
    std::deque<std::thread> threads_;
    std::deque<std::exception_ptr> failed_;  // one per thread asked for
    std::mutex mutex_;
    std::condition_variable opened_cv_;
    bool opened_ = false;
    std::function<void()> work_;
    std::function<void()> lent_;  // split()'s theirs, not taken yet
    bool lent_busy_ = false;      // theirs not finished
    std::exception_ptr lent_error_;
    std::condition_variable lent_cv_;
};

}  // namespace

bool nue_has_metis() {
    return metis_available();
}

HookResult route_nue(const Fabric &f, const RoutingOptions &o, RoutingTables &t, NuePartitioner partitioner,
                     NueStats *stats, const std::function<void(std::size_t, std::size_t)> &progress) {
    const SwitchGraph g(f);
    if (g.size() == 0) return HookResult::failure("not a switched subnet");
    const std::size_t n = g.size();
    const Channels ch(f, g);
    // Threads racing the candidate runs (at most four; see the race below); the kept routes do not
    // depend on their number. By default two where the hardware has them and the race is long
    // enough to repay a thread: on the 2-vCPU VM measured, a new thread took 0.25 ms to create and
    // started ~1 ms later, so races of 1.5-7 ms got slower. Where LIDs x channels >= 2^22 (the
    // 5832-host tree's ~10^8 went from 2.29 to 1.24 s wall with nue:8) the helper starts at once.
    // From 2^17 on it starts once a run leaves the floor, when the race first needs a second run
    // (below). Fat trees' races do not (their first run rules out the others; a helper from the
    // start made the 648-host tree's 3 ms race 5.5 ms); the dragonflies, tori and random graphs
    // measured do within a few steps (median of 5: random 64 switches 11.1 -> 8.3 ms, torus 6x6x6
    // 45.8 -> 31.8 ms, dragonfly a=6 22.8 -> 14.6 ms, a=8 nue:1 139 -> 108 ms).
    const std::size_t race_size = std::size_t{g.max_lid()} * ch.size();
    const bool long_race = race_size >= (std::size_t{1} << 22);
    const bool mid_race = race_size >= (std::size_t{1} << 17);
    // Asked only where a second thread may start: the library reads a sysfs file for it, which
    // cost 60-140 us of torus 4x4x4's 1.3 ms nue:1 step.
    const unsigned hardware =
        !o.nue_threads && mid_race ? std::clamp(std::thread::hardware_concurrency(), 1u, 2u) : 1;
    const std::size_t threads = std::min<std::size_t>(o.nue_threads ? o.nue_threads
                                                      : long_race   ? hardware
                                                                    : 1,
                                                      4);
    Helpers helpers(threads - 1);  // started now: their start-up overlaps the set-up below
    // Helpers to start once a run leaves the floor (under race_mutex).
    std::size_t late_helpers = !o.nue_threads && !long_race && mid_race ? hardware - 1 : 0;
    NueStats local;
    NueStats &st = stats ? *stats : local;
    st = NueStats{};
    std::vector<std::string> warnings;
    st.layers_allowed = layer_budget(o, warnings);

    // Destinations: every CA/router LID, and switch LIDs when switches count as endpoints.
    // Sources per switch weigh the routes for balancing: as OpenSM's num_terminals, the LIDs of
    // the switch itself and of the CAs behind it, whether or not switches count as endpoints.
    std::vector<std::uint64_t> sources(n, 0);
    std::uint64_t all_lids = 0;
    std::vector<Lid> dests, switch_lids;
    for (Lid l = 1; l <= g.max_lid(); ++l) {
        const LidTarget &tg = g.target(l);
        if (tg.sw == kNoSwitch) continue;
        ++all_lids;
        if (!tg.is_switch || o.nue_include_switches) ++sources[tg.sw];
        if (tg.is_switch && !o.nue_include_switches)
            switch_lids.push_back(l);
        else
            dests.push_back(l);
    }
    // Order: switches with the most endpoints first, GUID order among equals; CA LIDs before
    // switch LIDs.
    std::vector<std::uint32_t> rank(n);
    {
        std::vector<SwitchIdx> sws(n);
        std::iota(sws.begin(), sws.end(), 0);
        std::stable_sort(sws.begin(), sws.end(), [&](SwitchIdx a, SwitchIdx b) {
            if (g.end_ports(a) != g.end_ports(b)) return g.end_ports(a) > g.end_ports(b);
            return f.node(f.switch_node(a)).guid < f.node(f.switch_node(b)).guid;
        });
        for (std::uint32_t i = 0; i < n; ++i) rank[sws[i]] = i;
    }
    // Three destination orders. Per switch (its LIDs one after another, as sssp): on fat trees
    // each leaf's LIDs then spread over its uplinks in turn. Interleaved (every switch's first
    // LID, then every second, ...): consecutive trees toward one switch mostly reuse each other's
    // dependencies, and alternating spreads the weights and the refused turns, which suits tori
    // and random graphs. OpenSM's (its port table: GUIDs in network byte order, so by their low
    // bytes first), which scatters the destinations and suits the dragonfly. Nue routes them in
    // this sequence and keeps the first whose busiest channel carries the fewest routes. The first
    // two are routed with weft's search (a switch's channel is checked when the switch is settled),
    // OpenSM's order with OpenSM's search (checked when offered, see osm_cdg_dijkstra.hpp), which
    // balances better on some fabrics (random graphs, meshes, hypercubes with 8 VLs).
    std::vector<std::uint32_t> nth(std::size_t{g.max_lid()} + 1, 0), seen(n, 0);
    auto consecutive = [&](Lid a, Lid b) {
        const LidTarget &x = g.target(a), &y = g.target(b);
        if (x.is_switch != y.is_switch) return y.is_switch;
        if (x.sw != y.sw) return rank[x.sw] < rank[y.sw];
        return a < b;
    };
    std::stable_sort(dests.begin(), dests.end(), consecutive);
    std::stable_sort(switch_lids.begin(), switch_lids.end(), consecutive);
    for (Lid l : dests) nth[l] = seen[g.target(l).sw]++;
    std::vector<Lid> interleaved = dests;
    std::stable_sort(interleaved.begin(), interleaved.end(), [&](Lid a, Lid b) {
        if (nth[a] != nth[b]) return nth[a] < nth[b];
        return consecutive(a, b);
    });
    // OpenSM walks its port table, a map keyed by the GUID in network byte order, on x86:
    // ordered by the byte-swapped value (checked against its log's layer of every LID).
    auto port_table_key = [&](Lid l) {
        const LidTarget &x = g.target(l);
        return osm_table_key(f.port(x.node, x.node_port).guid);
    };
    std::vector<Lid> port_table = dests;
    std::stable_sort(port_table.begin(), port_table.end(), [&](Lid a, Lid b) {
        const bool sa = g.target(a).is_switch, sb = g.target(b).is_switch;
        if (sa != sb) return sb;  // CA LIDs first, as OpenSM routes them
        return port_table_key(a) < port_table_key(b);
    });

    // With METIS chosen by default and several layers, OpenSM's round-robin partition is a fourth
    // candidate whose plan needs no METIS, and it is the 8-layer winner on the bench tori,
    // dragonfly and random graph. With a second thread it starts routing while METIS partitions;
    // if METIS then fails (no fourth candidate, as with one thread) its routes are dropped.
    const bool early_round_robin = helpers.count() > 0 && partitioner == NuePartitioner::Auto &&
                                   metis_available() && st.layers_allowed > 1 && !dests.empty();
    LayerPartition part;
    auto partition = [&] {
        if (partitioner == NuePartitioner::PortGuidRoundRobin) {
            part = deal_round_robin(g, port_table, st.layers_allowed);
        } else {
            part = partition_layers(g, dests, st.layers_allowed, partitioner != NuePartitioner::SemiRandom,
                                    partitioner == NuePartitioner::Metis, o.seed);
        }
        st.metis_used = part.metis;
        st.partition_note = part.note;
        st.layers_used = part.used;
    };
    if (!early_round_robin) {
        partition();
        if (part.used == 0) return HookResult::failure("nue: " + part.note);
    }

    const std::uint64_t p2 = std::max<std::uint64_t>(all_lids, 1) * std::max<std::uint64_t>(all_lids, 1);
    const std::size_t lids = std::size_t{g.max_lid()} + 1;
    std::size_t done = 0;
    const std::size_t total = 5 * dests.size() + switch_lids.size();  // at most 2 + 1 + 1 + 1 runs
    // What a layer starts from does not depend on the destination order: its central node and
    // escape tree. Built once, when a run first enters the layer (runs dropped early never need
    // the later layers). Each run marks the escape paths in its own complete CDG: rebuilding
    // costs less than keeping every layer's marked CDG alive and copying it (fresh pages fault).
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
    auto make_plan = [&](LayerPartition p) {
        auto plan = std::make_unique<Plan>();
        plan->part = std::move(p);
        plan->stats = st;
        plan->stats.metis_used = plan->part.metis;
        plan->stats.partition_note = plan->part.note;
        plan->stats.layers_used = plan->part.used;
        const LayerPartition &pt = plan->part;
        plan->starts.resize(pt.used);
        plan->members.resize(pt.used);
        plan->terminals.assign(pt.used, std::vector<std::uint32_t>(n, 0));
        for (Lid l : dests) {
            plan->members[pt.layer[l]].push_back(g.target(l).sw);
            if (!g.target(l).is_switch) ++plan->terminals[pt.layer[l]][g.target(l).sw];
        }
        for (auto &m : plan->members) {
            std::sort(m.begin(), m.end());
            m.erase(std::unique(m.begin(), m.end()), m.end());
        }
        return plan;
    };
    ShortestPaths paths(g);  // shared by every layer's central node and the even-spread floor
    std::mutex start_mutex;  // a layer start is built by the first run to enter it; paths is shared
    auto layer_start = [&](Plan &plan, unsigned layer) -> const LayerStart & {
        const std::lock_guard lock(start_mutex);
        auto &start = plan.starts[layer];
        if (!start) {
            const SwitchIdx root = central_node(g, plan.members[layer], paths);
            start.emplace(LayerStart{root, EscapeTree(g, ch, root)});
        }
        return *start;
    };
    std::vector<std::unique_ptr<Plan>> plans;
    // Writes the last search's routes toward lid into out: the ports, and the hops unless out
    // has none (see below).
    auto store = [&](const auto &search, RoutingTables &out, Lid lid) {
        const LidTarget &tg = g.target(lid);
        const std::uint8_t extra = tg.is_switch ? 0 : 1;
        const auto &next = search.next();
        const auto &hops = search.hops();
        const bool with_hops = !out.hops.empty();
        for (SwitchIdx s : search.settled()) {
            out.lft[s][lid] = s == tg.sw ? tg.port : ch.port(next[s]);
            if (with_hops)
                out.hops[s][lid] =
                    static_cast<std::uint8_t>(std::min<unsigned>(hops[s] + extra, kInfHops - 1u));
        }
    };
    // Runs after the first keep only their ports (the kept one's hops then come from its LFTs,
    // hops_from_lfts), so they fault in half the table memory. The first keeps its hops: on fat
    // trees it is the only run that starts (it finishes at the floor), and the pass over the LFTs
    // would cost more than the pages it saves (ft36:hosts=648: 2M instructions, no page).
    // One destination order being routed (CA LIDs, and switch LIDs that count as endpoints),
    // layer by layer, one destination per step. Not movable: the search holds its weights.
    struct OrderRun {
        NueOrder which;
        bool osm;              // OpenSM's search instead of weft's
        bool osm_escape;       // and OpenSM's central nodes and escape paths instead of weft's
        Plan *plan;            // the partition it routes with (its layer starts are built on demand)
        std::vector<Lid> seq;  // the order's destinations grouped by layer, layer 0 first
        std::size_t next = 0;
        unsigned layer = 0;
        std::uint64_t busiest = 0;  // most routes on one channel so far: only grows
        RoutingTables out;
        NueStats stats;
        std::vector<std::uint64_t> in_weight;  // balancing weights, see RouteTree
        std::optional<CdgDijkstra> search;
        std::optional<OsmCdgDijkstra> osm_search;
        std::optional<CompleteCdg> cdg;    // of its current layer, reset on entering the next
        std::optional<EscapeTree> escape;  // with OpenSM's escape paths: its own tree (on its weights)
        bool first;                        // in slot 0: keeps its hops (see above)
        OrderRun(NueOrder w, bool o, bool oe, Plan &pl, bool fst)
            : which(w), osm(o), osm_escape(oe), plan(&pl), stats(pl.stats), first(fst) {}
        // Its tables, weights and search, built when it routes its first destination: a run that
        // a finished one rules out before it starts costs nothing.
        bool started() const { return search || osm_search; }
        void start(const Fabric &f, const Channels &c, std::uint64_t base,
                   const std::vector<SwitchIdx> &node_order) {
            if (first) {
                out.reset(f);
            } else {
                out.lft.resize(f.switch_count());
                for (auto &row : out.lft) row = std::vector<PortNum>(std::size_t{f.max_lid()} + 1, kNoPort);
            }
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
    // OpenSM keeps its switches sorted by LID in network byte order; its backtracking walks them so.
    std::vector<SwitchIdx> osm_node_order(n);
    std::iota(osm_node_order.begin(), osm_node_order.end(), 0);
    auto net_order_lid = [&](SwitchIdx s) {
        const Lid l = f.port(f.switch_node(s), 0).lid;
        return static_cast<std::uint16_t>((l >> 8) | ((l & 0xFF) << 8));
    };
    std::stable_sort(osm_node_order.begin(), osm_node_order.end(),
                     [&](SwitchIdx a, SwitchIdx b) { return net_order_lid(a) < net_order_lid(b); });
    // All layers at once: their searches are shared, and the OpenSM run mostly enters most layers.
    auto osm_root = [&](Plan &plan, unsigned layer) {
        const std::lock_guard lock(start_mutex);
        if (plan.osm_roots.empty())
            plan.osm_roots = osm_central_nodes(ch, osm_node_order, plan.members, plan.terminals, paths);
        return plan.osm_roots[layer];
    };
    const std::pair<const std::vector<Lid> *, NueOrder> orders[] = {{&dests, NueOrder::PerSwitch},
                                                                    {&interleaved, NueOrder::Interleaved},
                                                                    {&port_table, NueOrder::PortTable}};
    // The candidates' slots, in the order that decides ties (see add_candidates); empty once a
    // run is dropped, or while it is not (yet) a candidate.
    std::vector<std::unique_ptr<OrderRun>> runs(5);
    // Fills runs from slot on; returns the next slot.
    auto add_runs = [&](std::size_t slot, bool osm, bool osm_escape, Plan &plan,
                        std::initializer_list<NueOrder> which_orders) {
        for (const auto &[order, which] : orders) {
            if (std::find(which_orders.begin(), which_orders.end(), which) == which_orders.end()) continue;
            auto &r = *(runs[slot] = std::make_unique<OrderRun>(which, osm, osm_escape, plan, slot == 0));
            ++slot;
            for (unsigned layer = 0; layer < plan.part.used; ++layer)
                for (Lid l : *order)
                    if (plan.part.layer[l] == layer) r.seq.push_back(l);
        }
        return slot;
    };
    // Routes r's next destination; returns the busiest channel of r's routes so far. Touches only
    // r and the layer starts, so two runs can step at once.
    auto step = [&](OrderRun &r, CdgScratch &scratch) {
        const Lid lid = r.seq[r.next];
        if (!r.started()) r.start(f, ch, p2, osm_node_order);  // P^2 + load
        if (r.cdg) r.cdg->use_scratch(scratch);                // the stepping thread's
        if (!r.cdg || r.plan->part.layer[lid] != r.layer) {
            r.layer = r.plan->part.layer[lid];
            const std::vector<SwitchIdx> &members = r.plan->members[r.layer];
            // The run's CDG is reset in place: its storage is reused from layer to layer.
            auto fresh_cdg = [&](const EscapeTree &escape) {
                if (r.cdg) {
                    r.cdg->reset(escape.levels());
                } else {
                    r.cdg.emplace(ch, escape.levels());
                    r.cdg->use_scratch(scratch);
                }
            };
            if (r.osm_escape) {
                // As OpenSM: its central node, and a tree grown on this run's weights so far.
                const SwitchIdx root = osm_root(*r.plan, r.layer);
                r.stats.central_nodes.push_back(root);
                r.escape.emplace(EscapeTree::osm(ch, root, osm_node_order, r.in_weight));
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
        const SwitchIdx d = g.target(lid).sw;
        // Built before r entered the layer.
        const EscapeTree *escape = r.osm_escape ? &*r.escape : &r.plan->starts[r.layer]->escape;
        const bool own =
            r.osm ? r.osm_search->route(d, &*r.cdg, escape) : r.search->route(d, &*r.cdg, escape);
        if (!own) ++r.stats.escape_routed;
        const std::uint64_t heaviest = r.osm ? r.osm_search->add_load(sources) : r.search->add_load(sources);
        if (r.osm)
            store(*r.osm_search, r.out, lid);
        else
            store(*r.search, r.out, lid);
        ++r.next;
        return heaviest >= p2 ? std::max(r.busiest, heaviest - p2) : r.busiest;
    };
    // The candidates, in the order that decides ties: weft's search per switch and interleaved,
    // OpenSM's search with its port-table order (slots 0-2, on the partition part; slot 2 on
    // weft's central nodes and escape trees), and with METIS chosen by default (Auto) and
    // several layers OpenSM's own partition (Debian's OpenSM has no METIS: CA LIDs dealt
    // round-robin in port-table order) with weft's search, interleaved (slot 3). Slot 4 is
    // OpenSM itself: its partition, order, search, central nodes and escape trees (on
    // dragonfly:a=4,p=2,h=2 with 8 VLs the same CA routes as Debian's OpenSM 3.3.23), so the
    // kept routes never balance worse than OpenSM's. Left out, for 10-25% of the race's steps on the torus,
    // dragonfly and random graph: weft's search with the port-table order (kept only on the dragonfly with 1
    // VL: 222 routes on the busiest channel, 236 with OpenSM's search, OpenSM 254) and OpenSM's partition per
    // switch or in port-table order (never a busiest channel lower than the kept run's on the bench fabrics
    // with 1, 2 and 8 VLs).
    auto add_partition_runs = [&] {
        plans.push_back(make_plan(std::move(part)));
        const std::size_t slot =
            add_runs(0, false, false, *plans.back(), {NueOrder::PerSwitch, NueOrder::Interleaved});
        add_runs(slot, true, false, *plans.back(), {NueOrder::PortTable});  // OpenSM's search: its own order
    };
    // OpenSM's partition: a plan of its own with several layers by default; the partition part
    // with one layer or a partitioner asked for (OpenSM built with METIS would partition with it).
    Plan *round_robin = nullptr;
    const bool own_round_robin = st.layers_allowed > 1 && partitioner == NuePartitioner::Auto;
    auto round_robin_plan = [&]() -> Plan & {
        if (!round_robin) {
            plans.push_back(make_plan(deal_round_robin(g, port_table, st.layers_allowed)));
            round_robin = plans.back().get();
            round_robin->stats.partition_note = "OpenSM's round-robin partition balanced better";
        }
        return *round_robin;
    };
    auto add_round_robin_run = [&] {
        add_runs(3, false, false, round_robin_plan(), {NueOrder::Interleaved});
    };
    auto add_opensm_run = [&](Plan &plan) { add_runs(4, true, true, plan, {NueOrder::PortTable}); };
    {
        // The floor searches out of every destination switch, and the central nodes use those
        // searches again: a helper waiting for the race takes every other switch (each search
        // writes only its own source's arrays). random 512 switches: 9-16 ms on one thread.
        std::vector<SwitchIdx> dest_switches;
        std::vector<std::uint8_t> is_dest(n, 0);
        for (const Lid l : dests) {
            const SwitchIdx sw = g.target(l).sw;
            if (!is_dest[sw]) is_dest[sw] = 1, dest_switches.push_back(sw);
        }
        auto search_every_other = [&](std::size_t first) {
            for (std::size_t i = first; i < dest_switches.size(); i += 2) paths.from(dest_switches[i]);
        };
        helpers.split([&] { search_every_other(1); }, [&] { search_every_other(0); });
    }
    // Nue keeps the run whose busiest channel carries the fewest routes, the earliest of equals.
    // A lower bound on a run's final busiest channel: loads only grow, so its busiest so far, and
    // no routes can load their busiest channel less than the minimal routes' total load spread
    // evenly over the channels. All candidates race at once: always routing on with the run of
    // the lowest bound (the earliest of equals), and dropping a run once a finished one beats its
    // bound, keeps the same run and routes each loser only as far as needed to rule it out. With
    // the floor in the bound, the earliest run stays ahead while it is at the floor, so a run
    // that finishes there rules out every later one before it routes a destination.
    const std::uint64_t floor = even_spread(g, ch, paths, dests, sources);
    // With several threads each takes the lowest-bound run that no other thread is routing. The
    // kept run is still the one with the fewest routes on its busiest channel, the earliest of
    // equals: a run is dropped only when a finished one provably beats it, whatever the timing
    // (or when it turns out not to be a candidate), and a run's routes depend on its own steps
    // only. Run state (slots, busiest, next) is read and changed under race_mutex, except by the
    // thread stepping the run.
    constexpr std::size_t kNone = ~std::size_t{0};
    std::size_t kept = kNone;
    std::mutex race_mutex;
    std::condition_variable more;  // the last candidates were added, or a held-back run is free
    bool complete = false;         // every candidate is in its slot
    std::vector<char> busy(runs.size(), 0), cancelled(runs.size(), 0);
    auto bound = [&](std::size_t i) { return std::max(runs[i]->busiest, floor); };
    auto beaten = [&](std::size_t i) {
        return kept != kNone &&
               (bound(i) > runs[kept]->busiest || (bound(i) == runs[kept]->busiest && i > kept));
    };
    // With helpers a thread stays with its run while that run's bound is within an eighth of the
    // lowest (its tables stay in its cache, and the run that wins is not left waiting while both
    // threads route runs whose bounds lie just below it: ft36:hosts=5832 nue:1, where the winner
    // is 3% above the floor and two losers stay at it for 450 steps, 549 -> 443 ms).
    bool sticky = helpers.count() > 0;
    // A run at the floor is held back while an earlier one that has reached the floor exactly is
    // being routed: if that one finishes there, it rules the later one out (on fat trees the first
    // run does, and a helper routing the others only slowed the race: ft36:hosts=648 nue:8 10.0 ->
    // 15.4 ms). A run still below the floor mostly jumps over it on the other fabrics measured;
    // holding back behind one idled the helper or sent it to runs with higher bounds, routed further
    // than needed (dragonfly a=8 nue:1 65 -> 54 ms, random 512 nue:1 188 -> 155 ms).
    auto held_back = [&](std::size_t i) {
        if (bound(i) != floor) return false;
        for (std::size_t j = 0; j < i; ++j)
            if (runs[j] && busy[j] && runs[j]->busiest == floor) return true;
        return false;
    };
    std::size_t waiting = 0;           // threads waiting on more for a step or the last candidates
    std::deque<CdgScratch> scratches;  // one per thread racing (under race_mutex)
    auto race = [&] {
        std::unique_lock lock(race_mutex);
        CdgScratch &scratch = scratches.emplace_back();
        std::size_t last = kNone;
        for (;;) {
            std::size_t pick = kNone;
            bool held = false;
            for (std::size_t i = 0; i < runs.size(); ++i) {
                if (!runs[i] || busy[i] || runs[i]->done()) continue;
                if (beaten(i)) {
                    runs[i].reset();  // cannot beat the finished one any more
                    continue;
                }
                if (held_back(i)) {
                    held = true;
                    continue;
                }
                if (pick == kNone || bound(i) < bound(pick)) pick = i;
            }
            // last is still a candidate if it is free, not done and survived the loop unheld.
            if (sticky && pick != kNone && last != kNone && last != pick && runs[last] && !busy[last] &&
                !runs[last]->done() && !held_back(last) && bound(last) <= bound(pick) + bound(pick) / 8)
                pick = last;
            last = pick;
            if (pick == kNone) {
                if (complete && !held) return;  // what is left is being routed by other threads
                ++waiting;
                more.wait(lock);
                --waiting;
                continue;
            }
            OrderRun &r = *runs[pick];
            busy[pick] = 1;
            lock.unlock();
            const std::uint64_t busiest = step(r, scratch);
            lock.lock();
            busy[pick] = 0;
            ++done;
            if (progress && done % 256 == 0) progress(done, total);
            // Runs held back behind this one are free once it leaves the floor, finishes or is
            // dropped; waking the waiters after every step cost more than the helper saved.
            const bool frees = cancelled[pick] || r.done() || (r.busiest <= floor && busiest > floor);
            if (waiting && frees) more.notify_all();
            if (cancelled[pick]) {
                runs[pick].reset();
                continue;
            }
            r.busiest = busiest;
            if (late_helpers && busiest > floor) {
                helpers.add(late_helpers);  // only this thread races until now
                late_helpers = 0;
                sticky = true;
            }
            if (!r.done()) continue;
            // Finished: it beats every run finished before it, else it would have been dropped.
            // Compared anyway, in case both finished in the same instant on two threads.
            if (kept != kNone &&
                (runs[kept]->busiest < r.busiest || (runs[kept]->busiest == r.busiest && kept < pick)))
                runs[pick].reset();
            else {
                if (kept != kNone) runs[kept].reset();
                kept = pick;
            }
        }
    };
    // Stops every run (on an error) and waits for the helpers.
    auto finish = [&](bool stop, std::exception_ptr own) {
        if (stop) {
            const std::lock_guard lock(race_mutex);
            for (std::size_t i = 0; i < runs.size(); ++i) {
                cancelled[i] = 1;
                if (!busy[i]) runs[i].reset();
            }
            complete = true;
            more.notify_all();
        }
        helpers.join(own);
    };
    try {
        if (!early_round_robin) {
            add_partition_runs();
            if (partitioner == NuePartitioner::Auto && plans[0]->part.metis) add_round_robin_run();
            add_opensm_run(own_round_robin ? round_robin_plan() : *plans[0]);
            // The first run starts in the partition's first layer: with a helper waiting for the
            // race, that layer's central node is found on both threads before it opens, rather
            // than by the first thread while the second waits for it (random 512 switches: 9 ms).
            Plan &plan = *plans[0];
            if (plan.part.used > 0) {
                const std::vector<SwitchIdx> &members = plan.members[0];
                Centrality ours, theirs;
                if (helpers.split([&] { theirs = centrality_half(g, members, paths, 1); },
                                  [&] { ours = centrality_half(g, members, paths, 0); })) {
                    const SwitchIdx root = central_node(g, members, std::move(ours), theirs);
                    plan.starts[0].emplace(LayerStart{root, EscapeTree(g, ch, root)});
                }
            }
            complete = true;
            helpers.open(race);
        } else {
            add_round_robin_run();  // before the race opens, so no lock needed
            add_opensm_run(round_robin_plan());
            helpers.open(race);
            partition();           // METIS, while the helpers route OpenSM's partition
            if (part.used == 0) {  // not with Auto (it falls back to the semi-random split)
                finish(true, nullptr);
                return HookResult::failure("nue: " + part.note);
            }
            const bool metis = part.metis;
            {
                const std::lock_guard lock(race_mutex);
                add_partition_runs();
                if (!metis) {  // no fourth candidate, as with one thread
                    cancelled[3] = 1;
                    if (!busy[3]) runs[3].reset();
                    if (kept == 3) kept = kNone;
                }
                complete = true;
            }
            more.notify_all();
        }
    } catch (...) {
        finish(true, std::current_exception());
    }
    std::exception_ptr own;
    try {
        race();
    } catch (...) {
        own = std::current_exception();
    }
    finish(own != nullptr, own);
    if (kept == kNone) kept = 0;  // no destinations: every order is empty
    OrderRun &win = *runs[kept];
    if (!win.started()) win.start(f, ch, p2, osm_node_order);
    win.stats.destinations = win.seq.size();
    win.stats.rejected_dependencies = win.rejected();
    win.stats.order = win.which;
    t = std::move(win.out);
    st = std::move(win.stats);
    std::vector<std::uint64_t> kept_weight = std::move(win.in_weight);
    // The kept routes' path SLs and (unless the run kept them) hop counts toward its destinations,
    // from its LFTs. They read and write only the destinations' entries, so where the race had a
    // helper from the start a second thread computes them while this one routes the switch LIDs
    // (torus 8x8x8 nue:8: 193 -> 186 ms). Not after a late helper: on those mid-sized fabrics a
    // new thread cost about what it saved.
    const bool kept_hops = !t.hops.empty();
    if (!kept_hops) t.hops.assign(n, std::vector<std::uint8_t>(lids, kInfHops));
    const Plan &kept_plan = *win.plan;
    auto destination_tables = [&] {
        t.path_sl.assign(n, std::vector<std::uint8_t>(lids, 0));
        for (SwitchIdx s = 0; s < n; ++s)
            for (Lid lid : dests) t.path_sl[s][lid] = kept_plan.part.layer[lid];
        if (!kept_hops) hops_from_lfts(f, g, t, dests);
    };
    std::future<void> meanwhile;
    if (threads > 1 && helpers.count() > 0 && !switch_lids.empty()) {
        try {
            meanwhile = std::async(std::launch::async, destination_tables);
        } catch (const std::system_error &) {
        }
    }
    if (!meanwhile.valid()) destination_tables();
    // Switch LIDs outside the endpoint set: balanced on the kept order's weights, no dependency
    // constraint, SL 0. Each adds its load for the next (as OpenSM); routed once, for the kept
    // routes only.
    if (!switch_lids.empty()) {
        CdgDijkstra search(ch, kept_weight);
        for (Lid lid : switch_lids) {
            search.route(g.target(lid).sw, nullptr, nullptr);
            search.add_load(sources);
            store(search, t, lid);
            if (progress && (++done % 256 == 0)) progress(done, total);
        }
    }
    if (meanwhile.valid()) meanwhile.get();

    const unsigned used = win.plan->part.used;
    t.vls_used = used;
    t.warnings.insert(t.warnings.end(), warnings.begin(), warnings.end());
    if (used > 1) {
        // Layers stay apart only if every switch maps SL i to VL i (OpenSM's doc: VL = SL % VLs).
        const unsigned operational =
            std::clamp((o.qos && o.qos_max_vls) ? o.qos_max_vls : o.max_vls, 1u, 15u);
        Sl2Vl map{};
        for (unsigned sl = 0; sl < 16; ++sl) map[sl] = static_cast<std::uint8_t>(sl % operational);
        t.sl2vl_all = map;
    }
    return HookResult::success();
}

}  // namespace weft::routing
