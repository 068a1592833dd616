// FIB builder, snapshot lookups, RCU publication and ECMP member selection, on real rte_fib /
// rte_fib6 tables inside an EAL started without hugepages.
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

#include "eal_environment.hpp"
#include "weft/dataplane/fib_builder.hpp"
#include "weft/dataplane/fib_publisher.hpp"
#include "weft/dataplane/nhg_selector.hpp"

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

TEST(IpPrefix, ParseAndNormalise) {
    EXPECT_EQ(pfx("10.1.2.3/8").to_string(), "10.0.0.0/8");
    EXPECT_EQ(pfx("2001:db8::1/32").to_string(), "2001:db8::/32");
    EXPECT_EQ(pfx("192.0.2.1").len, 32);
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
    auto s2 = b.build();
    EXPECT_EQ(lookup4(*s2, "10.1.2.200"), i20);
    EXPECT_EQ(lookup4(*s, "10.1.2.200"), i30);  // the old snapshot is untouched
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
    // port 1 by its peer, port 2 via a named neighbour, port 2 via a neighbour on another port,
    // port 3 without any neighbour.
    ASSERT_TRUE(b.set_nhg(7, {{1, {}}, {2, ip("10.0.1.9")}, {2, ip("10.0.0.2")}, {3, {}}}).ok());
    auto s = b.build();
    const NhgEntry *e = s->nhg(*b.nhg_index(7));
    ASSERT_NE(e, nullptr);
    const auto m = s->members(*e);
    ASSERT_EQ(m.size(), 4u);
    EXPECT_TRUE(m[0].resolved);
    EXPECT_EQ(m[0].dst_mac.addr_bytes[5], 0x22);
    EXPECT_TRUE(m[1].resolved);
    EXPECT_EQ(m[1].dst_mac.addr_bytes[5], 0x39);
    EXPECT_FALSE(m[2].resolved);
    EXPECT_FALSE(m[3].resolved);
    // A new neighbour resolves port 3 in the next snapshot, without rebuilding the LPM tables.
    ASSERT_TRUE(b.set_neighbour(ip("10.0.3.2"), mac(0x44), 3).ok());
    auto s2 = b.build();
    EXPECT_TRUE(s2->members(*s2->nhg(*b.nhg_index(7)))[3].resolved);
    EXPECT_EQ(s2->fib4_identity(), s->fib4_identity());
    EXPECT_EQ(s2->fib6_identity(), s->fib6_identity());
    ASSERT_TRUE(b.add_route(pfx("10.0.0.0/8"), 7).ok());
    auto s3 = b.build();
    EXPECT_NE(s3->fib4_identity(), s2->fib4_identity());
    EXPECT_EQ(s3->fib6_identity(), s2->fib6_identity());
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
