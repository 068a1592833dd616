// OpenSM's dor (Dimension Order Routing): the min-hop matrices of minhop, then for each switch
// and LID the lowest-numbered min-hop port, so that with consistent cabling (port numbers name
// dimensions, see dor_cabling.hpp) every path corrects the lowest dimension first and meshes and
// hypercubes stay free of credit loops. Parallel cables to that same neighbour are one dimension:
// the LID goes to the least loaded of them (OpenSM's port equalization) unless port equalization
// is off, then always to the first. As in OpenSM, the port scan of a LID starts after the port
// the previous LID of the same end port took (LMC > 0), and inconsistent cabling is routed
// anyway; here it is reported, naming switches and ports, in the tables' warnings.
#include <algorithm>

#include "engines/dor_cabling.hpp"
#include "engines/engines.hpp"
#include "engines/lft_builder.hpp"
#include "engines/switch_graph.hpp"

namespace weft::routing::engines {
namespace {

void build_dor_lfts(const Fabric &f, const SwitchGraph &g, const RoutingOptions &o, RoutingTables &t) {
    const std::size_t n = g.size();
    const auto order = route_order(f, g);
    std::uint32_t max_count = 1;
    for (const auto &e : order) max_count = std::max(max_count, e.count);
    // Min-hop links of s toward each destination switch, in port order (links are in port order).
    std::vector<std::int32_t> cand_begin;
    std::vector<std::uint8_t> cand_len;
    std::vector<SwitchLink> cand;
    std::vector<std::uint32_t> load;
    for (SwitchIdx s = 0; s < n; ++s) {
        auto &lft = t.lft[s];
        std::fill(lft.begin(), lft.end(), kNoPort);
        const auto &hops = t.hops[s];
        const auto ignored = ignored_ports(f, o, s);
        cand_begin.assign(n, -1);
        cand_len.assign(n, 0);
        cand.clear();
        load.assign(std::size_t{f.node(f.switch_node(s)).num_ports} + 1, 0);
        for (std::uint32_t i = 0; i < max_count; ++i) {
            for (const RouteOrderEntry &e : order) {
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
                    }
                    const unsigned len = cand_len[tg.sw];
                    if (len == 0) continue;
                    const SwitchLink *c = cand.data() + cand_begin[tg.sw];
                    // Cyclic scan from `start`: the first min-hop port fixes the neighbour (the
                    // dimension); among its parallel ports the least loaded, first on ties.
                    const unsigned start = (i > 0 && lft[lid - 1] != kNoPort) ? lft[lid - 1] + 1u : 1u;
                    unsigned first = 0;
                    while (first < len && c[first].port < start) ++first;
                    if (first == len) first = 0;
                    const SwitchIdx via = c[first].peer;
                    port = c[first].port;
                    if (o.port_equalization) {
                        std::uint32_t least = load[port];
                        for (unsigned k = 1; k < len; ++k) {
                            const SwitchLink &l = c[(first + k) % len];
                            if (l.peer == via && load[l.port] < least) least = load[l.port], port = l.port;
                        }
                    }
                }
                lft[lid] = port;
                if (port == 0 || ignored[port] || (tg.is_switch && !o.port_profile_switch_nodes)) continue;
                ++load[port];
            }
        }
    }
}

class Dor final : public Engine {
  public:
    std::string_view name() const override { return "dor"; }
    bool provides_fwd_tables() const override { return true; }
    HookResult build_fwd_tables(RoutingContext &ctx, RoutingTables &t) override {
        const SwitchGraph g(ctx.fabric);
        if (g.size() == 0) return HookResult::failure("not a switched subnet");
        build_dor_lfts(ctx.fabric, g, ctx.options, t);
        const DorCabling c = check_dor_cabling(ctx.fabric, g);
        for (const auto &p : c.problems)
            t.warnings.push_back("inconsistent cabling for dimension order: " + p);
        for (const auto &r : c.rings) t.warnings.push_back(r);
        return HookResult::success();
    }
};

}  // namespace

std::unique_ptr<Engine> make_dor() {
    return std::make_unique<Dor>();
}

}  // namespace weft::routing::engines
