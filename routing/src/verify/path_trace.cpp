// Tracing every (source, destination LID) pair through the LFTs, per destination.
#include <algorithm>
#include <optional>
#include <tuple>

#include "dest_walk.hpp"
#include "lid_chunks.hpp"
#include "switch_distances.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

constexpr std::size_t kExamples = 5;
// Per thread, for the 64-root batches of switch distances.
constexpr std::size_t kDistanceBudget = std::size_t{64} << 20;

enum Kind { kUnreachable, kLoop, kNonMinimal, kKinds };

// Examples are the first few of each kind in the order (owner switch, LID, source switch).
using ExampleKey = std::tuple<SwitchIdx, Lid, SwitchIdx>;
struct Example {
    ExampleKey key;
    PathIssue issue;
};

// One thread's share of the report.
struct Partial {
    PathReport r;
    std::vector<Example> examples[kKinds];  // each sorted by key, at most kExamples
    bool wants(Kind k, const ExampleKey &key) const {
        return examples[k].size() < kExamples || key < examples[k].back().key;
    }
    void offer(Kind k, const ExampleKey &key, PathIssue issue) {
        auto &v = examples[k];
        const auto at = std::upper_bound(v.begin(), v.end(), key,
                                         [](const ExampleKey &a, const Example &b) { return a < b.key; });
        v.insert(at, {key, std::move(issue)});
        if (v.size() > kExamples) v.pop_back();
    }
};

class Tracer {
  public:
    Tracer(const Fabric &f, const RoutingTables &t) : f_(f), w_(f, t), dist_(f, kDistanceBudget) {
        sources_ = f.switch_count();
        for (auto c : w_.ca_sources) sources_ += c;
    }
    void trace(Lid d, Partial &p);

  private:
    void odd_switch(Lid d, SwitchIdx s, std::uint32_t sw_src, std::uint32_t ca_src, std::uint32_t shortest,
                    Partial &p);

    const Fabric &f_;
    verify::DestWalker w_;
    verify::SwitchDistances dist_;
    std::uint64_t sources_ = 0;         // switches and CA ports: sources of every destination but itself
    std::vector<std::uint64_t> count_;  // delivered sources per distance (see trace)
};

void Tracer::trace(Lid d, Partial &p) {
    if (!w_.walk(d, false)) return;  // owner not cabled: nothing to route to
    const SwitchIdx osw = w_.owner_switch;
    if (osw == kNoSwitch) return;  // a CA cabled straight to another CA: only its peer reaches it
    const bool to_switch = f_.node(w_.owner.node).is_switch();
    const std::uint32_t *shortest = dist_.from(osw);
    p.r.pairs += sources_ - 1;
    const std::size_t S = f_.switch_count();
    // Delivered minimally, per distance: switch sources in the high half, CA sources in the low
    // half (fewer than 2^32 each). Two tables, so neighbouring switches at one distance do not
    // wait on each other's increment.
    const std::size_t levels = static_cast<std::size_t>(w_.max_dist) + 1;
    count_.assign(2 * levels, 0);
    std::uint64_t *even = count_.data(), *odd = even + levels;
    const std::int32_t *dist = w_.dist.data();
    const std::uint32_t *ca = w_.ca_sources.data();
    for (SwitchIdx s = 0; s < S; ++s) {
        const std::int32_t got = dist[s];
        if (got >= 0 && static_cast<std::uint32_t>(got) == shortest[s] && s != osw) {
            (s & 1 ? odd : even)[got] += (std::uint64_t{1} << 32) | ca[s];
        } else {
            // The destination itself is no source: the switch, or one of the CA ports at osw.
            const std::uint32_t sw_src = to_switch && s == osw ? 0 : 1;
            const std::uint32_t ca_src = ca[s] - (!to_switch && s == osw ? 1 : 0);
            odd_switch(d, s, sw_src, ca_src, shortest[s], p);
        }
    }
    // Links per path: the switch hops, the cable to a CA destination, and a CA source's own cable.
    const unsigned base = to_switch ? 0 : 1;
    auto add = [&](unsigned links, std::uint64_t count) {
        if (!count) return;
        if (p.r.hop_histogram.size() <= links) p.r.hop_histogram.resize(links + 1, 0);
        p.r.hop_histogram[links] += count;
        p.r.max_hops = std::max(p.r.max_hops, links);
    };
    for (std::size_t g = 0; g < levels; ++g) {
        const std::uint64_t c = even[g] + odd[g];
        add(static_cast<unsigned>(g) + base, c >> 32);
        add(static_cast<unsigned>(g) + base + 1, c & 0xFFFFFFFFu);
    }
}

// A switch whose sources are not delivered minimally (or the destination's own switch).
void Tracer::odd_switch(Lid d, SwitchIdx s, std::uint32_t sw_src, std::uint32_t ca_src,
                        std::uint32_t shortest, Partial &p) {
    const std::uint64_t n = sw_src + ca_src;
    if (!n) return;
    if (shortest == verify::SwitchDistances::kFar) {
        p.r.unreachable_in_fabric += n;
        return;
    }
    const ExampleKey key{w_.owner_switch, d, s};
    const NodeIdx sn = f_.switch_node(s);
    const std::int32_t got = w_.dist[s];
    if (got == verify::kDropped) {
        p.r.unreachable += ca_src;
        p.r.switch_unreachable += sw_src;
        if (p.wants(kUnreachable, key)) {
            SwitchIdx x = s;  // where it drops
            while (w_.next_of(x) != kNoSwitch) x = w_.next_of(x);
            p.offer(kUnreachable, key,
                    {sn, 0, d,
                     "unreachable: LID " + std::to_string(d) + " dropped at " +
                         verify::node_label(f_, f_.switch_node(x)) +
                         (w_.out_of(x) == kNoPort ? " (no LFT entry)"
                                                  : " (port " + std::to_string(w_.out_of(x)) + ")")});
        }
        return;
    }
    if (got == verify::kLooped) {
        p.r.loops += n;
        if (p.wants(kLoop, key))
            p.offer(kLoop, key,
                    {sn, 0, d, "loop: LID " + std::to_string(d) + " from " + verify::node_label(f_, sn)});
        return;
    }
    if (static_cast<std::uint32_t>(got) > shortest) {
        p.r.non_minimal += n;
        if (p.wants(kNonMinimal, key))
            p.offer(
                kNonMinimal, key,
                {sn, 0, d,
                 "non-minimal: LID " + std::to_string(d) + " from " + verify::node_label(f_, sn) + " takes " +
                     std::to_string(got) + " switch hops, shortest is " + std::to_string(shortest)});
    }
    count_[static_cast<std::size_t>(got)] += (std::uint64_t{sw_src} << 32) | ca_src;
}

}  // namespace

PathReport trace_paths(const Fabric &f, const RoutingTables &t, const ProgressFn &progress,
                       unsigned threads) {
    const unsigned n = verify::check_threads(threads, f);
    std::vector<Partial> parts(n);
    std::vector<std::optional<Tracer>> tracers(n);
    verify::for_lid_chunks(f, n, progress, [&](unsigned worker, Lid first, Lid last) {
        if (!tracers[worker]) tracers[worker].emplace(f, t);
        for (Lid d = first; d <= last; ++d) tracers[worker]->trace(d, parts[worker]);
    });
    PathReport r;
    std::vector<Example> examples;
    for (Partial &p : parts) {
        r.pairs += p.r.pairs;
        r.unreachable += p.r.unreachable;
        r.switch_unreachable += p.r.switch_unreachable;
        r.loops += p.r.loops;
        r.non_minimal += p.r.non_minimal;
        r.unreachable_in_fabric += p.r.unreachable_in_fabric;
        r.max_hops = std::max(r.max_hops, p.r.max_hops);
        if (r.hop_histogram.size() < p.r.hop_histogram.size())
            r.hop_histogram.resize(p.r.hop_histogram.size(), 0);
        for (std::size_t i = 0; i < p.r.hop_histogram.size(); ++i) r.hop_histogram[i] += p.r.hop_histogram[i];
    }
    for (int k = 0; k < kKinds; ++k) {
        std::vector<Example> all;
        for (Partial &p : parts) all.insert(all.end(), p.examples[k].begin(), p.examples[k].end());
        std::sort(all.begin(), all.end(), [](const Example &a, const Example &b) { return a.key < b.key; });
        if (all.size() > kExamples) all.resize(kExamples);
        examples.insert(examples.end(), all.begin(), all.end());
    }
    std::sort(examples.begin(), examples.end(),
              [](const Example &a, const Example &b) { return a.key < b.key; });
    for (Example &e : examples) r.examples.push_back(std::move(e.issue));
    std::uint64_t delivered = 0, links = 0;
    for (std::size_t i = 0; i < r.hop_histogram.size(); ++i) {
        delivered += r.hop_histogram[i];
        links += r.hop_histogram[i] * i;
    }
    r.mean_hops = delivered ? static_cast<double>(links) / static_cast<double>(delivered) : 0.0;
    return r;
}

}  // namespace weft::routing
