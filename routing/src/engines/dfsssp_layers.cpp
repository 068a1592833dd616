// dfsssp's layer assignment. OpenSM checks the routes from every CA LID to every LID, switches'
// own included (a switch's port 0 has no channel out, so routes from switches add nothing). All
// CA LIDs behind one switch share every dependency that can close a cycle (only the first channel,
// out of the CA, differs, and nothing leads into it), so they move between layers together: one
// route per (source switch, destination LID), counted once per CA LID behind the switch when the
// least-used dependency of a cycle is chosen. Channels are switch-to-switch links; a dependency is
// two consecutive channels of one route.
#include "engines/dfsssp_layers.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <memory>
#include <span>
#include <vector>

namespace weft::routing::engines {
namespace {

constexpr std::uint8_t kNoLink = 0xFF;
constexpr std::uint32_t kNoEdge = 0xFFFFFFFFu;

// The routes a layer holds: ids[0..n), or with no ids every route (layer 0, spared a list of
// all of them).
struct RouteSet {
    const std::uint32_t *ids;
    std::size_t n;
};

class LayerAssigner {
  public:
    LayerAssigner(const SwitchGraph &g, RoutingTables &t) : g_(g), t_(t) {}

    unsigned assign(unsigned max_layers) {
        if (!index_channels()) return 0;
        // Route ids name (source switch, destination LID) by position: the source's slot among
        // the switches with CAs, shifted, or'd with the LID. No table of routes; ascending ids
        // are OpenSM's order (by source switch, then LID). Holes (a LID on the source itself, or
        // no LID) are never routes.
        std::vector<std::uint32_t> ca_lids(g_.size(), 0);
        for (Lid l = 1; l <= g_.max_lid(); ++l) {
            const LidTarget &tg = g_.target(l);
            if (tg.sw == kNoSwitch) continue;
            lids_.push_back(l);
            lid_sw_.push_back(tg.sw);
            if (!tg.is_switch) ++ca_lids[tg.sw];
        }
        for (SwitchIdx s = 0; s < g_.size(); ++s)
            if (ca_lids[s]) slot_sw_.push_back(s), slot_w_.push_back(ca_lids[s]);
        shift_ = static_cast<unsigned>(std::bit_width(std::max<Lid>(g_.max_lid(), 1)));
        mask_ = (std::uint32_t{1} << shift_) - 1;
        const std::uint64_t space = std::uint64_t{slot_sw_.size()} << shift_;
        if (space > std::numeric_limits<std::uint32_t>::max()) return overflow();
        index_lfts();

        std::vector<std::uint32_t> current, moved;
        RouteSet in{nullptr, 0};
        t_.path_sl.assign(g_.size(), std::vector<std::uint8_t>(std::size_t{g_.max_lid()} + 1, 0));
        gone_.assign((space + 63) / 64, 0);
        unsigned layer = 0;
        for (;;) {
            if (layer >= max_layers) return 0;
            break_cycles(in, moved);
            for (std::uint32_t r : moved)
                t_.path_sl[slot_sw_[r >> shift_]][r & mask_] = static_cast<std::uint8_t>(layer + 1);
            if (moved.empty()) return layer + 1;
            for (std::uint32_t r : moved) gone_[r / 64] &= ~(std::uint64_t{1} << (r % 64));  // next layer's
            current.swap(moved);
            in = {current.data(), current.size()};
            ++layer;
        }
    }
    // Whether assign gave up because 32-bit ids cannot name every route or dependency.
    bool overflowed() const { return overflowed_; }

  private:
    unsigned overflow() {
        overflowed_ = true;
        return 0;
    }

    // Channel ids are SwitchGraph link positions: the channels out of switch s are ch_begin_[s]..,
    // and head_[c] is the switch channel c enters.
    bool index_channels() {
        const std::size_t n = g_.size();
        ch_begin_.assign(n + 1, 0);
        max_deg_ = 0;
        for (SwitchIdx s = 0; s < n; ++s) {
            const std::size_t deg = g_.links(s).size();
            ch_begin_[s + 1] = ch_begin_[s] + static_cast<std::uint32_t>(deg);
            max_deg_ = std::max(max_deg_, deg);
        }
        if (std::uint64_t{ch_begin_[n]} * max_deg_ >= kNoEdge) return overflow(), false;
        head_.resize(ch_begin_[n]);
        for (SwitchIdx s = 0; s < n; ++s)
            for (std::size_t k = 0; k < g_.links(s).size(); ++k)
                head_[ch_begin_[s] + k] = g_.links(s)[k].peer;
        edge_slot_.assign(std::size_t{ch_begin_[n]} * max_deg_, kNoEdge);
        return true;
    }

    // The LFTs as link positions, by LID then switch (toward_[lid * n + s]: the position among s's
    // links of the one s forwards lid on; kNoLink where lid is delivered at s or unrouted), so a
    // walk toward one LID reads one byte per hop. Every LFT entry is kNoPort or a port of its
    // switch (the LFTs are this engine's own).
    void index_lfts() {
        const std::size_t n = g_.size(), lids = std::size_t{g_.max_lid()} + 1;
        toward_ = std::make_unique_for_overwrite<std::uint8_t[]>(lids * n);
        std::array<std::uint8_t, 256> link_on;  // by port (kNoPort = 255 is never a link's)
        link_on.fill(kNoLink);
        for (SwitchIdx s = 0; s < n; ++s) {
            const auto links = g_.links(s);
            for (std::size_t k = 0; k < links.size(); ++k)
                link_on[links[k].port] = static_cast<std::uint8_t>(k);
            const PortNum *const row = t_.lft[s].data();
            std::uint8_t *const out = toward_.get() + s;
            for (std::size_t l = 0; l < lids; ++l) out[l * n] = link_on[row[l]];
            for (const SwitchLink &l : links) link_on[l.port] = kNoLink;
        }
    }

    // Dense slot of the dependency c1 -> c2 (c2 leaves the switch c1 enters).
    std::uint32_t dep_slot(std::uint32_t c1, std::uint32_t c2) const {
        return c1 * static_cast<std::uint32_t>(max_deg_) + (c2 - ch_begin_[head_[c1]]);
    }

    // Calls f(route id) for every route of `in`, in its order.
    template <class F>
    void for_each_route(RouteSet in, F &&f) const {
        if (in.ids != nullptr) {
            for (std::size_t k = 0; k < in.n; ++k) f(in.ids[k]);
            return;
        }
        for (std::uint32_t slot = 0; slot < slot_sw_.size(); ++slot) {
            const SwitchIdx s = slot_sw_[slot];
            const std::uint32_t base = slot << shift_;
            for (std::size_t i = 0; i < lids_.size(); ++i)
                if (lid_sw_[i] != s) f(base | lids_[i]);
        }
    }

    // Calls f(dependency slot) for each dependency of route r, in path order: the route follows
    // the LFTs from its source until its LID is delivered or unrouted (at most n + 1 channels).
    template <class F>
    void for_each_dep(std::uint32_t r, F &&f) const {
        // Locals: f's 32-bit stores could alias the members, which would then be reloaded.
        const std::size_t n = g_.size();
        const std::uint8_t *const toward = toward_.get() + std::size_t{r & mask_} * n;
        const std::uint32_t *const begin = ch_begin_.data(), *const head = head_.data();
        const auto deg = static_cast<std::uint32_t>(max_deg_);
        SwitchIdx s = slot_sw_[r >> shift_];
        std::uint8_t k = toward[s];
        if (k == kNoLink) return;
        std::uint32_t c = begin[s] + k;
        for (std::size_t steps = 0; steps < n; ++steps) {
            s = head[c];
            if ((k = toward[s]) == kNoLink) return;
            f(c * deg + k);
            c = begin[s] + k;
        }
    }

    bool gone(std::uint32_t r) const { return (gone_[r / 64] >> (r % 64)) & 1; }

    // Breaks every cycle among `in`; `moved` gets the routes moved to the next layer. The working
    // arrays are members, so later layers reuse their memory.
    void break_cycles(RouteSet in, std::vector<std::uint32_t> &moved) {
        // Dependencies as edges between channels, each with the routes that induce it (CSR).
        // Edge ids in order of first appearance; edge_slot_ maps a dependency to its id. Sized
        // for the most there can be and not zero-filled: only the part this layer writes (edges)
        // is touched.
        if (!edge_key_) {  // the first layer, which holds every route
            const std::size_t most = edge_slot_.size();
            edge_key_ = std::make_unique_for_overwrite<std::uint64_t[]>(most);
            edge_count_ = std::make_unique_for_overwrite<std::uint32_t[]>(most);
            edge_routes_ = std::make_unique_for_overwrite<std::uint32_t[]>(most);
        }
        std::uint64_t *const edge_key = edge_key_.get();
        std::uint32_t *const edge_count = edge_count_.get(), *const edge_routes = edge_routes_.get();
        std::uint32_t edges = 0;
        std::size_t nu = 0;  // (edge, route) uses
        const std::uint32_t deg = static_cast<std::uint32_t>(max_deg_);
        for_each_route(in, [&](std::uint32_t r) {
            const std::uint32_t w = slot_w_[r >> shift_];
            for_each_dep(r, [&](std::uint32_t d) {
                std::uint32_t &id = edge_slot_[d];
                if (id == kNoEdge) {
                    id = edges++;
                    const std::uint32_t c1 = d / deg;
                    edge_key[id] = (std::uint64_t{c1} << 32) | (ch_begin_[head_[c1]] + d % deg);
                    edge_count[id] = 0;
                    edge_routes[id] = 0;
                }
                edge_count[id] += w;
                ++edge_routes[id];
                ++nu;
            });
        });
        const std::span<const std::uint64_t> keys(edge_key, edges);
        const std::size_t channels_n = head_.size();
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
        for_each_route(in, [&](std::uint32_t r) {
            for_each_dep(r, [&](std::uint32_t d) { route_of[fill[edge_slot_[d]]++] = r; });
        });
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
                    if (gone(r)) continue;
                    gone_[r / 64] |= std::uint64_t{1} << (r % 64);
                    moved.push_back(r);
                    const std::uint32_t w = slot_w_[r >> shift_];
                    for_each_dep(r, [&](std::uint32_t d) { edge_count[edge_slot_[d]] -= w; });
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

    const SwitchGraph &g_;
    RoutingTables &t_;
    bool overflowed_ = false;
    std::vector<std::uint32_t> ch_begin_, head_;
    std::size_t max_deg_ = 0;
    std::unique_ptr<std::uint8_t[]> toward_;  // see index_lfts
    std::vector<std::uint32_t> edge_slot_;    // dep_slot -> edge id of the current layer
    // The routes: per slot (switch with CAs) its switch and CA LIDs; every LID and its switch.
    std::vector<SwitchIdx> slot_sw_;
    std::vector<std::uint32_t> slot_w_;
    std::vector<Lid> lids_;
    std::vector<SwitchIdx> lid_sw_;
    unsigned shift_ = 0;
    std::uint32_t mask_ = 0;
    std::vector<std::uint64_t> gone_;  // route id bits: moved out of the current layer
    // break_cycles' working arrays (see there).
    std::unique_ptr<std::uint64_t[]> edge_key_;
    std::unique_ptr<std::uint32_t[]> edge_count_, edge_routes_;
    std::vector<std::uint32_t> out_off_, out_edges_, fill_, route_off_, route_of_, via_;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> stack_;
    std::vector<std::uint8_t> color_;
};

}  // namespace

DfssspLayers assign_dfsssp_layers(const SwitchGraph &g, RoutingTables &t, unsigned max_layers) {
    LayerAssigner a(g, t);
    DfssspLayers r;
    r.used = a.assign(max_layers);
    if (a.overflowed())
        r.error =
            "more (source switch, destination LID) routes or channel dependencies than 32-bit ids can name";
    else if (r.used == 0)
        r.error = "breaking all credit loops needs more than " + std::to_string(max_layers) +
                  " virtual layers (max_vls)";
    return r;
}

}  // namespace weft::routing::engines
