// The torus-2QoS engine (OpenSM's torus-2QoS): reads torus-2QoS.conf, places the switches into
// the torus, refuses what it cannot route free of credit loops, builds the LFTs by
// dimension-order routing around failures, and hands out path SLs, SL2VL maps and multicast
// trees from one master spanning tree. Like OpenSM it needs QoS on (-Q): without SL2VL maps a
// torus deadlocks. LMC > 0: every LID of a port takes the same route, as in OpenSM (extra
// paths make no sense under dimension-order routing). An engine instance that routes again
// reports, as warnings, what changed since the torus it routed last (max_changes caps the list).
#include <algorithm>
#include <array>
#include <optional>

#include "engines/engines.hpp"
#include "engines/torus/torus_changes.hpp"
#include "engines/torus/torus_mcast.hpp"
#include "engines/torus/torus_routing.hpp"
#include "engines/torus/torus_sl.hpp"
#include "engines/torus/torus_topology.hpp"
#include "weft/routing/torus_config.hpp"

namespace weft::routing::engines {

namespace {

class Torus2QoS final : public Engine {
  public:
    std::string_view name() const override { return "torus-2QoS"; }
    bool provides_lid_matrices() const override { return true; }
    bool provides_fwd_tables() const override { return true; }
    bool provides_mcast_tree() const override { return true; }

    // Places the torus, refuses what it cannot route, and computes every route's next hop and
    // length; t.hops gets the lengths of the routes the LFTs will take.
    HookResult build_lid_matrices(RoutingContext &ctx, RoutingTables &t) override {
        const Fabric &f = ctx.fabric;
        const RoutingOptions &o = ctx.options;
        built_ = false;
        next_.clear();
        if (!o.qos)
            return HookResult::failure("torus-2QoS needs QoS for its SL2VL maps; enable it (-Q / --qos)");
        if (o.torus_config.empty())
            return HookResult::failure("torus-2QoS needs a torus-2QoS.conf (--torus_config)");
        TorusConfig cfg;
        try {
            cfg = load_torus_config(o.torus_config);
        } catch (const ParseError &e) {
            return HookResult::failure(std::string("torus-2QoS: ") + e.what());
        }
        std::string why;
        if (!torus::build_torus(f, cfg, tor_, why)) return HookResult::failure(why);
        // As OpenSM: report against the last torus routed as soon as a torus is found, keep
        // this one for the next report only once it is routed.
        placed_ = torus::snapshot(f, tor_);
        if (last_routed_)
            for (auto &line : torus::torus_changes(placed_, *last_routed_, cfg.max_changes))
                t.warnings.push_back("torus-2QoS: " + line);
        const unsigned vls = o.qos_max_vls ? std::min(o.qos_max_vls, o.max_vls) : o.max_vls;
        if (!torus::check_routable(f, tor_, vls, why)) return HookResult::failure(why);
        const auto runs = torus::ring_runs(tor_);
        const torus::NextGroups next_group(tor_, runs);

        const std::size_t S = f.switch_count();
        // Next port group and next switch for every (switch, destination switch), in 64x64
        // tiles so that both the by-source and the by-destination arrays are written in cache.
        std::vector<SwitchIdx> neighbour(S * torus::kGroups, kNoSwitch);
        for (SwitchIdx s = 0; s < S; ++s)
            for (unsigned g = 0; g < torus::kGroups; ++g)
                if (!tor_.group[s][g].empty())
                    neighbour[s * torus::kGroups + g] =
                        f.node(f.port(f.switch_node(s), tor_.group[s][g].front()).peer).sw;
        next_.assign(S * S, -1);
        next_by_dst_.assign(S * S, -1);
        next_sw_.assign(S * S, kNoSwitch);
        constexpr SwitchIdx kTile = 64;
        for (SwitchIdx s0 = 0; s0 < S; s0 += kTile) {
            if (ctx.progress) ctx.progress(s0, S);
            for (SwitchIdx d0 = 0; d0 < S; d0 += kTile)
                for (SwitchIdx s = s0; s < std::min<SwitchIdx>(s0 + kTile, S); ++s)
                    for (SwitchIdx d = d0; d < std::min<SwitchIdx>(d0 + kTile, S); ++d) {
                        if (s == d) continue;
                        const int g = next_group(s, d);
                        if (g < 0)
                            return HookResult::failure("torus-2QoS: no route from " +
                                                       torus::switch_name(f, tor_, s) + " to " +
                                                       torus::switch_name(f, tor_, d));
                        next_[s * S + d] = static_cast<std::int8_t>(g);
                        next_by_dst_[d * S + s] = static_cast<std::int8_t>(g);
                        next_sw_[d * S + s] = neighbour[s * torus::kGroups + g];
                    }
        }

        // Route lengths, walked by destination.
        std::vector<std::uint8_t> len_by_dst(S * S, kInfHops);
        std::vector<SwitchIdx> walk;
        for (SwitchIdx d = 0; d < S; ++d) {
            len_by_dst[d * S + d] = 0;
            for (SwitchIdx s = 0; s < S; ++s) {
                walk.clear();
                SwitchIdx u = s;
                while (len_by_dst[d * S + u] == kInfHops && walk.size() <= S) {
                    walk.push_back(u);
                    u = next_sw_[d * S + u];
                }
                if (walk.size() > S)
                    return HookResult::failure("torus-2QoS: routes to " + torus::switch_name(f, tor_, d) +
                                               " loop");
                unsigned v = len_by_dst[d * S + u];
                for (auto it = walk.rbegin(); it != walk.rend(); ++it) {
                    if (++v >= kInfHops) return HookResult::failure("torus-2QoS: route longer than 254 hops");
                    len_by_dst[d * S + *it] = static_cast<std::uint8_t>(v);
                }
            }
        }

        // ... and by source for the hops rows.
        len_.assign(S * S, kInfHops);
        for (SwitchIdx d0 = 0; d0 < S; d0 += kTile)
            for (SwitchIdx s0 = 0; s0 < S; s0 += kTile)
                for (SwitchIdx d = d0; d < std::min<SwitchIdx>(d0 + kTile, S); ++d)
                    for (SwitchIdx s = s0; s < std::min<SwitchIdx>(s0 + kTile, S); ++s)
                        len_[s * S + d] = len_by_dst[d * S + s];

        // Each destination switch's LIDs: its own, then its hosts' in port_order.
        const Lid max_lid = f.max_lid();
        auto lids_of = [&](const Port &owner, PortNum port, std::vector<Dest> &out) {
            if (owner.lid == 0 || owner.lid > max_lid) return;
            const Lid n = std::min<Lid>(Lid{1} << owner.lmc, max_lid + 1 - owner.lid);
            out.push_back({owner.lid, n, port});
        };
        dests_.assign(S, {});
        for (SwitchIdx d = 0; d < S; ++d) {
            const NodeIdx dn = f.switch_node(d);
            lids_of(f.port(dn, 0), 0, dests_[d]);
            for (PortNum p : tor_.end_ports[d]) {
                const Port &cable = f.port(dn, p);
                lids_of(f.port(cable.peer, cable.peer_port), p, dests_[d]);
            }
        }

        // ... flattened in LID order, so that a row is one pass of lookups by destination switch.
        lids_.clear();
        for (SwitchIdx d = 0; d < S; ++d)
            for (const Dest &x : dests_[d])
                for (Lid l = x.first; l < x.first + x.count; ++l) lids_.push_back({l, d, x.port});
        std::sort(lids_.begin(), lids_.end(),
                  [](const LidDest &a, const LidDest &b) { return a.lid < b.lid; });

        for (SwitchIdx s = 0; s < S; ++s) {
            std::uint8_t *hrow = t.hops[s].data();
            const std::uint8_t *len = len_.data() + s * S;
            for (const LidDest &x : lids_) hrow[x.lid] = static_cast<std::uint8_t>(len[x.sw] + (x.port != 0));
        }
        vls_ = vls;
        return HookResult::success();
    }

    // LFTs, path SLs and SL2VL maps from the routes, and the multicast master tree.
    HookResult build_fwd_tables(RoutingContext &ctx, RoutingTables &t) override {
        const Fabric &f = ctx.fabric;
        const std::size_t S = f.switch_count();
        const Lid max_lid = f.max_lid();
        std::string why;
        if (next_.size() != S * S)
            return HookResult::failure("torus-2QoS: forwarding tables asked before routing");
        // LFTs and path SLs in one pass per source switch.
        t.path_sl.assign(S, std::vector<std::uint8_t>(std::size_t{max_lid} + 1, 0));
        const torus::PathSl sl_of(tor_);
        std::vector<std::uint8_t> sl_row(S);
        std::vector<PortNum> port_to(S);
        bool loop_vl = false;
        for (SwitchIdx s = 0; s < S; ++s) {
            auto &lrow = t.lft[s];
            auto &srow = t.path_sl[s];
            sl_of.row(s, sl_row.data());
            std::uint8_t any_sl = 0;
            for (SwitchIdx d = 0; d < S; ++d) any_sl |= sl_row[d];
            loop_vl = loop_vl || (any_sl & 7);
            bool parallel = false;
            for (const auto &grp : tor_.group[s]) parallel = parallel || grp.size() > 1;
            if (!parallel) {
                // One port per direction: the LFT row is a lookup by destination switch.
                std::array<PortNum, torus::kGroups + 1> port_of{};  // [group + 1], group -1: here
                for (unsigned g = 0; g < torus::kGroups; ++g)
                    if (!tor_.group[s][g].empty()) port_of[g + 1] = tor_.group[s][g].front();
                const std::int8_t *next = next_.data() + s * S;
                for (SwitchIdx d = 0; d < S; ++d) port_to[d] = port_of[next[d] + 1];
                for (const LidDest &x : lids_) {
                    lrow[x.lid] = x.sw == s ? x.port : port_to[x.sw];
                    srow[x.lid] = sl_row[x.sw];
                }
                continue;
            }
            for (const LidDest &x : lids_) srow[x.lid] = sl_row[x.sw];
            // Parallel links are taken round robin in destination order, switch and host LIDs
            // counted apart (as OpenSM does).
            std::array<std::array<unsigned, torus::kGroups>, 2> rr{};  // [host?][group]
            for (SwitchIdx d = 0; d < S; ++d) {
                const int g = s == d ? -1 : next_[s * S + d];
                for (const Dest &x : dests_[d]) {
                    PortNum port = x.port;
                    if (g >= 0) {
                        const auto &grp = tor_.group[s][g];
                        unsigned &turn = rr[x.port != 0][g];  // round robin, no division
                        port = grp[turn];
                        if (++turn == grp.size()) turn = 0;
                    }
                    for (Lid l = x.first; l < x.first + x.count; ++l) lrow[l] = port;
                }
            }
        }
        torus::fill_sl2vl(f, tor_, vls_, t);
        t.vls_used = 1u + (loop_vl ? 1u : 0u) + (illegal_turns(S) ? 2u : 0u);
        if (!torus::build_master_tree(f, tor_, master_, why)) return HookResult::failure(why);
        built_ = true;
        last_routed_ = std::move(placed_);
        return HookResult::success();
    }

    // SLs and SL2VL were filled with the LFTs (they come from the same torus).
    HookResult assign_sl(RoutingContext &, RoutingTables &) override { return HookResult::success(); }

    HookResult build_mcast_tree(RoutingContext &ctx, const RoutingTables &, const McastGroup &g,
                                McastTree &out) override {
        if (!built_) return HookResult::failure("torus-2QoS: multicast asked before the torus was routed");
        std::string why;
        if (!torus::group_tree(ctx.fabric, tor_, master_, g, out, why)) return HookResult::failure(why);
        return HookResult::success();
    }

  private:
    // Some route turns from a higher into a lower dimension (VL bit 1 in use). Only a missing
    // switch makes a route turn early: with every switch there, each route takes its first
    // differing dimension (check_routable leaves each ring at most one break, so one way
    // around always leads there) and dimensions only ever rise along it.
    bool illegal_turns(std::size_t S) const {
        if (std::find(tor_.at.begin(), tor_.at.end(), kNoSwitch) == tor_.at.end()) return false;
        for (SwitchIdx d = 0; d < S; ++d) {
            const std::int8_t *g = next_by_dst_.data() + d * S;
            const SwitchIdx *x = next_sw_.data() + d * S;
            for (SwitchIdx p = 0; p < S; ++p)
                if (p != d && x[p] != d && g[x[p]] / 2 < g[p] / 2) return true;
        }
        return false;
    }

    struct Dest {
        Lid first, count;
        PortNum port;  // at the destination switch: 0 for its own LID, else the host port
    };

    torus::Torus tor_;
    unsigned vls_ = 8;
    std::vector<std::int8_t> next_;         // [s * S + d]: port group towards d
    std::vector<std::int8_t> next_by_dst_;  // the same, [d * S + s]
    std::vector<SwitchIdx> next_sw_;        // [d * S + s]: the switch s forwards to
    std::vector<std::uint8_t> len_;         // [s * S + d]: route length in switch hops
    std::vector<std::vector<Dest>> dests_;  // by destination switch
    struct LidDest {
        Lid lid;
        SwitchIdx sw;  // destination switch
        PortNum port;  // 0 for the switch's own LID, else its host port
    };
    std::vector<LidDest> lids_;  // every routed LID, in LID order
    torus::MasterTree master_;
    bool built_ = false;
    torus::TorusSnapshot placed_;                      // the torus being routed
    std::optional<torus::TorusSnapshot> last_routed_;  // the last one routed, for the change report
};

}  // namespace

std::unique_ptr<Engine> make_torus_2qos() {
    return std::make_unique<Torus2QoS>();
}

}  // namespace weft::routing::engines
