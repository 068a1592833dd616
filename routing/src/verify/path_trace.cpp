// Tracing every (source, destination LID) pair through the LFTs, per destination.
#include <algorithm>
#include <deque>

#include "dest_walk.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

constexpr std::size_t kExamples = 5;
constexpr std::int32_t kInf = 0x3fffffff;

// Shortest cabled distance (switch-to-switch hops) from every switch to `root`.
void bfs(const Fabric &f, const verify::DestWalker &w, SwitchIdx root, std::vector<std::int32_t> &d,
         std::vector<SwitchIdx> &queue) {
    std::fill(d.begin(), d.end(), kInf);
    queue.clear();
    d[root] = 0;
    queue.push_back(root);
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const SwitchIdx s = queue[head];
        const Node &x = f.node(f.switch_node(s));
        for (PortNum p = 1; p <= x.num_ports; ++p) {
            const SwitchIdx ns = w.peer_switch[x.port_base + p];
            if (ns != kNoSwitch && d[ns] == kInf) {
                d[ns] = d[s] + 1;
                queue.push_back(ns);
            }
        }
    }
}

}  // namespace

PathReport trace_paths(const Fabric &f, const RoutingTables &t, const ProgressFn &progress, unsigned) {
    PathReport r;
    verify::DestWalker w(f, t);
    const std::size_t S = f.switch_count();
    std::vector<std::int32_t> dmin(S, kInf);
    std::vector<SwitchIdx> queue;
    SwitchIdx bfs_root = kNoSwitch;
    double hop_sum = 0;
    std::size_t kinds[3] = {0, 0, 0};
    auto example = [&](int kind, NodeIdx src, PortNum sp, Lid d, std::string what) {
        if (kinds[kind]++ < kExamples) r.examples.push_back({src, sp, d, std::move(what)});
    };
    // Destinations grouped by the switch they hang off, so one BFS serves the group.
    std::vector<std::pair<SwitchIdx, Lid>> dests;
    for (Lid d = 1; d <= f.max_lid(); ++d) {
        if (!f.lid_owner(d)) continue;
        const NodeIdx a = f.attached_switch(d);
        dests.emplace_back(a == kNoNode ? kNoSwitch : f.node(a).sw, d);
    }
    std::stable_sort(dests.begin(), dests.end());
    std::size_t done = 0;
    for (auto [group_switch, d] : dests) {
        SwitchIdx osw = group_switch;
        if (progress && (++done % 256 == 0 || done == dests.size())) progress(done, dests.size());
        if (!w.walk(d)) continue;  // owner not cabled: nothing to route to
        osw = w.owner_switch;
        const bool owner_is_switch = f.node(w.owner.node).is_switch();
        if (osw == kNoSwitch) {
            // A CA cabled straight to another CA: only its peer reaches it.
            continue;
        }
        if (osw != bfs_root) {
            bfs(f, w, osw, dmin, queue);
            bfs_root = osw;
        }
        const unsigned dst_links = owner_is_switch ? 0 : 1;
        for (SwitchIdx s = 0; s < S; ++s) {
            // Sources at s: the switch itself and its CA ports, minus the destination itself.
            std::uint64_t n = w.ca_sources[s] + 1;
            if (owner_is_switch && s == osw) n -= 1;
            if (!owner_is_switch && s == osw) n -= 1;
            if (!n) continue;
            r.pairs += n;
            const std::int32_t got = w.dist[s];
            const NodeIdx sn = f.switch_node(s);
            if (dmin[s] == kInf) {
                r.unreachable_in_fabric += n;
                continue;
            }
            const std::uint64_t sw_src = (owner_is_switch && s == osw) ? 0 : 1;
            const std::uint64_t ca_src = n - sw_src;
            if (got == verify::kDropped) {
                r.unreachable += ca_src;
                r.switch_unreachable += sw_src;
                // Find where it drops, for the example.
                SwitchIdx x = s;
                while (w.next[x] != kNoSwitch) x = w.next[x];
                example(0, sn, 0, d,
                        "unreachable: LID " + std::to_string(d) + " dropped at " +
                            verify::node_label(f, f.switch_node(x)) +
                            (w.out[x] == kNoPort ? " (no LFT entry)"
                                                 : " (port " + std::to_string(w.out[x]) + ")"));
                continue;
            }
            if (got == verify::kLooped) {
                r.loops += n;
                example(1, sn, 0, d, "loop: LID " + std::to_string(d) + " from " + verify::node_label(f, sn));
                continue;
            }
            if (got > dmin[s]) {
                r.non_minimal += n;
                example(2, sn, 0, d,
                        "non-minimal: LID " + std::to_string(d) + " from " + verify::node_label(f, sn) +
                            " takes " + std::to_string(got) + " switch hops, shortest is " +
                            std::to_string(dmin[s]));
            }
            // Link counts: the switch source starts at s; CA sources add their own cable.
            const unsigned base = static_cast<unsigned>(got) + dst_links;
            auto add = [&](unsigned links, std::uint64_t count) {
                if (!count) return;
                if (r.hop_histogram.size() <= links) r.hop_histogram.resize(links + 1, 0);
                r.hop_histogram[links] += count;
                r.max_hops = std::max(r.max_hops, links);
                hop_sum += static_cast<double>(links) * static_cast<double>(count);
            };
            add(base, sw_src);
            add(base + 1, ca_src);
        }
    }
    std::uint64_t delivered = 0;
    for (auto c : r.hop_histogram) delivered += c;
    r.mean_hops = delivered ? hop_sum / static_cast<double>(delivered) : 0.0;
    return r;
}

}  // namespace weft::routing
