// FIB builder, snapshot lookups, RCU publication and ECMP member selection, on real rte_fib /
// rte_fib6 tables inside an EAL started without hugepages.
#include <gtest/gtest.h>

#include <rte_fib6.h>
#include <rte_malloc.h>

#include <atomic>
#include <cstdio>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "eal_environment.hpp"
#include "nhg_selector.hpp"
#include "weft/dataplane/fib_builder.hpp"
#include "weft/dataplane/fib_publisher.hpp"

namespace weft::dataplane {
namespace {

const auto *const kEal = ::testing::AddGlobalTestEnvironment(new test::EalEnvironment("fib"));

IpPrefix pfx(const char *text) {
    auto p = IpPrefix::parse(text);
    EXPECT_TRUE(p.has_value()) << text;
    return *p;
}

IpAddr ip(const char *text) {
    return *IpAddr::parse(text);
}

rte_ether_addr mac(std::uint8_t last) {
    return rte_ether_addr{{0x02, 0, 0, 0, 0, last}};
}

std::uint64_t lookup4(const FibSnapshot &s, const char *addr) {
    std::uint32_t a = ip(addr).v4_host_order();
    std::uint64_t nh = 0;
    s.lookup4(&a, &nh, 1);
    return nh;
}

std::uint64_t lookup6(const FibSnapshot &s, const char *addr) {
    std::uint8_t a[1][16];
    const IpAddr x = ip(addr);
    std::copy(x.bytes.begin(), x.bytes.end(), a[0]);
    std::uint64_t nh = 0;
    s.lookup6(a, &nh, 1);
    return nh;
}

FibConfig small_config() {
    FibConfig c;
    c.num_ports = 8;
    c.max_routes4 = 1024;
    c.tbl8_groups4 = 64;
    c.max_routes6 = 1024;
    c.tbl8_groups6 = 256;
    return c;
}

TEST(IpPrefix, Parse) {
    EXPECT_EQ(pfx("10.0.0.0/8").to_string(), "10.0.0.0/8");
    EXPECT_EQ(pfx("2001:db8::/32").to_string(), "2001:db8::/32");
    EXPECT_EQ(pfx("0.0.0.0/0").len, 0);
    EXPECT_EQ(pfx("192.0.2.1").len, 32);
    EXPECT_EQ(pfx("2001:db8::1").len, 128);
    // Host bits set: refused, as iproute2 does, saying what the prefix would be.
    std::string why;
    EXPECT_FALSE(IpPrefix::parse("10.1.2.3/8", &why));
    EXPECT_EQ(why, "host bits are set (the prefix would be 10.0.0.0/8)");
    EXPECT_FALSE(IpPrefix::parse("2001:db8::1/32"));
    EXPECT_FALSE(IpPrefix::parse("10.0.0.0/08"));  // the length is decimal, no leading zero
    EXPECT_FALSE(IpPrefix::parse("10.0.0.0/+8"));
    EXPECT_FALSE(IpPrefix::parse(std::string_view("10.0.0.0\0/8", 11)));
    EXPECT_FALSE(IpAddr::parse(std::string_view("10.0.0.1\0junk", 13)));  // not cut at the NUL
    EXPECT_FALSE(IpPrefix::parse("10.0.0.0/33"));
    EXPECT_FALSE(IpPrefix::parse("10.0.0/8"));
    EXPECT_FALSE(IpPrefix::parse("10.0.0.0/"));
    EXPECT_FALSE(IpPrefix::parse("::/129"));
    EXPECT_FALSE(IpPrefix::parse("10.0.0.0/8x"));
}

TEST(FibBuilder, RefusalsChangeNothing) {
    FibBuilder b(small_config());
    EXPECT_FALSE(b.add_route(pfx("10.0.0.0/8"), 1).ok());  // nhg 1 missing
    EXPECT_TRUE(b.routes().empty());
    EXPECT_FALSE(b.set_nhg(1, {{9, {}}}).ok());  // port 9 of 8
    EXPECT_FALSE(b.set_nhg(1, {}).ok());
    EXPECT_TRUE(b.nhgs().empty());
    ASSERT_TRUE(b.set_nhg(1, {{0, {}}, {1, {}}}).ok());
    ASSERT_TRUE(b.add_route(pfx("10.0.0.0/8"), 1).ok());
    EXPECT_FALSE(b.del_nhg(1).ok());  // still routed to
    EXPECT_EQ(b.nhgs().size(), 1u);
    EXPECT_FALSE(b.del_route(pfx("11.0.0.0/8")).ok());
    EXPECT_FALSE(b.set_lft_port(0, 1).ok());
    EXPECT_FALSE(b.set_lft_port(0xC000, 1).ok());
    EXPECT_FALSE(b.set_lft_nhg(5, 2).ok());
    EXPECT_FALSE(b.set_mft(0xBFFF, 1).ok());
    EXPECT_FALSE(b.set_mft(0xFFFF, 1).ok());
    EXPECT_FALSE(b.set_mft(0xC000, 1u << 8).ok());
    EXPECT_FALSE(b.set_sl2vl(0, 16, 0).ok());
    EXPECT_FALSE(b.set_sl2vl(0, 1, 15).ok());
    EXPECT_FALSE(
        b.set_neighbour(ip("10.0.0.2"), rte_ether_addr{{1, 0, 0, 0, 0, 1}}, 0).ok());  // multicast MAC
    auto s = b.build();
    EXPECT_EQ(s->lft(5).kind, LftTarget::Kind::None);
    EXPECT_EQ(s->mft(0xC000), 0u);
    EXPECT_EQ(s->sl2vl(0, 1), 1);
    ASSERT_TRUE(b.del_route(pfx("10.0.0.0/8")).ok());
    EXPECT_TRUE(b.del_nhg(1).ok());
}

TEST(FibBuilder, LongestPrefixMatchV4) {
    FibBuilder b(small_config());
    for (std::uint32_t id : {10u, 20u, 30u})
        ASSERT_TRUE(b.set_nhg(id, {{static_cast<std::uint16_t>(id / 10), {}}}).ok());
    ASSERT_TRUE(b.add_route(pfx("10.0.0.0/8"), 10).ok());
    ASSERT_TRUE(b.add_route(pfx("10.1.0.0/16"), 20).ok());
    ASSERT_TRUE(b.add_route(pfx("10.1.2.128/25"), 30).ok());  // longer than /24: a tbl8 group
    auto s = b.build();
    const auto i10 = *b.nhg_index(10), i20 = *b.nhg_index(20), i30 = *b.nhg_index(30);
    EXPECT_EQ(lookup4(*s, "10.9.9.9"), i10);
    EXPECT_EQ(lookup4(*s, "10.1.9.9"), i20);
    EXPECT_EQ(lookup4(*s, "10.1.2.127"), i20);
    EXPECT_EQ(lookup4(*s, "10.1.2.200"), i30);
    EXPECT_EQ(lookup4(*s, "11.0.0.1"), kNoRoute);
    ASSERT_NE(s->nhg(static_cast<std::uint32_t>(i30)), nullptr);
    EXPECT_EQ(s->nhg(static_cast<std::uint32_t>(i30))->id, 30u);
    EXPECT_EQ(s->nhg(kNoRoute), nullptr);

    ASSERT_TRUE(b.del_route(pfx("10.1.2.128/25")).ok());
    EXPECT_EQ(lookup4(*s, "10.1.2.200"), i30);  // staged, not applied
    auto s2 = b.build();
    EXPECT_EQ(lookup4(*s2, "10.1.2.200"), i20);
    EXPECT_EQ(lookup4(*s, "10.1.2.200"), i20);  // the tables are one pair, changed in place
    EXPECT_GT(s2->generation(), s->generation());
}

TEST(FibBuilder, LongestPrefixMatchV6) {
    FibBuilder b(small_config());
    ASSERT_TRUE(b.set_nhg(1, {{1, {}}}).ok());
    ASSERT_TRUE(b.set_nhg(2, {{2, {}}}).ok());
    ASSERT_TRUE(b.add_route(pfx("2001:db8::/32"), 1).ok());
    ASSERT_TRUE(b.add_route(pfx("2001:db8:1:2::/64"), 2).ok());
    auto s = b.build();
    EXPECT_EQ(lookup6(*s, "2001:db8:ffff::1"), *b.nhg_index(1));
    EXPECT_EQ(lookup6(*s, "2001:db8:1:2::99"), *b.nhg_index(2));
    EXPECT_EQ(lookup6(*s, "2001:db9::1"), kNoRoute);
    EXPECT_EQ(lookup4(*s, "32.1.13.184"), kNoRoute);  // v6 routes never leak into the v4 table
}

TEST(FibBuilder, MembersResolveThroughNeighbours) {
    FibBuilder b(small_config());
    ASSERT_TRUE(b.set_neighbour(ip("10.0.0.2"), mac(0x22), 1).ok());
    ASSERT_TRUE(b.set_neighbour(ip("10.0.1.2"), mac(0x33), 2).ok());
    ASSERT_TRUE(b.set_neighbour(ip("10.0.1.9"), mac(0x39), 2).ok());
    // port 1 by its peer, port 2 via a named neighbour, port 3 without any neighbour.
    ASSERT_TRUE(b.set_nhg(7, {{1, {}}, {2, ip("10.0.1.9")}, {3, {}}}).ok());
    auto s = b.build();
    const NhgEntry *e = s->nhg(*b.nhg_index(7));
    ASSERT_NE(e, nullptr);
    const auto m = s->members(*e);
    ASSERT_EQ(m.size(), 3u);
    EXPECT_TRUE(m[0].resolved);
    EXPECT_EQ(m[0].dst_mac.addr_bytes[5], 0x22);
    EXPECT_TRUE(m[1].resolved);
    EXPECT_EQ(m[1].dst_mac.addr_bytes[5], 0x39);
    EXPECT_FALSE(m[2].resolved);
    // A new neighbour resolves port 3 in the next snapshot; the old one keeps its members.
    ASSERT_TRUE(b.set_neighbour(ip("10.0.3.2"), mac(0x44), 3).ok());
    auto s2 = b.build();
    EXPECT_TRUE(s2->members(*s2->nhg(*b.nhg_index(7)))[2].resolved);
    EXPECT_FALSE(s->members(*s->nhg(*b.nhg_index(7)))[2].resolved);
}

TEST(FibBuilder, MembersNameNeighboursThatExistOnTheirPort) {
    FibBuilder b(small_config());
    ASSERT_TRUE(b.set_neighbour(ip("10.0.0.2"), mac(0x22), 1).ok());
    ASSERT_TRUE(b.set_neighbour(ip("10.0.1.2"), mac(0x33), 2).ok());
    const Status missing = b.set_nhg(7, {{1, ip("10.0.0.9")}});
    EXPECT_FALSE(missing.ok());
    EXPECT_NE(missing.message().find("no neighbour 10.0.0.9"), std::string::npos) << missing.message();
    const Status elsewhere = b.set_nhg(7, {{2, {}}, {2, ip("10.0.0.2")}});
    EXPECT_FALSE(elsewhere.ok());
    EXPECT_NE(elsewhere.message().find("is on port 1, not on port 2"), std::string::npos)
        << elsewhere.message();
    EXPECT_TRUE(b.nhgs().empty());
    EXPECT_FALSE(b.nhg_index(7));
}

TEST(FibBuilder, ANeighbourAGroupUsesStays) {
    FibBuilder b(small_config());
    ASSERT_TRUE(b.set_neighbour(ip("10.0.0.2"), mac(0x22), 1).ok());
    ASSERT_TRUE(b.set_neighbour(ip("10.0.1.2"), mac(0x33), 2).ok());
    ASSERT_TRUE(b.set_neighbour(ip("10.0.1.9"), mac(0x39), 2).ok());
    ASSERT_TRUE(b.set_neighbour(ip("10.0.3.2"), mac(0x44), 3).ok());
    ASSERT_TRUE(b.set_nhg(7, {{1, {}}, {2, ip("10.0.1.9")}}).ok());
    // Named by a member; the peer (lowest address) of a port a member uses without `via`.
    for (const char *used : {"10.0.1.9", "10.0.0.2"}) {
        const Status s = b.del_neighbour(ip(used));
        EXPECT_FALSE(s.ok()) << used;
        EXPECT_NE(s.message().find("used by nhg 7"), std::string::npos) << s.message();
        EXPECT_FALSE(b.set_neighbour(ip(used), mac(0x55), 4).ok()) << used;  // moving it away
    }
    EXPECT_EQ(b.neighbours().at(NeighbourKey{ip("10.0.1.9")}).port, 2);
    EXPECT_TRUE(b.set_neighbour(ip("10.0.1.9"), mac(0x3a), 2).ok());  // a new MAC on the same port
    EXPECT_TRUE(b.del_neighbour(ip("10.0.1.2")).ok());  // port 2's peer, but no member uses the peer
    EXPECT_TRUE(b.del_neighbour(ip("10.0.3.2")).ok());  // unused
    auto s = b.build();
    EXPECT_EQ(s->members(*s->nhg(*b.nhg_index(7)))[1].dst_mac.addr_bytes[5], 0x3a);
    ASSERT_TRUE(b.del_nhg(7).ok());
    EXPECT_TRUE(b.del_neighbour(ip("10.0.1.9")).ok());
    EXPECT_TRUE(b.del_neighbour(ip("10.0.0.2")).ok());
}

// BGP unnumbered: the same IPv6 link-local address is a neighbour on two links, each with its
// own MAC, and a member takes the MAC of the one on its port.
TEST(FibBuilder, LinkLocalNeighboursAreOnePerPort) {
    FibBuilder b(small_config());
    const IpAddr ll = ip("fe80::1");
    ASSERT_TRUE(b.set_neighbour(ll, mac(0x11), 1).ok());
    ASSERT_TRUE(b.set_neighbour(ll, mac(0x22), 2).ok());  // another neighbour, not a move
    EXPECT_EQ(b.neighbours().size(), 2u);
    ASSERT_NE(b.neighbour(ll, 1), nullptr);
    EXPECT_EQ(b.neighbour(ll, 1)->mac.addr_bytes[5], 0x11);
    EXPECT_EQ(b.neighbour(ll, 2)->mac.addr_bytes[5], 0x22);
    EXPECT_EQ(b.neighbour(ll, 3), nullptr);
    EXPECT_FALSE(b.set_nhg(8, {{3, ll}}).ok());  // not a neighbour on port 3
    ASSERT_TRUE(b.set_nhg(9, {{1, ll}, {2, ll}}).ok());
    auto s = b.build();
    const auto members = s->members(*s->nhg(*b.nhg_index(9)));
    EXPECT_EQ(members[0].dst_mac.addr_bytes[5], 0x11);
    EXPECT_EQ(members[1].dst_mac.addr_bytes[5], 0x22);
    // The address alone names both: refused while a group uses either; by port, one at a time.
    EXPECT_FALSE(b.del_neighbour(ll).ok());
    ASSERT_TRUE(b.set_nhg(9, {{1, ll}}).ok());
    EXPECT_TRUE(b.del_neighbour(ll, 2).ok());
    EXPECT_FALSE(b.del_neighbour(ll, 2).ok());  // gone
    EXPECT_FALSE(b.del_neighbour(ll, 1).ok());  // used
    ASSERT_TRUE(b.del_nhg(9).ok());
    EXPECT_TRUE(b.del_neighbour(ll).ok());
    EXPECT_TRUE(b.neighbours().empty());
    // A global address stays one neighbour wherever it is.
    ASSERT_TRUE(b.set_neighbour(ip("2001:db8::1"), mac(0x33), 1).ok());
    ASSERT_TRUE(b.set_neighbour(ip("2001:db8::1"), mac(0x33), 2).ok());  // moved
    EXPECT_EQ(b.neighbours().size(), 1u);
    EXPECT_EQ(b.neighbour(ip("2001:db8::1"), 1), nullptr);
    EXPECT_NE(b.neighbour(ip("2001:db8::1"), 2), nullptr);
}

// A /25 in /24 block `i` of 10.0.0.0/8: each takes an IPv4 tbl8 group.
IpPrefix block_route(unsigned i) {
    char text[32];
    std::snprintf(text, sizeof text, "10.%u.%u.128/25", i / 256, i % 256);
    return pfx(text);
}

TEST(FibBuilder, DropGroupsHaveNoMembersAndNoLftEntry) {
    FibBuilder b(small_config());
    EXPECT_FALSE(b.set_nhg(1, {{1, {}}}, NhgMode::Drop).ok());  // a blackhole takes no member
    EXPECT_FALSE(b.set_nhg(2, {}).ok());                        // every other group needs one
    ASSERT_TRUE(b.set_nhg(3, {}, NhgMode::Drop).ok());
    ASSERT_TRUE(b.add_route(*IpPrefix::parse("10.9.0.0/16"), 3).ok());
    EXPECT_FALSE(b.set_lft_nhg(5, 3).ok());
    auto s = b.build();
    const NhgEntry *e = s->nhg(static_cast<std::uint32_t>(lookup4(*s, "10.9.1.1")));
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->mode, NhgMode::Drop);
    EXPECT_EQ(e->member_count, 0u);
    EXPECT_STREQ(nhg_mode_name(e->mode), "drop");
}

TEST(FibCapacity, AFullTbl8PoolRefusesOnlyTheRouteThatDoesNotFit) {
    FibConfig c = small_config();
    c.tbl8_groups4 = 63;
    FibBuilder b(c);
    ASSERT_TRUE(b.set_nhg(1, {{1, {}}}).ok());
    for (unsigned i = 0; i < 63; ++i) {
        ASSERT_TRUE(b.add_route(block_route(i), 1).ok()) << i;
        ASSERT_NO_THROW(b.build()) << i;
    }
    EXPECT_EQ(b.capacity().ipv4.tbl8_groups, 63u);
    EXPECT_EQ(b.capacity().ipv4.max_tbl8_groups, 63u);
    const Status refused = b.add_route(block_route(63), 1);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.message().find("10.0.63.128/25 does not fit"), std::string::npos) << refused.message();
    EXPECT_NE(refused.message().find("--fib4-tbl8-groups"), std::string::npos) << refused.message();
    EXPECT_EQ(b.routes().size(), 63u);
    // Everything else keeps working: a second route in a block already used, a new group and a
    // route to it, a neighbour, deleting a route.
    ASSERT_TRUE(b.add_route(pfx("10.0.5.0/25"), 1).ok());
    ASSERT_TRUE(b.set_nhg(9, {{2, {}}}).ok());
    ASSERT_TRUE(b.add_route(pfx("10.200.0.0/16"), 9).ok());
    ASSERT_TRUE(b.set_neighbour(ip("10.0.0.2"), mac(0x22), 2).ok());
    ASSERT_TRUE(b.del_route(block_route(7)).ok());
    std::unique_ptr<FibSnapshot> s;
    ASSERT_NO_THROW(s = b.build());
    EXPECT_EQ(lookup4(*s, "10.200.1.1"), *b.nhg_index(9));
    EXPECT_EQ(lookup4(*s, "10.0.5.1"), *b.nhg_index(1));
    EXPECT_EQ(lookup4(*s, "10.0.7.200"), kNoRoute);
    EXPECT_EQ(lookup4(*s, "10.0.63.200"), kNoRoute);
    ASSERT_NE(s->nhg(*b.nhg_index(9)), nullptr);
    // The block given back takes the route refused before.
    ASSERT_TRUE(b.add_route(block_route(63), 1).ok());
    ASSERT_NO_THROW(s = b.build());
    EXPECT_EQ(lookup4(*s, "10.0.63.200"), *b.nhg_index(1));
}

TEST(FibCapacity, MaxRoutesIsAHardLimitPerFamily) {
    FibConfig c = small_config();
    c.max_routes4 = 16;
    c.max_routes6 = 16;
    FibBuilder b(c);
    ASSERT_TRUE(b.set_nhg(1, {{1, {}}}).ok());
    ASSERT_TRUE(b.set_nhg(2, {{2, {}}}).ok());
    auto v4 = [](unsigned i) { return *IpPrefix::make(IpAddr::v4(0x0A000000u + (i << 16)), 16); };
    auto v6 = [](unsigned i) {
        IpAddr a = *IpAddr::parse("2001:db8::");
        a.bytes[5] = static_cast<std::uint8_t>(i);
        return *IpPrefix::make(a, 48);
    };
    for (unsigned i = 0; i < 16; ++i) {
        ASSERT_TRUE(b.add_route(v4(i), 1).ok()) << i;
        ASSERT_TRUE(b.add_route(v6(i), 1).ok()) << i;
    }
    const Status s4 = b.add_route(v4(16), 1);
    EXPECT_FALSE(s4.ok());
    EXPECT_NE(s4.message().find("holds 16 routes"), std::string::npos) << s4.message();
    EXPECT_NE(s4.message().find("--fib4-max-routes"), std::string::npos) << s4.message();
    const Status s6 = b.add_route(v6(16), 1);
    EXPECT_FALSE(s6.ok());
    EXPECT_NE(s6.message().find("--fib6-max-routes"), std::string::npos) << s6.message();
    EXPECT_TRUE(b.add_route(v4(3), 2).ok());  // another group for a route it holds
    ASSERT_NO_THROW(b.build());
    EXPECT_EQ(b.capacity().ipv4.routes, 16u);
    EXPECT_EQ(b.capacity().ipv6.routes, 16u);
    ASSERT_TRUE(b.del_route(v4(0)).ok());
    ASSERT_TRUE(b.add_route(v4(16), 1).ok());
    ASSERT_NO_THROW(b.build());
}

// Random IPv6 routes into a small pool of groups: what weft accepts, the table holds (every route
// answers for its first address); what it refuses needs more groups than are left; and the groups
// the builder counts are the groups the table links once a batch is in.
TEST(FibCapacity, Ipv6GroupsCountedAreTheGroupsTheTableHolds) {
    std::mt19937 rng(27);
    const std::uint8_t lens[] = {17, 25, 28, 32, 33, 40, 47,  48,  56, 60,
                                 64, 64, 64, 65, 72, 96, 120, 127, 128};
    unsigned refused = 0;
    for (int round = 0; round < 8; ++round) {
        FibConfig c = small_config();
        c.tbl8_groups6 = 16 + rng() % 32;
        FibBuilder b(c);
        ASSERT_TRUE(b.set_nhg(1, {{1, {}}}).ok());
        ASSERT_TRUE(b.set_nhg(2, {{2, {}}}).ok());
        for (int k = 0; k < 40; ++k) {
            IpAddr a = ip("2001:db8::");
            a.bytes[2] = static_cast<std::uint8_t>(rng() % 2);  // two /24 blocks
            for (unsigned i = 3; i < 16; ++i) a.bytes[i] = static_cast<std::uint8_t>(rng() % 3);
            const IpPrefix p = *IpPrefix::make(a, lens[rng() % sizeof lens]);
            if (b.routes().contains(p)) continue;
            const std::size_t before = b.capacity().ipv6.tbl8_groups;
            const Status s = b.add_route(p, 1 + k % 2);
            if (!s.ok()) {
                EXPECT_NE(s.message().find("--fib6-tbl8-groups"), std::string::npos) << s.message();
                EXPECT_EQ(b.capacity().ipv6.tbl8_groups, before);
                ++refused;
            }
            if (rng() % 4 == 0 && !b.routes().empty()) {
                auto victim = b.routes().begin();
                std::advance(victim, rng() % b.routes().size());
                ASSERT_TRUE(b.del_route(victim->first).ok());
            }
            if (rng() % 3 == 0) {
                auto s2 = b.build();
                EXPECT_EQ(b.capacity().ipv6.tbl8_groups, b.capacity().ipv6.tbl8_groups_linked);
                EXPECT_LE(b.capacity().ipv6.tbl8_groups, c.tbl8_groups6);
                for (const auto &[route, id] : b.routes()) {
                    std::uint8_t addr[1][16];
                    std::copy(route.addr.bytes.begin(), route.addr.bytes.end(), addr[0]);
                    std::uint64_t nh = 0;
                    s2->lookup6(addr, &nh, 1);
                    // Its first address: this route, or a longer one starting there.
                    if (route.len == 128) {
                        EXPECT_EQ(nh, *b.nhg_index(id)) << route.to_string();
                    }
                    EXPECT_NE(nh, kNoRoute) << route.to_string();
                }
            }
        }
    }
    EXPECT_GT(refused, 10u) << "the tables did not fill up";
}

// Takes DPDK's free memory down to a few MB, so that the next table cannot be allocated.
class MemoryHog {
  public:
    MemoryHog() {
        for (rte_malloc_socket_stats st{};
             rte_malloc_get_socket_stats(rte_socket_id(), &st) == 0 && st.greatest_free_size > (4u << 20);) {
            void *p = rte_malloc("hog", st.greatest_free_size - (2u << 20), 0);
            if (p == nullptr) break;
            held_.push_back(p);
        }
    }
    ~MemoryHog() {
        for (void *p : held_) rte_free(p);
    }

  private:
    std::vector<void *> held_;
};

TEST(FibBuilder, TablesThatCannotBeAllocatedAreAnError) {
    MemoryHog hog;
    EXPECT_THROW(FibBuilder b(small_config()), std::runtime_error);
}

TEST(FibBuilder, LidTables) {
    FibBuilder b(small_config());
    ASSERT_TRUE(b.set_nhg(5, {{1, {}}, {2, {}}}).ok());
    ASSERT_TRUE(b.set_lft_port(0x0010, 3).ok());
    ASSERT_TRUE(b.set_lft_nhg(0x0011, 5).ok());
    ASSERT_TRUE(b.set_mft(0xC001, 0b1011).ok());
    ASSERT_TRUE(b.set_sl2vl(2, 4, 1).ok());
    auto s = b.build();
    EXPECT_EQ(s->lft(0x0010).kind, LftTarget::Kind::Port);
    EXPECT_EQ(s->lft(0x0010).value, 3u);
    EXPECT_EQ(s->lft(0x0011).kind, LftTarget::Kind::Nhg);
    EXPECT_EQ(s->lft(0x0011).value, *b.nhg_index(5));
    EXPECT_EQ(s->lft(0x0012).kind, LftTarget::Kind::None);
    EXPECT_EQ(s->lft(0).kind, LftTarget::Kind::None);
    EXPECT_EQ(s->lft(0xC001).kind, LftTarget::Kind::None);
    EXPECT_EQ(s->mft(0xC001), 0b1011u);
    EXPECT_EQ(s->mft(0xC002), 0u);
    EXPECT_EQ(s->mft(0xFFFF), 0u);
    EXPECT_EQ(s->sl2vl(2, 4), 1);
    EXPECT_EQ(s->sl2vl(1, 4), 4);
    EXPECT_EQ(s->sl2vl(1, 15), 0);
    ASSERT_TRUE(b.clear_lft(0x0010).ok());
    ASSERT_TRUE(b.set_mft(0xC001, 0).ok());
    auto s2 = b.build();
    EXPECT_EQ(s2->lft(0x0010).kind, LftTarget::Kind::None);
    EXPECT_EQ(s2->mft(0xC001), 0u);
    EXPECT_EQ(s->lft(0x0010).kind, LftTarget::Kind::Port);
}

// An MFT entry is as wide as the build's ports: past 64 it takes more words (as a build with
// RTE_MAX_ETHPORTS 256 would have), ports listed in order.
TEST(PortMask, WiderThanOneWord) {
    BasicPortMask<256> m;
    EXPECT_TRUE(m.none());
    EXPECT_EQ(m.end(), 0u);
    for (std::uint16_t p : {0, 63, 64, 200, 255}) m.set(p);
    EXPECT_FALSE(m.none());
    EXPECT_EQ(m.end(), 256u);
    EXPECT_TRUE(m.test(200));
    EXPECT_FALSE(m.test(199));
    EXPECT_FALSE(m.test(300));
    std::vector<std::uint16_t> seen;
    m.for_each([&](std::uint16_t p) { seen.push_back(p); });
    EXPECT_EQ(seen, (std::vector<std::uint16_t>{0, 63, 64, 200, 255}));
    m.reset(255);
    m.reset(300);  // past the mask: nothing
    EXPECT_EQ(m.end(), 201u);
    EXPECT_EQ(BasicPortMask<256>(0b101).words[0], 0b101u);
    EXPECT_EQ(PortMask::kWords, (std::size_t{kMaxPorts} + 63) / 64);
}

// vLIDs (seed 002) go to the secondary LFT, as long as its highest entry needs; pLIDs and vLIDs
// with the same low bits are different entries; LIDs between the spaces and past them are refused.
TEST(FibBuilder, SecondaryLftHoldsVlids) {
    FibBuilder b(small_config());
    ASSERT_TRUE(b.set_nhg(5, {{1, {}}, {2, {}}}).ok());
    ASSERT_TRUE(b.set_lft_port(0x0010, 3).ok());
    auto s0 = b.build();
    EXPECT_EQ(s0->vlft_end(), kFirstVlid);  // no vLID: no secondary table
    EXPECT_EQ(s0->vlft(0x10010).kind, LftTarget::Kind::None);
    ASSERT_TRUE(b.set_lft_port(0x10010, 1).ok());
    ASSERT_TRUE(b.set_lft_nhg(0x3FFFF, 5).ok());
    for (std::uint32_t bad : {0xC000u, 0xFFFFu, 0x40000u, 0xFFFFFFFFu}) {
        const Status st = b.set_lft_port(bad, 1);
        EXPECT_FALSE(st.ok()) << bad;
        EXPECT_NE(st.message().find("0x10000..0x3FFFF"), std::string::npos) << st.message();
    }
    auto s = b.build();
    EXPECT_EQ(s->vlft_end(), 0x40000u);
    EXPECT_EQ(s->lft(0x0010).value, 3u);
    EXPECT_EQ(s->vlft(0x10010).kind, LftTarget::Kind::Port);
    EXPECT_EQ(s->vlft(0x10010).value, 1u);
    EXPECT_EQ(s->vlft(0x3FFFF).kind, LftTarget::Kind::Nhg);
    EXPECT_EQ(s->vlft(0x3FFFF).value, *b.nhg_index(5));
    EXPECT_EQ(s->vlft(0x10011).kind, LftTarget::Kind::None);
    EXPECT_EQ(s->vlft(0x0010).kind, LftTarget::Kind::None);  // a pLID is not in the vLID table
    EXPECT_EQ(s->lft(0x10010).kind, LftTarget::Kind::None);  // nor a vLID in the pLID table
    // What the worker forwards by: either table by the LID's space, nothing for the others.
    EXPECT_EQ(s->unicast(0x0010).value, 3u);
    EXPECT_EQ(s->unicast(0x10010).kind, LftTarget::Kind::Port);
    EXPECT_EQ(s->unicast(0x10010).value, 1u);
    EXPECT_EQ(s->unicast(0x3FFFF).kind, LftTarget::Kind::Nhg);
    for (std::uint32_t none : {0u, 0xBFFEu, 0xC000u, 0xFFFFu, 0x10011u, 0x40000u, 0xFFFFFFFFu})
        EXPECT_EQ(s->unicast(none).kind, LftTarget::Kind::None) << none;
    const auto entries = s->lft_entries();
    ASSERT_EQ(entries.size(), 3u);
    EXPECT_EQ(entries[0].lid, 0x10u);
    EXPECT_EQ(entries[1].lid, 0x10010u);
    EXPECT_EQ(entries[2].lid, 0x3FFFFu);
    EXPECT_FALSE(b.del_nhg(5).ok());  // a vLID uses it
    ASSERT_TRUE(b.clear_lft(0x3FFFF).ok());
    auto s2 = b.build();
    EXPECT_EQ(s2->vlft_end(), 0x10011u);
    EXPECT_EQ(s->vlft(0x3FFFF).kind, LftTarget::Kind::Nhg);  // the old snapshot is unchanged
}

// The switch's own LIDs: base .. base + 2^LMC - 1, unicast, the base aligned to 2^LMC; none
// (base 0) owns nothing, not even LID 0.
TEST(FibBuilder, SwitchLid) {
    FibBuilder b(small_config());
    EXPECT_FALSE(b.build()->switch_lid().owns(0));
    EXPECT_FALSE(b.set_switch_lid(0x21, 1).ok());    // not a multiple of 2
    EXPECT_FALSE(b.set_switch_lid(0x20, 8).ok());    // LMC is 0..7
    EXPECT_FALSE(b.set_switch_lid(0xBFFC, 3).ok());  // past the unicast LIDs
    EXPECT_FALSE(b.set_switch_lid(0xC000, 0).ok());
    ASSERT_TRUE(b.set_switch_lid(0xBFF8, 3).ok());
    ASSERT_TRUE(b.set_switch_lid(0x20, 2).ok());
    auto s = b.build();
    EXPECT_EQ(s->switch_lid().base, 0x20);
    EXPECT_EQ(s->switch_lid().lmc, 2);
    for (std::uint16_t lid : {0x1F, 0x24, 0x0, 0xFFFF, 0x8020})
        EXPECT_FALSE(s->switch_lid().owns(lid)) << lid;
    for (std::uint16_t lid = 0x20; lid <= 0x23; ++lid) EXPECT_TRUE(s->switch_lid().owns(lid)) << lid;
    ASSERT_TRUE(b.set_switch_lid(0, 3).ok());
    EXPECT_FALSE(b.build()->switch_lid().owns(0));
    EXPECT_TRUE(s->switch_lid().owns(0x20));  // the old snapshot keeps its LIDs
}

TEST(FibPublisher, OldSnapshotOutlivesItsReaders) {
    FibBuilder b(small_config());
    FibPublisher pub(4);
    pub.publish(b.build());
    EXPECT_EQ(pub.retired(), 0u);
    RcuReader reader(pub.qsbr(), 2);
    const FibSnapshot *held = pub.current();
    const auto held_generation = held->generation();

    pub.publish(b.build());
    EXPECT_NE(pub.current(), held);
    EXPECT_EQ(pub.retired(), 1u);
    EXPECT_EQ(pub.reclaim(), 0u);  // the reader has not reported since the swap
    EXPECT_EQ(held->generation(), held_generation);

    reader.quiescent();
    EXPECT_EQ(pub.reclaim(), 1u);
    EXPECT_EQ(pub.retired(), 0u);

    // An offline reader does not hold up reclamation.
    reader.offline();
    pub.publish(b.build());
    EXPECT_EQ(pub.retired(), 0u);
    reader.online();
}

// A reader thread checks, on every snapshot it sees, that the IPv4 route, the NHG it names and
// the LFT all come from the same build, while the writer republishes as fast as it can.
TEST(FibPublisher, ReadersNeverSeeMixedTables) {
    FibBuilder b(small_config());
    ASSERT_TRUE(b.set_nhg(1, {{0, {}}}).ok());
    ASSERT_TRUE(b.add_route(pfx("10.0.0.0/8"), 1).ok());
    ASSERT_TRUE(b.set_lft_port(1, 0).ok());
    FibPublisher pub(2);
    pub.publish(b.build());

    std::atomic<bool> stop{false};
    std::atomic<long> checks{0}, mismatches{0};
    std::thread reader_thread([&] {
        RcuReader reader(pub.qsbr(), 1);
        std::set<std::uint64_t> seen;
        while (!stop.load(std::memory_order_relaxed)) {
            const FibSnapshot *s = pub.current();
            std::uint32_t a = 0x0A000001;
            std::uint64_t nh = 0;
            s->lookup4(&a, &nh, 1);
            const NhgEntry *e = s->nhg(static_cast<std::uint32_t>(nh));
            if (e == nullptr || s->members(*e)[0].port != s->lft(1).value) mismatches.fetch_add(1);
            checks.fetch_add(1, std::memory_order_relaxed);
            reader.quiescent();
        }
    });
    for (std::uint16_t g = 1; g <= 300; ++g) {
        const auto port = static_cast<std::uint16_t>(g % 8);
        ASSERT_TRUE(b.set_nhg(1, {{port, {}}}).ok());
        ASSERT_TRUE(b.set_lft_port(1, port).ok());
        pub.publish(b.build());
        EXPECT_LE(pub.retired(), 300u);
    }
    while (checks.load() < 1000) std::this_thread::yield();
    stop = true;
    reader_thread.join();
    pub.synchronize();
    EXPECT_EQ(pub.retired(), 0u);
    EXPECT_EQ(mismatches.load(), 0);
    EXPECT_GE(checks.load(), 1000);
}

class EcmpTest : public ::testing::Test {
  protected:
    void SetUp() override {
        FibBuilder b(small_config());
        for (std::uint16_t p = 0; p < 4; ++p) {
            ASSERT_TRUE(
                b.set_neighbour(IpAddr::v4(0x0A000002u + p * 256u), mac(static_cast<std::uint8_t>(p)), p)
                    .ok());
            links.set_usable(p, true);
        }
        ASSERT_TRUE(b.set_nhg(1, {{0, {}}, {1, {}}, {2, {}}, {3, {}}}).ok());
        ASSERT_TRUE(b.set_nhg(2, {{5, {}}}).ok());  // no neighbour on port 5
        links.set_usable(5, true);
        snap = b.build();
        nhg1 = snap->nhg(*b.nhg_index(1));
        nhg2 = snap->nhg(*b.nhg_index(2));
    }
    MemberChoice pick(const NhgEntry *e, std::uint32_t hash, bool need_mac = true) {
        EcmpSelector sel(links);
        return sel.select(*snap, SelectionRequest{0, e, hash, 0, need_mac});
    }
    LinkState links;
    std::unique_ptr<FibSnapshot> snap;
    const NhgEntry *nhg1 = nullptr;
    const NhgEntry *nhg2 = nullptr;
};

TEST_F(EcmpTest, SpreadsAndMovesOnlyFlowsOfADownMember) {
    std::uint32_t per_port[4] = {};
    std::vector<std::uint16_t> before;
    for (std::uint32_t f = 0; f < 4000; ++f) {
        const auto c = pick(nhg1, f * 2654435761u);
        ASSERT_NE(c.member, nullptr);
        ++per_port[c.member->port];
        before.push_back(c.member->port);
    }
    for (auto n : per_port) EXPECT_GT(n, 800u);
    links.set_usable(2, false);
    for (std::uint32_t f = 0; f < 4000; ++f) {
        const auto c = pick(nhg1, f * 2654435761u);
        ASSERT_NE(c.member, nullptr);
        EXPECT_NE(c.member->port, 2);
        if (before[f] != 2) {
            EXPECT_EQ(c.member->port, before[f]);
        }
        EXPECT_EQ(c.member->dst_mac.addr_bytes[5], c.member->port);
    }
}

TEST(FibBuilder, WeightedMembersTakeTheirShareOfTheFlows) {
    auto slots = [](std::vector<std::uint16_t> weights) {
        std::vector<NhgMemberSpec> m;
        for (std::uint16_t w : weights) m.push_back({0, {}, w});
        return ecmp_slots(m);
    };
    EXPECT_EQ(slots({1, 1, 1}), (std::vector<unsigned>{1, 1, 1}));
    EXPECT_EQ(slots({1, 3}), (std::vector<unsigned>{1, 3}));
    EXPECT_EQ(slots({20, 40, 60}), (std::vector<unsigned>{1, 2, 3}));  // over their common divisor
    const auto big = slots({255, 254, 1});                             // 510 slots, scaled to 64
    EXPECT_EQ(big[0] + big[1] + big[2], kMaxNhgMembers);
    EXPECT_EQ(big[2], 1u);
    EXPECT_LE(std::max(big[0], big[1]) - std::min(big[0], big[1]), 1u);

    FibBuilder b(small_config());
    EXPECT_FALSE(b.set_nhg(1, {{0, {}, 0}}).ok());
    EXPECT_FALSE(b.set_nhg(1, {{0, {}, 256}}).ok());
    EXPECT_FALSE(b.set_nhg(1, {{0, {}, 2}, {1, {}, 1}}, NhgMode::Ars).ok());
    for (std::uint16_t p = 0; p < 2; ++p)
        ASSERT_TRUE(
            b.set_neighbour(IpAddr::v4(0x0A000002u + p * 256u), mac(static_cast<std::uint8_t>(p)), p).ok());
    ASSERT_TRUE(b.set_nhg(1, {{0, {}, 1}, {1, {}, 3}}).ok());
    auto s = b.build();
    const NhgEntry *e = s->nhg(*b.nhg_index(1));
    ASSERT_NE(e, nullptr);
    const auto m = s->members(*e);
    ASSERT_EQ(m.size(), 4u);  // the members in order, then the extra slots
    EXPECT_EQ(m[0].port, 0);
    for (unsigned i = 1; i < 4; ++i) EXPECT_EQ(m[i].port, 1);
    LinkState links;
    links.set_usable(0, true);
    links.set_usable(1, true);
    EcmpSelector sel(links);
    unsigned on1 = 0;
    for (std::uint32_t f = 0; f < 4000; ++f)
        on1 += sel.select(*s, SelectionRequest{0, e, f * 2654435761u, 0, true}).member->port == 1;
    EXPECT_NEAR(on1, 3000, 150);
}

TEST_F(EcmpTest, NothingUsable) {
    for (std::uint16_t p = 0; p < 4; ++p) links.set_usable(p, false);
    EXPECT_EQ(pick(nhg1, 7).reason, DropReason::NoLiveMember);
    EXPECT_EQ(pick(nhg2, 7).reason, DropReason::NoNeighbour);
    const auto c = pick(nhg2, 7, false);  // IBoE groups do not need a MAC
    ASSERT_NE(c.member, nullptr);
    EXPECT_EQ(c.member->port, 5);
}

}  // namespace
}  // namespace weft::dataplane
