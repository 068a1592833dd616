// The torus-2QoS engine (OpenSM's torus-2QoS): reads torus-2QoS.conf, places the switches into
// the torus, refuses what it cannot route free of credit loops, builds the LFTs by
// dimension-order routing around failures, and hands out path SLs, SL2VL maps and multicast
// trees from one master spanning tree. Like OpenSM it needs QoS on (-Q): without SL2VL maps
// a torus deadlocks. LMC > 0: every LID of a port takes the same route, as in OpenSM (extra
// paths make no sense under dimension-order routing).
#include <algorithm>
#include <array>
#include <optional>

#include "engines/engines.hpp"
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
    bool provides_fwd_tables() const override { return true; }
    bool provides_mcast_tree() const override { return true; }

    HookResult build_fwd_tables(RoutingContext &ctx, RoutingTables &t) override {
        const Fabric &f = ctx.fabric;
        const RoutingOptions &o = ctx.options;
        built_ = false;
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
        const unsigned vls = o.qos_max_vls ? std::min(o.qos_max_vls, o.max_vls) : o.max_vls;
        if (!torus::check_routable(f, tor_, vls, why)) return HookResult::failure(why);
        const auto runs = torus::ring_runs(tor_);

        const std::size_t S = f.switch_count();
        // Next port group for every (switch, destination switch).
        std::vector<std::int8_t> next(S * S, -1);
        for (SwitchIdx s = 0; s < S; ++s) {
            if (ctx.progress && s % 64 == 0) ctx.progress(s, S);
            for (SwitchIdx d = 0; d < S; ++d) {
                if (s == d) continue;
                const int g = torus::next_group(tor_, runs, s, d);
                if (g < 0)
                    return HookResult::failure("torus-2QoS: no route from " + torus::switch_name(f, tor_, s) +
                                               " to " + torus::switch_name(f, tor_, d));
                next[s * S + d] = static_cast<std::int8_t>(g);
            }
        }

        // LFTs: destination switches in order, each switch's own LID then its hosts in
        // port_order; parallel links taken round robin, switch and host LIDs counted apart.
        t.reset(f);
        std::vector<SwitchIdx> lid_switch(std::size_t{f.max_lid()} + 1, kNoSwitch);
        for (SwitchIdx s = 0; s < S; ++s) {
            std::array<std::array<unsigned, torus::kGroups>, 2> rr{};  // [host?][group]
            auto &row = t.lft[s];
            for (SwitchIdx d = 0; d < S; ++d) {
                const NodeIdx dn = f.switch_node(d);
                auto set_lids = [&](const Port &owner, PortNum port) {
                    const Lid base = owner.lid;
                    if (base == 0) return;
                    for (Lid l = base; l < base + (Lid{1} << owner.lmc) && l < row.size(); ++l) {
                        row[l] = port;
                        if (s == 0) lid_switch[l] = d;
                    }
                };
                auto via = [&](bool host) {
                    const int g = next[s * S + d];
                    const auto &grp = tor_.group[s][g];
                    return grp[rr[host][g]++ % grp.size()];
                };
                set_lids(f.port(dn, 0), s == d ? PortNum{0} : via(false));
                for (PortNum p : tor_.end_ports[d]) {
                    const Port &cable = f.port(dn, p);
                    set_lids(f.port(cable.peer, cable.peer_port), s == d ? p : via(true));
                }
            }
        }
        hops_from_lfts(f, t);
        torus::fill_sl_tables(f, tor_, lid_switch, vls, t);
        t.vls_used = vls_needed(f, next, t);
        if (!torus::build_master_tree(f, tor_, master_, why)) return HookResult::failure(why);
        built_ = true;
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
    // Highest VL any switch-to-switch hop uses, plus one: bit 0 if some path crosses a
    // dateline, bit 1 if some route turns from a higher into a lower dimension.
    unsigned vls_needed(const Fabric &f, const std::vector<std::int8_t> &next, const RoutingTables &t) const {
        const std::size_t S = f.switch_count();
        bool loop = false, turn = false;
        for (const auto &row : t.path_sl)
            for (auto sl : row)
                if (sl & 7) loop = true;
        for (SwitchIdx p = 0; p < S && !turn; ++p)
            for (SwitchIdx d = 0; d < S && !turn; ++d) {
                if (p == d) continue;
                const unsigned in_dim = static_cast<unsigned>(next[p * S + d]) / 2;
                const PortNum q = tor_.group[p][next[p * S + d]].front();
                const SwitchIdx x = f.node(f.port(f.switch_node(p), q).peer).sw;
                if (x != d && static_cast<unsigned>(next[x * S + d]) / 2 < in_dim) turn = true;
            }
        return 1u + (loop ? 1u : 0u) + (turn ? 2u : 0u);
    }

    torus::Torus tor_;
    torus::MasterTree master_;
    bool built_ = false;
};

}  // namespace

std::unique_ptr<Engine> make_torus_2qos() {
    return std::make_unique<Torus2QoS>();
}

}  // namespace weft::routing::engines
