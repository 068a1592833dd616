// The incremental acyclic CDG against a from-scratch cycle search: random turns on a random
// fabric, tried as attempts of a few edges each. Every attempt's verdict must be the one
// find_cycle() gives on the kept edges plus the attempt's, so the remembered cycle-closers, the
// two-way search and the order repairs never accept a cycle nor refuse an acyclic union.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "ars/acyclic_cdg.hpp"
#include "verify/dependency_graph.hpp"
#include "weft/routing/generators.hpp"

namespace weft::routing {
namespace {

struct Turn {
    std::uint32_t from;
    unsigned vl_in, vl_out;
    PortNum out;
};

// Channels between switches, and a random turn at the far end of one of them.
struct Turns {
    const Fabric &f;
    const verify::ChannelMap &m;
    unsigned vls;
    std::vector<std::uint32_t> channels;
    Turns(const Fabric &fab, const verify::ChannelMap &map, unsigned v) : f(fab), m(map), vls(v) {
        for (std::uint32_t c = 0; c < m.size(); ++c)
            if (m.far[c] != kNoNode && f.node(m.node[c]).is_switch()) channels.push_back(c);
    }
    Turn random(std::mt19937_64 &rng) const { return from(channels[rng() % channels.size()], rng); }
    // A turn out of channel c, to a random switch port at its far end.
    Turn from(std::uint32_t c, std::mt19937_64 &rng) const {
        const NodeIdx sw = m.far[c];
        for (;;) {
            const auto p = static_cast<PortNum>(1 + rng() % f.node(sw).num_ports);
            const Port &x = f.port(sw, p);
            if (!x.linked() || !f.node(x.peer).is_switch()) continue;
            return {c, static_cast<unsigned>(rng() % vls), static_cast<unsigned>(rng() % vls), p};
        }
    }
    // A packet's walk: each turn starts on the channel the previous one took. Often closes a
    // cycle of its own, which is what makes a refused edge not a cycle-closer for good.
    void walk(std::mt19937_64 &rng, unsigned n, std::vector<Turn> &out) const {
        Turn t = random(rng);
        out.push_back(t);
        while (out.size() < n) {
            t = from(f.node(m.far[t.from]).port_base + t.out, rng);
            out.push_back(t);
        }
    }
};

bool acyclic_with(const Fabric &f, const verify::ChannelMap &m, unsigned vls, const std::vector<Turn> &kept,
                  const std::vector<Turn> &more) {
    verify::DependencyGraph g(f, vls, m.size());
    for (const auto *list : {&kept, &more})
        for (const Turn &t : *list) g.add(t.from, t.vl_in, t.vl_out, t.out);
    return g.find_cycle(m).empty();
}

void check_random_attempts(const std::string &spec, unsigned vls, std::uint64_t seed) {
    const Fabric f = generate(spec);
    const verify::ChannelMap m(f);
    const Turns turns(f, m, vls);
    std::mt19937_64 rng(seed);
    ars::AcyclicCdg cdg(f, m, vls);
    std::vector<Turn> kept;
    // A first batch known acyclic goes in unordered (as the engine's routes do) and is sorted.
    while (kept.size() < turns.channels.size() / 2) {
        const Turn t = turns.random(rng);
        if (acyclic_with(f, m, vls, kept, {t})) kept.push_back(t);
    }
    for (const Turn &t : kept) cdg.add_unordered(t.from, t.vl_in, t.vl_out, t.out);
    ASSERT_TRUE(cdg.sort());
    unsigned accepted = 0, refused = 0;
    std::vector<Turn> attempt;
    auto judge = [&](const std::vector<Turn> &edges) {
        const bool expect = acyclic_with(f, m, vls, kept, edges);
        cdg.begin();
        bool staged = true;
        for (const Turn &t : edges)
            if (!(staged = cdg.stage(t.from, t.vl_in, t.vl_out, t.out))) break;
        const bool got = staged && cdg.commit();
        EXPECT_EQ(got, expect);
        if (got) {
            kept.insert(kept.end(), edges.begin(), edges.end());
            ++accepted;
        } else {
            ++refused;
        }
        return got;
    };
    for (int i = 0; i < 3000 && !testing::Test::HasFailure(); ++i) {
        attempt.clear();
        const unsigned n = 1 + static_cast<unsigned>(rng() % 6);
        if (i % 2)
            turns.walk(rng, n, attempt);
        else
            for (unsigned k = 0; k < n; ++k) attempt.push_back(turns.random(rng));
        // A refused attempt's edges, each alone, may well be fine: the last first, as the one
        // that closed a cycle through the attempt's own edges must not be refused for good.
        if (!judge(attempt))
            for (auto t = attempt.rbegin(); t != attempt.rend(); ++t) judge({*t});
    }
    // The graph holds exactly the kept edges.
    verify::DependencyGraph want(f, vls, m.size());
    for (const Turn &t : kept) want.add(t.from, t.vl_in, t.vl_out, t.out);
    EXPECT_EQ(cdg.graph().edges(), want.edges());
    for (const Turn &t : kept) EXPECT_TRUE(cdg.graph().has(t.from, t.vl_in, t.vl_out, t.out));
    EXPECT_GT(accepted, 50u);
    EXPECT_GT(refused, 50u);
}

TEST(AcyclicCdg, AttemptsAgreeWithAFreshCycleSearchOnOneVl) {
    check_random_attempts("random:switches=24,degree=4,hosts=1,seed=5", 1, 1);
}

TEST(AcyclicCdg, AttemptsAgreeWithAFreshCycleSearchOnThreeVls) {
    check_random_attempts("random:switches=16,degree=5,hosts=1,seed=9", 3, 2);
}

TEST(AcyclicCdg, SortFindsACycleInAnUnorderedBatch) {
    const Fabric f = generate("torus:4,hosts=1");  // a ring of four switches
    const verify::ChannelMap m(f);
    ars::AcyclicCdg cdg(f, m, 1);
    // Round the ring one way: each channel into a switch waits for the next one out.
    std::vector<Turn> ring;
    for (std::uint32_t c = 0; c < m.size(); ++c) {
        if (m.far[c] == kNoNode || !f.node(m.node[c]).is_switch()) continue;
        const NodeIdx sw = m.far[c];
        for (PortNum p = 1; p <= f.node(sw).num_ports; ++p) {
            const Port &x = f.port(sw, p);
            if (x.linked() && f.node(x.peer).is_switch() && x.peer != m.node[c]) ring.push_back({c, 0, 0, p});
        }
    }
    ASSERT_FALSE(acyclic_with(f, m, 1, ring, {}));
    for (const Turn &t : ring) cdg.add_unordered(t.from, t.vl_in, t.vl_out, t.out);
    EXPECT_FALSE(cdg.sort());
}

}  // namespace
}  // namespace weft::routing
