#include <gtest/gtest.h>

#include <map>
#include <set>

#include "weft/routing/generators.hpp"
#include "weft/routing/topology_io.hpp"

namespace weft::routing {
namespace {

struct Counts {
    std::size_t switches = 0, hosts = 0, switch_links = 0, host_links = 0;
    std::map<unsigned, std::size_t> switch_degree;  // cabled switch-to-switch ports -> switches
};

Counts count(const Fabric &f) {
    Counts c;
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const Node &x = f.node(n);
        if (x.is_switch())
            ++c.switches;
        else
            ++c.hosts;
        unsigned deg = 0;
        for (PortNum p = 1; p <= x.num_ports; ++p) {
            const Port &pp = f.port(n, p);
            if (pp.peer == kNoNode) continue;
            const bool sw = f.node(pp.peer).is_switch();
            if (x.is_switch() && sw) {
                ++deg;
                if (pp.peer > n || (pp.peer == n && pp.peer_port > p)) ++c.switch_links;
            } else if (x.is_switch()) {
                ++c.host_links;
            }
        }
        if (x.is_switch()) ++c.switch_degree[deg];
    }
    return c;
}

TEST(Generators, SeedTable2FatTrees) {
    // Seed 002, Table 2: 36-port fat trees.
    struct Row {
        const char *spec;
        std::size_t hosts, switches;
    } rows[] = {{"ft36:hosts=324", 324, 36}, {"ft36:hosts=648", 648, 54}, {"ftree:k=36,n=2", 648, 54}};
    for (auto r : rows) {
        const Fabric f = generate(r.spec);
        const Counts c = count(f);
        EXPECT_EQ(c.hosts, r.hosts) << r.spec;
        EXPECT_EQ(c.switches, r.switches) << r.spec;
        for (NodeIdx s : f.switches()) EXPECT_EQ(f.node(s).num_ports, 36) << r.spec;
    }
    const Counts big = count(generate("ft36:hosts=5832"));
    EXPECT_EQ(big.hosts, 5832u);
    EXPECT_EQ(big.switches, 972u);
    const Counts biggest = count(generate("ftree:k=36,n=3"));
    EXPECT_EQ(biggest.hosts, 11664u);
    EXPECT_EQ(biggest.switches, 1620u);
    // Every switch of the maximal tree uses all 36 ports.
    EXPECT_EQ(biggest.switch_links * 2 + biggest.host_links, 1620u * 36);
}

TEST(Generators, XgftInSeed002Notation) {
    // Seed 002, Table 4: XGFT(2;8,4;4,1) has 32 nodes and 12 switches, XGFT(3;8,4,4;4,4,1) 128/80.
    Counts a = count(generate("xgft:n=2;m=8,4;w=4,1"));
    EXPECT_EQ(a.hosts, 32u);
    EXPECT_EQ(a.switches, 12u);
    Counts b = count(generate("xgft:n=3;m=8,4,4;w=4,4,1"));
    EXPECT_EQ(b.hosts, 128u);
    EXPECT_EQ(b.switches, 80u);
    Counts c = count(generate("xgft:n=3;m=16,8,8;w=8,8,1"));
    EXPECT_EQ(c.hosts, 1024u);
    EXPECT_EQ(c.switches, 320u);
}

TEST(Generators, PgftParallelLinksAndKaryN) {
    // PGFT(2; 4,4; 1,2; 1,2): 16 hosts, 4 leaves, 2 roots, 2 cables per leaf-root pair.
    const Fabric f = generate("pgft:h=2;m=4,4;w=1,2;p=1,2");
    const Counts c = count(f);
    EXPECT_EQ(c.hosts, 16u);
    EXPECT_EQ(c.switches, 6u);
    EXPECT_EQ(c.switch_links, 16u);
    const Counts k = count(generate("kary:k=4,n=3"));
    EXPECT_EQ(k.hosts, 64u);
    EXPECT_EQ(k.switches, 48u);  // n * k^(n-1)
    EXPECT_EQ(k.switch_links, 128u);
}

TEST(Generators, MeshTorusHypercube) {
    const Counts t = count(generate("torus:4x4x4,hosts=2"));
    EXPECT_EQ(t.switches, 64u);
    EXPECT_EQ(t.hosts, 128u);
    EXPECT_EQ(t.switch_links, 192u);
    EXPECT_EQ(t.switch_degree.at(6), 64u);
    const Counts m = count(generate("mesh:3x3"));
    EXPECT_EQ(m.switch_links, 12u);
    EXPECT_EQ(m.switch_degree.at(2), 4u);  // corners
    EXPECT_EQ(m.switch_degree.at(4), 1u);  // centre
    const Counts h = count(generate("hypercube:d=5,hosts=1"));
    EXPECT_EQ(h.switches, 32u);
    EXPECT_EQ(h.switch_links, 80u);
    EXPECT_EQ(h.switch_degree.at(5), 32u);
}

TEST(Generators, NoMoreLidOwnersThanTheLidSpaceHolds) {
    // A switch and every host port take a LID: more than 49151 could never be routed, so the
    // generators refuse before building (mesh:250x250 once built 125000 nodes).
    for (const char *spec : {"mesh:250x250,hosts=1", "torus:100x100x100,hosts=0", "hypercube:d=16,hosts=0",
                             "dragonfly:a=100,p=10,h=100", "dfplus:groups=100,leaves=100,spines=10,hosts=10",
                             "random:switches=30000,degree=4,hosts=1", "kary:k=20,n=4"}) {
        try {
            generate(spec);
            ADD_FAILURE() << spec;
        } catch (const ParseError &e) {
            EXPECT_NE(std::string(e.what()).find("of the unicast LID space"), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(generate("ftree:k=254,n=2").switch_count(), 381u);  // 32639 LIDs: fits
}

TEST(Generators, DragonflyAndDragonflyPlus) {
    const Fabric f = generate("dragonfly:a=4,p=2,h=2");
    const Counts c = count(f);
    EXPECT_EQ(c.switches, 36u);  // g = a*h + 1 = 9 groups of 4
    EXPECT_EQ(c.hosts, 72u);
    EXPECT_EQ(c.switch_links, 9u * 6 + 36);  // local all-to-all + one cable per group pair
    EXPECT_EQ(c.switch_degree.at(5), 36u);   // a-1 local + h global
    const Counts p = count(generate("dfplus:groups=5,leaves=3,spines=2,hosts=4"));
    EXPECT_EQ(p.switches, 25u);
    EXPECT_EQ(p.hosts, 60u);
    EXPECT_EQ(p.switch_links, 5u * 6 + 10);
}

TEST(Generators, RandomRegularIsSimpleConnectedAndSeeded) {
    const Fabric f = generate("random:switches=64,degree=8,hosts=4,seed=7");
    const Counts c = count(f);
    EXPECT_EQ(c.switches, 64u);
    EXPECT_EQ(c.hosts, 256u);
    EXPECT_EQ(c.switch_degree.size(), 1u);
    EXPECT_EQ(c.switch_degree.at(8), 64u);
    for (NodeIdx s : f.switches()) {
        std::set<NodeIdx> peers;
        for (PortNum p = 1; p <= 8; ++p) {
            EXPECT_NE(f.port(s, p).peer, s);
            EXPECT_TRUE(peers.insert(f.port(s, p).peer).second) << "parallel link";
        }
    }
    EXPECT_EQ(write_topology_json(f),
              write_topology_json(generate("random:switches=64,degree=8,hosts=4,seed=7")));
    EXPECT_NE(write_topology_json(f),
              write_topology_json(generate("random:switches=64,degree=8,hosts=4,seed=8")));
}

TEST(Generators, SeededFailures) {
    const Fabric base = generate("kary:k=4,n=3");
    const Fabric a = generate("kary:k=4,n=3/fail-links=5,seed=3");
    EXPECT_EQ(count(a).switch_links, count(base).switch_links - 5);
    EXPECT_EQ(write_topology_json(a), write_topology_json(generate("kary:k=4,n=3/fail-links=5,seed=3")));
    EXPECT_NE(write_topology_json(a), write_topology_json(generate("kary:k=4,n=3/fail-links=5,seed=4")));
    // A failed leaf takes its hosts with it (they are no longer reachable from the rest).
    FailureParams p;
    p.switches = 1;
    p.seed = 11;
    const Fabric b = apply_failures(base, p);
    const Counts cb = count(b);
    EXPECT_EQ(cb.switches, 47u);
    EXPECT_TRUE(cb.hosts == 64u || cb.hosts == 60u);
    // The survivors keep their GUIDs.
    for (NodeIdx n = 0; n < b.node_count(); ++n) EXPECT_TRUE(base.find_guid(b.node(n).guid).has_value());
}

TEST(Generators, GuidsFollowIbsimConvention) {
    const Fabric f = generate("kary:k=2,n=2");
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const Node &x = f.node(n);
        if (x.is_switch()) continue;
        EXPECT_EQ(f.port(n, 1).guid, x.guid + 1);
        EXPECT_EQ(x.desc.find_first_of("#@\" "), std::string::npos);
    }
}

}  // namespace
}  // namespace weft::routing
