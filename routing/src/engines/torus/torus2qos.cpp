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
        // The switch each port group leads to.
        std::vector<SwitchIdx> neighbour(S * torus::kGroups, kNoSwitch);
        for (SwitchIdx s = 0; s < S; ++s)
            for (unsigned g = 0; g < torus::kGroups; ++g)
                if (!tor_.group[s][g].empty())
                    neighbour[s * torus::kGroups + g] =
                        f.node(f.port(f.switch_node(s), tor_.group[s][g].front()).peer).sw;
        // The by-destination groups only serve illegal_turns(), which needs them only when a
        // switch is missing.
        const bool missing = std::find(tor_.at.begin(), tor_.at.end(), kNoSwitch) != tor_.at.end();
        next_.assign(S * S, -1);
        next_by_dst_.assign(missing ? S * S : 0, -1);
        next_sw_.assign(S * S, kNoSwitch);
        // Next group and next switch for every (switch, destination switch), in 64x64 tiles so
        // that both the by-source and the by-destination arrays are written in cache.
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
                        if (missing) next_by_dst_[d * S + s] = static_cast<std::int8_t>(g);
                        next_sw_[d * S + s] = neighbour[s * torus::kGroups + g];
                    }
        }

        // Route lengths, walked by destination: from each switch whose length is not known yet,
        // count the steps to one that is, then walk again writing the lengths down.
        std::vector<std::uint8_t> len_by_dst(S * S, kInfHops);
        for (SwitchIdx d = 0; d < S; ++d) {
            std::uint8_t *len = len_by_dst.data() + d * S;
            const SwitchIdx *nx = next_sw_.data() + d * S;
            len[d] = 0;
            for (SwitchIdx s = 0; s < S; ++s) {
                if (len[s] != kInfHops) continue;
                std::size_t steps = 0;
                SwitchIdx u = s;
                for (; len[u] == kInfHops; u = nx[u])
                    if (++steps > S)
                        return HookResult::failure("torus-2QoS: routes to " + torus::switch_name(f, tor_, d) +
                                                   " loop");
                std::size_t v = len[u] + steps;
                if (v >= kInfHops) return HookResult::failure("torus-2QoS: route longer than 254 hops");
                for (u = s; len[u] == kInfHops; u = nx[u]) len[u] = static_cast<std::uint8_t>(v--);
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

        // ... and by LID, so that a row is one pass of lookups by destination switch (switch
        // index S stands for a LID no port owns).
        lid_sw_.assign(std::size_t{max_lid} + 1, static_cast<SwitchIdx>(S));
        lid_host_.assign(std::size_t{max_lid} + 1, 0);
        for (SwitchIdx d = 0; d < S; ++d)
            for (const Dest &x : dests_[d])
                for (Lid l = x.first; l < x.first + x.count; ++l) {
                    lid_sw_[l] = d;
                    lid_host_[l] = x.port != 0;
                }

        // Byte stores may alias anything: the loops read through local pointers only.
        std::vector<std::uint8_t> len_row(S + 1, kInfHops);
        const SwitchIdx *lid_sw = lid_sw_.data();
        const std::uint8_t *lid_host = lid_host_.data(), *len = len_row.data();
        for (SwitchIdx s = 0; s < S; ++s) {
            std::copy_n(len_.data() + s * S, S, len_row.data());
            std::uint8_t *hrow = t.hops[s].data();
            for (Lid l = 1; l <= max_lid; ++l)
                hrow[l] = static_cast<std::uint8_t>(len[lid_sw[l]] + lid_host[l]);
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
        std::vector<std::uint8_t> sl_row(S + 1, 0);  // [S]: LIDs no port owns
        std::vector<PortNum> port_to(S + 1, kNoPort);
        const SwitchIdx *lid_sw = lid_sw_.data();  // byte stores may alias: read through locals
        const std::uint8_t *sl = sl_row.data();
        bool loop_vl = false;
        for (SwitchIdx s = 0; s < S; ++s) {
            auto &lrow = t.lft[s];
            auto &srow = t.path_sl[s];
            sl_of.row(s, sl_row.data());
            std::uint8_t any_sl = 0;
            for (SwitchIdx d = 0; d < S; ++d) any_sl |= sl[d];
            loop_vl = loop_vl || (any_sl & 7);
            bool parallel = false;
            for (const auto &grp : tor_.group[s]) parallel = parallel || grp.size() > 1;
            if (!parallel) {
                // One port per direction: the LFT row is a lookup by destination switch, then
                // this switch's own LIDs.
                std::array<PortNum, torus::kGroups + 1> port_of{};  // [group + 1], group -1: here
                for (unsigned g = 0; g < torus::kGroups; ++g)
                    if (!tor_.group[s][g].empty()) port_of[g + 1] = tor_.group[s][g].front();
                const std::int8_t *next = next_.data() + s * S;
                PortNum *to = port_to.data(), *lft = lrow.data();
                std::uint8_t *sls = srow.data();
                for (SwitchIdx d = 0; d < S; ++d) to[d] = port_of[next[d] + 1];
                for (Lid l = 1; l <= max_lid; ++l) {
                    lft[l] = to[lid_sw[l]];
                    sls[l] = sl[lid_sw[l]];
                }
                for (const Dest &x : dests_[s])
                    for (Lid l = x.first; l < x.first + x.count; ++l) lrow[l] = x.port;
                continue;
            }
            for (Lid l = 1; l <= max_lid; ++l) srow[l] = sl[lid_sw[l]];
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
    std::vector<SwitchIdx> lid_sw_;         // by LID: destination switch, S if no port owns it
    std::vector<std::uint8_t> lid_host_;    // by LID: 1 if a host port owns it
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
