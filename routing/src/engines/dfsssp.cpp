// OpenSM's dfsssp: sssp's balanced routes, then deadlock freedom by virtual layers. Every
// route from a CA (to a CA or a switch) starts in layer 0; while a layer's channel dependency graph (channels
// = switch-to-switch links, a dependency = two consecutive channels of one route) has a cycle, the routes
// behind the cycle's least-used dependency move up one layer. More layers than max_vls: fail. The layer is
// the path SL (SL n on VL n).
#include <algorithm>
#include <memory>
#include <span>

#include "engines/engines.hpp"
#include "engines/sssp_balancing.hpp"

namespace weft::routing::engines {
namespace {

struct Route {
    SwitchIdx src;
    Lid dst;
};

// The routes a layer holds: ids[0..n), or with no ids every route (layer 0, spared a list of all
// of them: a fresh page costs a fault).
struct RouteSet {
    const std::uint32_t *ids;
    std::size_t n;
    std::uint32_t at(std::size_t k) const { return ids != nullptr ? ids[k] : static_cast<std::uint32_t>(k); }
};

class LayerAssigner {
  public:
    LayerAssigner(const Fabric &f, const SwitchGraph &g, RoutingTables &t)
        : f_(f), g_(g), t_(t), idx_(f, g) {}

    // Returns the number of layers used, or 0 if more than max_layers would be needed.
    unsigned assign(unsigned max_layers) {
        index_channels();
        // OpenSM checks the routes from every CA LID to every LID, switches' own included (a
        // switch's port 0 has no channel out, so routes from switches add nothing). All CA LIDs
        // behind one switch share every dependency that can close a cycle (only the first
        // channel, out of the CA, differs, and nothing leads into it), so they move between
        // layers together: one route per (source switch, destination LID), counted once per CA
        // LID behind the switch when the least-used dependency of a cycle is chosen.
        std::vector<std::uint32_t> &ca_lids = ca_lids_;
        ca_lids.assign(g_.size(), 0);
        for (Lid l = 1; l <= g_.max_lid(); ++l)
            if (g_.target(l).sw != kNoSwitch && !g_.target(l).is_switch) ++ca_lids[g_.target(l).sw];
        // Sized up front (routes from each such switch to every LID not its own): a small
        // fabric's run is mostly set-up, and growing these vectors cost as much as the search.
        std::vector<std::uint32_t> lids_on(g_.size(), 0);
        std::size_t all_lids = 0;
        for (Lid l = 1; l <= g_.max_lid(); ++l)
            if (g_.target(l).sw != kNoSwitch) ++lids_on[g_.target(l).sw], ++all_lids;
        std::size_t routes_n = 0;
        for (SwitchIdx s = 0; s < g_.size(); ++s)
            if (ca_lids[s]) routes_n += all_lids - lids_on[s];
        std::vector<Route> &routes = routes_;
        routes.resize(routes_n);
        std::size_t next = 0;
        for (SwitchIdx s = 0; s < g_.size(); ++s) {
            if (!ca_lids[s]) continue;
            for (Lid l = 1; l <= g_.max_lid(); ++l) {
                const LidTarget &tg = g_.target(l);
                if (tg.sw != kNoSwitch && tg.sw != s) routes[next++] = {s, l};
            }
        }
        trace_paths(routes);
        std::vector<std::uint32_t> current, moved;
        RouteSet in{nullptr, routes.size()};
        t_.path_sl.assign(g_.size(), std::vector<std::uint8_t>(std::size_t{g_.max_lid()} + 1, 0));
        gone_.assign(routes.size(), 0);
        unsigned layer = 0;
        while (in.n != 0) {
            if (layer >= max_layers) return 0;
            break_cycles(in, moved);
            for (std::uint32_t r : moved)
                t_.path_sl[routes[r].src][routes[r].dst] = static_cast<std::uint8_t>(layer + 1);
            if (moved.empty()) return layer + 1;
            for (std::uint32_t r : moved) gone_[r] = 0;  // they start the next layer
            current.swap(moved);
            in = {current.data(), current.size()};
            ++layer;
        }
        return std::max(layer, 1u);
    }

  private:
    // Channel ids are SwitchGraph link positions (LinkIndex numbers them in that order): the
    // channels out of switch s are ch_begin_[s].., and head_[c] is the switch channel c enters.
    void index_channels() {
        const std::size_t n = g_.size();
        ch_begin_.assign(n + 1, 0);
        max_deg_ = 0;
        for (SwitchIdx s = 0; s < n; ++s) {
            const std::size_t deg = g_.links(s).size();
            ch_begin_[s + 1] = ch_begin_[s] + static_cast<std::uint32_t>(deg);
            max_deg_ = std::max(max_deg_, deg);
        }
        head_.resize(ch_begin_[n]);
        for (SwitchIdx s = 0; s < n; ++s)
            for (std::size_t k = 0; k < g_.links(s).size(); ++k)
                head_[ch_begin_[s] + k] = g_.links(s)[k].peer;
        edge_slot_.assign(std::size_t{ch_begin_[n]} * max_deg_, kNoEdge);
    }

    // Each route's channels, walked once along the LFTs (they do not change while layers are
    // assigned), appended to path_; a walk ends where the LID is delivered (port 0 or a CA
    // port) or unrouted.
    void trace_paths(const std::vector<Route> &routes) {
        path_off_.assign(routes.size() + 1, 0);
        // Written by index into a guessed capacity (most fabrics' routes are short), doubled
        // when a walk could outgrow it. Not zero-filled: only the pages written get touched.
        std::size_t cap = std::max<std::size_t>(routes.size() * 4, g_.size() + 1);
        path_ = std::make_unique_for_overwrite<std::uint32_t[]>(cap);
        std::size_t at = 0;
        for (std::size_t r = 0; r < routes.size(); ++r) {
            if (cap - at < g_.size() + 1) {
                auto more = std::make_unique_for_overwrite<std::uint32_t[]>(2 * cap);
                std::copy(path_.get(), path_.get() + at, more.get());
                path_ = std::move(more);
                cap *= 2;
            }
            std::uint32_t *out = path_.get();
            SwitchIdx s = routes[r].src;
            const Lid dst = routes[r].dst;
            for (std::size_t steps = 0; steps <= g_.size(); ++steps) {
                const PortNum p = t_.lft[s][dst];
                const std::int64_t e = (p == kNoPort || p == 0) ? -1 : idx_.at(s, p);
                if (e < 0) break;
                out[at++] = static_cast<std::uint32_t>(e);
                s = head_[e];
            }
            path_off_[r + 1] = static_cast<std::uint32_t>(at);
        }
        path_len_ = at;
    }

    // Dense slot of the dependency c1 -> c2 (c2 leaves the switch c1 enters).
    std::size_t dep_slot(std::uint32_t c1, std::uint32_t c2) const {
        return std::size_t{c1} * max_deg_ + (c2 - ch_begin_[head_[c1]]);
    }

    // Breaks every cycle among `in` (route ids); `moved` gets the routes moved to the next layer.
    // The working arrays are members, so later layers reuse their memory.
    void break_cycles(RouteSet in, std::vector<std::uint32_t> &moved) {
        // Dependencies as edges between channels, each with the routes that induce it (CSR).
        // Edge ids in order of first appearance; edge_slot_ maps a dependency to its id. Sized
        // for the most there can be (every dependency slot used, or every dependency of every
        // route distinct, whichever is fewer) and written by index; `keys` is the part this
        // layer filled. Memory a fresh process has not touched yet costs a page fault per 4 KiB
        // (~12 us in this VM), so nothing here is sized per route step but route_of.
        std::vector<std::uint64_t> &edge_key = edge_key_;
        std::vector<std::uint32_t> &edge_count = edge_count_, &edge_routes = edge_routes_;
        const std::size_t most = std::min(path_len_, edge_slot_.size());
        if (edge_key.size() < most)  // only the first layer grows them
            edge_key.resize(most), edge_count.resize(most), edge_routes.resize(most);
        std::uint32_t edges = 0;
        std::size_t nu = 0;  // (edge, route) uses
        for (std::size_t k = 0; k < in.n; ++k) {
            const std::uint32_t r = in.at(k);
            const std::uint32_t *path = path_.get() + path_off_[r];
            const std::size_t len = path_off_[r + 1] - path_off_[r];
            const std::uint32_t src = ca_lids_[routes_[r].src];
            for (std::size_t i = 0; i + 1 < len; ++i) {
                std::uint32_t &id = edge_slot_[dep_slot(path[i], path[i + 1])];
                if (id == kNoEdge) {
                    id = edges++;
                    edge_key[id] = (std::uint64_t{path[i]} << 32) | path[i + 1];
                    edge_count[id] = 0;
                    edge_routes[id] = 0;
                }
                edge_count[id] += src;
                ++edge_routes[id];
            }
            nu += len != 0 ? len - 1 : 0;
        }
        const std::span<const std::uint64_t> keys(edge_key.data(), edges);
        const std::size_t channels_n = idx_.links();
        std::vector<std::uint32_t> &out_off = out_off_, &out_edges = out_edges_, &fill = fill_;
        out_off.assign(channels_n + 1, 0);
        out_edges.resize(keys.size());
        for (std::uint64_t k : keys) ++out_off[(k >> 32) + 1];
        for (std::size_t c = 0; c < channels_n; ++c) out_off[c + 1] += out_off[c];
        fill.assign(out_off.begin(), out_off.end() - 1);
        for (std::uint32_t e = 0; e < keys.size(); ++e) out_edges[fill[edge_key[e] >> 32]++] = e;
        // Each edge's routes in the order they were met: a second walk of the paths.
        std::vector<std::uint32_t> &route_off = route_off_, &route_of = route_of_;
        route_off.resize(keys.size() + 1);
        route_off[0] = 0;
        for (std::size_t e = 0; e < keys.size(); ++e) route_off[e + 1] = route_off[e] + edge_routes[e];
        route_of.resize(nu);
        fill.assign(route_off.begin(), route_off.end() - 1);
        for (std::size_t k = 0; k < in.n; ++k) {
            const std::uint32_t r = in.at(k);
            const std::uint32_t *path = path_.get() + path_off_[r];
            const std::size_t len = path_off_[r + 1] - path_off_[r];
            for (std::size_t i = 0; i + 1 < len; ++i)
                route_of[fill[edge_slot_[dep_slot(path[i], path[i + 1])]]++] = r;
        }
        std::vector<std::uint8_t> &gone = gone_;  // moved out of this layer (all clear on entry)
        moved.clear();

        // Iterative DFS; finished channels stay finished (removing edges cannot add cycles).
        enum : std::uint8_t { kWhite, kGrey, kBlack };
        std::vector<std::uint8_t> &color = color_;
        color.assign(channels_n, kWhite);
        std::vector<std::pair<std::uint32_t, std::uint32_t>> &stack = stack_;  // (channel, next edge slot)
        std::vector<std::uint32_t> &via = via_;                                // edge taken into stack[i+1]
        for (std::uint32_t start = 0; start < channels_n; ++start) {
            if (color[start] != kWhite) continue;
            stack.assign(1, {start, out_off[start]});
            via.clear();
            color[start] = kGrey;
            while (!stack.empty()) {
                auto &[u, slot] = stack.back();
                if (slot == out_off[u + 1]) {
                    color[u] = kBlack;
                    stack.pop_back();
                    if (!via.empty()) via.pop_back();
                    continue;
                }
                const std::uint32_t e = out_edges[slot++];
                if (edge_count[e] == 0) continue;
                const std::uint32_t v = static_cast<std::uint32_t>(edge_key[e]);
                if (color[v] == kBlack) continue;
                if (color[v] == kWhite) {
                    color[v] = kGrey;
                    via.push_back(e);
                    stack.emplace_back(v, out_off[v]);
                    continue;
                }
                // A cycle: from v's place on the stack around to u, closed by e.
                std::size_t at = stack.size() - 1;
                while (stack[at].first != v) --at;
                std::uint32_t weakest = e;
                for (std::size_t i = at; i < via.size(); ++i)
                    if (edge_count[via[i]] < edge_count[weakest]) weakest = via[i];
                for (std::uint32_t i = route_off[weakest]; i < route_off[weakest + 1]; ++i) {
                    const std::uint32_t r = route_of[i];
                    if (gone[r]) continue;
                    gone[r] = 1;
                    moved.push_back(r);
                    const std::uint32_t *path = path_.get() + path_off_[r];
                    const std::size_t len = path_off_[r + 1] - path_off_[r];
                    for (std::size_t k = 0; k + 1 < len; ++k)
                        edge_count[edge_slot_[dep_slot(path[k], path[k + 1])]] -= ca_lids_[routes_[r].src];
                }
                // Go on as a search restarted from `start` would (OpenSM's order). Every edge
                // before a stack entry's slot, other than the one taken to the next entry, is
                // empty or leads to a finished channel, and stays so; so a restart walks the
                // same stack down to the first edge the move emptied, skips it and goes on with
                // that entry's next edge. One of the cycle's edges (the weakest) is empty now,
                // so the stack is cut at the latest there; the channels above turn white.
                std::size_t keep = 0;
                while (keep < via.size() && edge_count[via[keep]] != 0) ++keep;
                for (std::size_t i = keep + 1; i < stack.size(); ++i) color[stack[i].first] = kWhite;
                stack.resize(keep + 1);
                via.resize(keep);
            }
        }
        for (std::uint64_t k : keys)
            edge_slot_[dep_slot(static_cast<std::uint32_t>(k >> 32), static_cast<std::uint32_t>(k))] =
                kNoEdge;
    }

    const Fabric &f_;
    const SwitchGraph &g_;
    RoutingTables &t_;
    LinkIndex idx_;
    static constexpr std::uint32_t kNoEdge = 0xFFFFFFFFu;
    std::vector<std::uint32_t> ch_begin_, head_;
    std::size_t max_deg_ = 0;
    std::vector<std::uint32_t> edge_slot_;   // dep_slot -> edge id of the current layer
    std::vector<std::uint32_t> path_off_;    // route -> its channels in path_
    std::unique_ptr<std::uint32_t[]> path_;  // every route's channels, path_len_ of them
    std::size_t path_len_ = 0;
    std::vector<Route> routes_;           // one per (source switch with CAs, destination LID)
    std::vector<std::uint32_t> ca_lids_;  // per switch, the CA LIDs a route from it stands for
    std::vector<std::uint8_t> gone_;      // route -> moved out of the current layer
    // break_cycles' working arrays (see there).
    std::vector<std::uint64_t> edge_key_;
    std::vector<std::uint32_t> edge_count_, edge_routes_, out_off_, out_edges_, fill_, route_off_, route_of_,
        via_;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> stack_;
    std::vector<std::uint8_t> color_;
};

class Dfsssp final : public SsspEngine {
  public:
    std::string_view name() const override { return "dfsssp"; }
    HookResult assign_sl(RoutingContext &ctx, RoutingTables &t) override {
        const SwitchGraph g(ctx.fabric);
        const unsigned budget = std::max(1u, std::min(ctx.options.max_vls, 15u));
        const unsigned used = LayerAssigner(ctx.fabric, g, t).assign(budget);
        if (used == 0) {
            t.path_sl.clear();
            return HookResult::failure("breaking all credit loops needs more than " + std::to_string(budget) +
                                       " virtual layers (max_vls)");
        }
        t.vls_used = used;
        return HookResult::success();
    }
};

}  // namespace

std::unique_ptr<Engine> make_dfsssp() {
    return std::make_unique<Dfsssp>();
}

}  // namespace weft::routing::engines
