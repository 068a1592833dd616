// Pairwise comparison of two LFT sets on one fabric.
#include <algorithm>
#include <cstdio>

#include "dest_walk.hpp"
#include "weft/routing/lft_compare.hpp"

namespace weft::routing {

std::string LftComparison::describe() const {
    std::string s;
    auto kv = [&](const char *k, std::uint64_t v) { s += std::string(k) + "=" + std::to_string(v) + "\n"; };
    kv("pairs", pairs);
    kv("delivered_a", delivered_a);
    kv("delivered_b", delivered_b);
    kv("only_a", only_a);
    kv("only_b", only_b);
    kv("same_length", same_length);
    kv("a_longer", a_longer);
    kv("b_longer", b_longer);
    kv("minimal_a", minimal_a);
    kv("minimal_b", minimal_b);
    kv("both_minimal", both_minimal);
    kv("differing_entries", differing_entries);
    return s;
}

LftComparison compare_lfts(const Fabric &f, const RoutingTables &a, const RoutingTables &b) {
    LftComparison c;
    const std::size_t S = f.switch_count();
    for (SwitchIdx s = 0; s < S && s < a.lft.size() && s < b.lft.size(); ++s) {
        const auto &x = a.lft[s], &y = b.lft[s];
        const std::size_t n = std::max(x.size(), y.size());
        for (std::size_t l = 1; l < n; ++l) {
            const PortNum px = l < x.size() ? x[l] : kNoPort, py = l < y.size() ? y[l] : kNoPort;
            if (px != py && f.lid_owner(static_cast<Lid>(l))) ++c.differing_entries;
        }
    }
    verify::DestWalker wa(f, a), wb(f, b);
    constexpr std::int32_t kInf = 0x3fffffff;
    std::vector<std::int32_t> dmin(S, kInf);
    std::vector<SwitchIdx> queue;
    for (Lid d = 1; d <= f.max_lid(); ++d) {
        if (!wa.walk(d) || !wb.walk(d) || wa.owner_switch == kNoSwitch) continue;
        const SwitchIdx root = wa.owner_switch;
        std::fill(dmin.begin(), dmin.end(), kInf);
        queue.assign(1, root);
        dmin[root] = 0;
        for (std::size_t h = 0; h < queue.size(); ++h) {
            const Node &x = f.node(f.switch_node(queue[h]));
            for (PortNum p = 1; p <= x.num_ports; ++p) {
                const SwitchIdx ns = wa.peer_switch[x.port_base + p];
                if (ns != kNoSwitch && dmin[ns] == kInf) {
                    dmin[ns] = dmin[queue[h]] + 1;
                    queue.push_back(ns);
                }
            }
        }
        for (SwitchIdx s = 0; s < S; ++s) {
            std::uint64_t n = wa.ca_sources[s] + 1;
            if (s == root) n -= 1;  // the destination itself (the switch, or its CA port) is no source
            if (!n) continue;
            c.pairs += n;
            const std::int32_t da = wa.dist[s], db = wb.dist[s];
            if (da >= 0) c.delivered_a += n;
            if (db >= 0) c.delivered_b += n;
            if (da >= 0 && db < 0) c.only_a += n;
            if (db >= 0 && da < 0) c.only_b += n;
            if (da >= 0 && db >= 0) {
                if (da == db)
                    c.same_length += n;
                else if (da > db)
                    c.a_longer += n;
                else
                    c.b_longer += n;
            }
            if (da >= 0 && da == dmin[s]) c.minimal_a += n;
            if (db >= 0 && db == dmin[s]) c.minimal_b += n;
            if (da >= 0 && db >= 0 && da == dmin[s] && db == dmin[s]) c.both_minimal += n;
        }
    }
    return c;
}

}  // namespace weft::routing
