// The hop counts of routes as the LFTs lay them out (engines whose routes need not be min-hop:
// file, nue), by walking each switch's LFT toward every LID.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "engines/engines.hpp"
#include "engines/switch_graph.hpp"
#include "weft/routing/engine.hpp"

namespace weft::routing {

void hops_from_lfts(const Fabric &f, RoutingTables &t) {
    engines::hops_from_lfts(f, engines::SwitchGraph(f), t);
}

namespace {

// hops_from_lfts for `count` LIDs: lids[0..count) or, without a list, 1..count.
void resolve_hops(const Fabric &f, const engines::SwitchGraph &g, RoutingTables &t, const Lid *lids,
                  std::size_t count) {
    using namespace engines;
    // Per LID, resolve each switch's route length by following the LFT, memoized; a walk that
    // runs into itself (a loop) or dead-ends leaves kInfHops on every switch it passed.
    const std::size_t n = g.size();
    constexpr std::uint8_t kUnknown = 0xFE, kOnWalk = 0xFD;
    // Per switch, what a step of the walk reads, together: its LFT row, the switch behind each
    // of its ports (kNoSwitch for port 0, CA ports and unlinked ones) and its port count.
    struct Row {
        const PortNum *lft;
        const SwitchIdx *peer;
        std::uint8_t *hops;
        unsigned ports;
    };
    std::vector<Row> rows(n);
    std::size_t all_ports = 0;
    for (SwitchIdx s = 0; s < n; ++s) all_ports += f.node(f.switch_node(s)).num_ports + 1u;
    std::vector<SwitchIdx> peer(all_ports, kNoSwitch);
    for (SwitchIdx s = 0, at = 0; s < n; ++s) {
        const unsigned ports = f.node(f.switch_node(s)).num_ports;
        for (const SwitchLink &l : g.links(s)) peer[at + l.port] = l.peer;
        rows[s] = {t.lft[s].data(), peer.data() + at, t.hops[s].data(), ports};
        at += ports + 1u;
    }
    std::vector<std::uint8_t> len(n);
    std::vector<SwitchIdx> walk(n);  // the switches of the walk under way, first to last
    for (std::size_t i = 0; i < count; ++i) {
        const Lid l = lids ? lids[i] : static_cast<Lid>(i + 1);
        const LidTarget &tg = g.target(l);
        if (tg.sw == kNoSwitch) {
            for (const Row &r : rows) r.hops[l] = kInfHops;
            continue;
        }
        std::fill(len.begin(), len.end(), kUnknown);
        len[tg.sw] = tg.is_switch ? 0 : (rows[tg.sw].lft[l] == tg.port ? 1 : kInfHops);
        auto next_of = [&](SwitchIdx u) {
            const Row &r = rows[u];
            const PortNum p = r.lft[l];
            return p <= r.ports ? r.peer[p] : kNoSwitch;
        };
        // One hop more than v, unreachable past what a length can hold (or if v is).
        auto one_more = [](unsigned v) {
            return static_cast<std::uint8_t>(v >= kInfHops || v + 1 >= kOnWalk ? kInfHops : v + 1);
        };
        for (SwitchIdx s = 0; s < n; ++s) {
            if (len[s] != kUnknown) continue;
            // Mostly the next switch is settled already: one step, no walk.
            SwitchIdx u = next_of(s);
            if (u != kNoSwitch && len[u] != kUnknown && len[u] != kOnWalk) {
                len[s] = one_more(len[u]);
                continue;
            }
            std::size_t depth = 0;
            walk[depth++] = s;
            len[s] = kOnWalk;
            unsigned v = kInfHops;    // the length where the walk stopped
            while (u != kNoSwitch) {  // else a dead end
                if (len[u] != kUnknown) {
                    if (len[u] != kOnWalk) v = len[u];  // else a loop
                    break;
                }
                len[u] = kOnWalk;
                walk[depth++] = u;
                u = next_of(u);
            }
            while (depth > 0) len[walk[--depth]] = static_cast<std::uint8_t>(v = one_more(v));
        }
        // Every switch is resolved now: no kUnknown or kOnWalk is left.
        for (SwitchIdx s = 0; s < n; ++s) rows[s].hops[l] = len[s];
    }
}

}  // namespace

void engines::hops_from_lfts(const Fabric &f, const SwitchGraph &g, RoutingTables &t) {
    resolve_hops(f, g, t, nullptr, g.max_lid());
}

void engines::hops_from_lfts(const Fabric &f, const SwitchGraph &g, RoutingTables &t,
                             std::span<const Lid> lids) {
    resolve_hops(f, g, t, lids.data(), lids.size());
}

}  // namespace weft::routing
