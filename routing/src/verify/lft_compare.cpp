// Pairwise comparison of two LFT sets on one fabric.
#include <algorithm>
#include <cstdio>

#include "dest_walk.hpp"
#include "switch_distances.hpp"
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
    // Shortest distances 64 roots per search, kept: a fabric's LIDs share few owner switches.
    verify::SwitchDistances distances(f, std::size_t{64} << 20);
    for (Lid d = 1; d <= f.max_lid(); ++d) {
        if (!wa.walk(d) || !wb.walk(d) || wa.owner_switch == kNoSwitch) continue;
        const SwitchIdx root = wa.owner_switch;
        const std::uint16_t *dmin = distances.from(root).dist;
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
            const bool min_a = da >= 0 && da == dmin[s], min_b = db >= 0 && db == dmin[s];
            if (min_a) c.minimal_a += n;
            if (min_b) c.minimal_b += n;
            if (min_a && min_b) c.both_minimal += n;
        }
    }
    return c;
}

}  // namespace weft::routing
