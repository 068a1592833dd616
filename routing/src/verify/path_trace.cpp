// Tracing every (source, destination LID) pair through the LFTs, per destination.
#include "path_trace.hpp"

#include <algorithm>

#include "routing_check.hpp"

namespace weft::routing {
namespace verify {
namespace {}  // namespace

PathTracer::PathTracer(const Fabric &f, const DestWalker &w) : f_(f) {
    sources_ = f.switch_count();
    for (auto c : w.ca_sources) sources_ += c;
}

void PathTracer::offer(Kind k, const ExampleKey &key, PathIssue issue) {
    auto &v = examples[k];
    const auto at = std::upper_bound(v.begin(), v.end(), key,
                                     [](const ExampleKey &a, const PathExample &b) { return a < b.key; });
    v.insert(at, {key, std::move(issue)});
    if (v.size() > kExamples) v.pop_back();
}

void PathTracer::visit(const DestWalker &w, Lid d) {
    const SwitchIdx osw = w.owner_switch;
    const bool to_switch = f_.node(w.owner.node).is_switch();
    const std::uint16_t *shortest = w.shortest();
    report.pairs += sources_ - 1;
    const std::size_t S = f_.switch_count();
    // Delivered minimally, per distance: switch sources in the high half, CA sources in the low
    // half (fewer than 2^32 each). Two tables, so neighbouring switches at one distance do not
    // wait on each other's increment.
    const std::size_t levels = static_cast<std::size_t>(w.max_dist) + 1;
    count_.assign(2 * levels, 0);
    std::uint64_t *even = count_.data(), *odd = even + levels;
    const std::int32_t *dist = w.dist.data();
    const std::uint32_t *ca = w.ca_sources.data();
    for (SwitchIdx s = 0; s < S; ++s) {
        const std::int32_t got = dist[s];
        if (got >= 0 && static_cast<std::uint32_t>(got) == shortest[s] && s != osw) {
            (s & 1 ? odd : even)[got] += (std::uint64_t{1} << 32) | ca[s];
        } else {
            // The destination itself is no source: the switch, or one of the CA ports at osw.
            const std::uint32_t sw_src = to_switch && s == osw ? 0 : 1;
            const std::uint32_t ca_src = ca[s] - (!to_switch && s == osw ? 1 : 0);
            odd_switch(w, d, s, sw_src, ca_src, shortest[s]);
        }
    }
    // Links per path: the switch hops, the cable to a CA destination, and a CA source's own cable.
    const unsigned base = to_switch ? 0 : 1;
    auto add = [&](unsigned links, std::uint64_t count) {
        if (!count) return;
        if (report.hop_histogram.size() <= links) report.hop_histogram.resize(links + 1, 0);
        report.hop_histogram[links] += count;
        report.max_hops = std::max(report.max_hops, links);
    };
    for (std::size_t g = 0; g < levels; ++g) {
        const std::uint64_t c = even[g] + odd[g];
        add(static_cast<unsigned>(g) + base, c >> 32);
        add(static_cast<unsigned>(g) + base + 1, c & 0xFFFFFFFFu);
    }
}

// A switch whose sources are not delivered minimally (or the destination's own switch).
void PathTracer::odd_switch(const DestWalker &w, Lid d, SwitchIdx s, std::uint32_t sw_src,
                            std::uint32_t ca_src, std::uint32_t shortest) {
    const std::uint64_t n = sw_src + ca_src;
    if (!n) return;
    if (shortest == SwitchDistances::kFar) {
        report.unreachable_in_fabric += n;
        return;
    }
    const ExampleKey key{w.owner_switch, d, s};
    const NodeIdx sn = f_.switch_node(s);
    const std::int32_t got = w.dist[s];
    if (got == kDropped) {
        report.unreachable += ca_src;
        report.switch_unreachable += sw_src;
        if (wants(kUnreachable, key)) {
            SwitchIdx x = s;  // where it drops
            while (w.next_of(x) != kNoSwitch) x = w.next_of(x);
            offer(kUnreachable, key,
                  {sn, 0, d,
                   "unreachable: LID " + std::to_string(d) + " dropped at " +
                       node_label(f_, f_.switch_node(x)) +
                       (w.out_of(x) == kNoPort ? " (no LFT entry)"
                                               : " (port " + std::to_string(w.out_of(x)) + ")")});
        }
        return;
    }
    if (got == kLooped) {
        report.loops += n;
        if (wants(kLoop, key))
            offer(kLoop, key, {sn, 0, d, "loop: LID " + std::to_string(d) + " from " + node_label(f_, sn)});
        return;
    }
    if (static_cast<std::uint32_t>(got) > shortest) {
        report.non_minimal += n;
        if (wants(kNonMinimal, key))
            offer(kNonMinimal, key,
                  {sn, 0, d,
                   "non-minimal: LID " + std::to_string(d) + " from " + node_label(f_, sn) + " takes " +
                       std::to_string(got) + " switch hops, shortest is " + std::to_string(shortest)});
    }
    count_[static_cast<std::size_t>(got)] += (std::uint64_t{sw_src} << 32) | ca_src;
}

PathReport merge_paths(const std::vector<const PathTracer *> &parts) {
    PathReport r;
    std::vector<PathExample> examples;
    for (const PathTracer *p : parts) {
        r.pairs += p->report.pairs;
        r.unreachable += p->report.unreachable;
        r.switch_unreachable += p->report.switch_unreachable;
        r.loops += p->report.loops;
        r.non_minimal += p->report.non_minimal;
        r.unreachable_in_fabric += p->report.unreachable_in_fabric;
        r.max_hops = std::max(r.max_hops, p->report.max_hops);
        const auto &h = p->report.hop_histogram;
        if (r.hop_histogram.size() < h.size()) r.hop_histogram.resize(h.size(), 0);
        for (std::size_t i = 0; i < h.size(); ++i) r.hop_histogram[i] += h[i];
    }
    auto by_key = [](const PathExample &a, const PathExample &b) { return a.key < b.key; };
    for (int k = 0; k < PathTracer::kKinds; ++k) {
        std::vector<PathExample> all;
        for (const PathTracer *p : parts) all.insert(all.end(), p->examples[k].begin(), p->examples[k].end());
        std::sort(all.begin(), all.end(), by_key);
        if (all.size() > PathTracer::kExamples) all.resize(PathTracer::kExamples);
        examples.insert(examples.end(), all.begin(), all.end());
    }
    std::sort(examples.begin(), examples.end(), by_key);
    for (PathExample &e : examples) r.examples.push_back(std::move(e.issue));
    std::uint64_t delivered = 0, links = 0;
    for (std::size_t i = 0; i < r.hop_histogram.size(); ++i) {
        delivered += r.hop_histogram[i];
        links += r.hop_histogram[i] * i;
    }
    r.mean_hops = delivered ? static_cast<double>(links) / static_cast<double>(delivered) : 0.0;
    return r;
}

}  // namespace verify

PathReport trace_paths(const Fabric &f, const RoutingTables &t, const ProgressFn &progress,
                       unsigned threads) {
    return verify::run_checks(f, t, progress, threads, true, false).paths;
}

}  // namespace weft::routing
