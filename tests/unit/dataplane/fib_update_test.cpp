// Incremental route updates: the live IPv4/IPv6 tables after batches of adds, deletes and
// replacements, checked address by address against a longest-prefix match computed from the
// route list; groups counted against groups held; and readers that look up while a writer
// changes the tables never see an address routed by anything but its old or its new route.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "eal_environment.hpp"
#include "lpm_table.hpp"
#include "weft/dataplane/fib_builder.hpp"
#include "weft/dataplane/fib_publisher.hpp"

namespace weft::dataplane {
namespace {

const auto *const kEal = ::testing::AddGlobalTestEnvironment(new test::EalEnvironment("fib_update"));

IpPrefix pfx(const char *text) {
    auto p = IpPrefix::parse(text);
    EXPECT_TRUE(p.has_value()) << text;
    return *p;
}

std::uint64_t lookup(const FibSnapshot &s, const IpAddr &a) {
    std::uint64_t nh = 0;
    if (!a.v6) {
        std::uint32_t x = a.v4_host_order();
        s.lookup4(&x, &nh, 1);
    } else {
        std::uint8_t x[1][16];
        std::copy(a.bytes.begin(), a.bytes.end(), x[0]);
        s.lookup6(x, &nh, 1);
    }
    return nh;
}

bool covers(const IpPrefix &p, const IpAddr &a) {
    if (p.addr.v6 != a.v6) return false;
    return IpPrefix::make(a, p.len)->addr == p.addr;
}

// The NHG index the route list gives `a`, or kNoRoute.
std::uint64_t expected(const FibBuilder &b, const IpAddr &a) {
    int best = -1;
    std::uint64_t nh = kNoRoute;
    for (const auto &[p, id] : b.routes())
        if (p.len > best && covers(p, a)) {
            best = p.len;
            nh = *b.nhg_index(id);
        }
    return nh;
}

FibConfig config() {
    FibConfig c;
    c.num_ports = 8;
    c.max_routes4 = 1 << 14;
    c.tbl8_groups4 = 256;
    c.max_routes6 = 1 << 14;
    c.tbl8_groups6 = 2048;
    return c;
}

// Addresses that tell routes apart: each route's first and last address and their neighbours,
// and random ones near them.
std::vector<IpAddr> probes(const FibBuilder &b, std::mt19937 &rng) {
    std::vector<IpAddr> out;
    for (const auto &[p, id] : b.routes()) {
        const unsigned width = p.addr.v6 ? 128 : 32;
        IpAddr last = p.addr;
        for (unsigned bit = p.len; bit < width; ++bit)
            last.bytes[bit / 8] |= static_cast<std::uint8_t>(0x80u >> (bit % 8));
        out.push_back(p.addr);
        out.push_back(last);
        IpAddr before = p.addr, after = last, inside = p.addr;
        const unsigned bytes = width / 8;
        for (unsigned i = bytes; i-- > 0;)  // p.addr - 1
            if (before.bytes[i]-- != 0) break;
        for (unsigned i = bytes; i-- > 0;)  // last + 1
            if (++after.bytes[i] != 0) break;
        for (unsigned bit = p.len; bit < width; ++bit)
            if (rng() % 2) inside.bytes[bit / 8] |= static_cast<std::uint8_t>(0x80u >> (bit % 8));
        out.push_back(before);
        out.push_back(after);
        out.push_back(inside);
    }
    return out;
}

// Random prefixes within a few /16s (IPv4) or /32s (IPv6), so that they nest and overlap.
IpPrefix random_prefix(std::mt19937 &rng, bool v6) {
    IpAddr a;
    a.v6 = v6;
    if (!v6) {
        a.bytes[0] = 10;
        a.bytes[1] = static_cast<std::uint8_t>(rng() % 3);
        a.bytes[2] = static_cast<std::uint8_t>(rng() % 4);
        a.bytes[3] = static_cast<std::uint8_t>(rng());
        static const unsigned lens[] = {0, 8, 12, 16, 17, 20, 22, 23, 24, 24, 24, 25, 26, 28, 30, 31, 32};
        return *IpPrefix::make(a, lens[rng() % std::size(lens)]);
    }
    a.bytes[0] = 0x20;
    a.bytes[1] = 0x01;
    a.bytes[2] = 0x0d;
    a.bytes[3] = static_cast<std::uint8_t>(0xb8 + rng() % 2);
    for (unsigned i = 4; i < 16; ++i) a.bytes[i] = static_cast<std::uint8_t>(rng() % 3);
    static const unsigned lens[] = {0,  12, 16, 17, 24, 31, 32, 33,  40, 47,
                                    48, 48, 56, 64, 64, 65, 96, 127, 128};
    return *IpPrefix::make(a, lens[rng() % std::size(lens)]);
}

void check_all(FibBuilder &b, const FibSnapshot &s, std::mt19937 &rng, const char *when) {
    for (const IpAddr &a : probes(b, rng))
        ASSERT_EQ(lookup(s, a), expected(b, a)) << a.to_string() << " " << when;
    const FibCapacity c = b.capacity();
    ASSERT_EQ(c.ipv4.tbl8_groups, c.ipv4.tbl8_groups_linked) << when;
    ASSERT_EQ(c.ipv6.tbl8_groups, c.ipv6.tbl8_groups_linked) << when;
}

TEST(FibUpdate, RandomBatchesMatchTheLongestPrefixOfTheRouteList) {
    std::mt19937 rng(31);
    FibBuilder b(config());
    for (std::uint32_t id = 1; id <= 6; ++id)
        ASSERT_TRUE(b.set_nhg(id, {{static_cast<std::uint16_t>(id), {}}}).ok());
    for (int batch = 0; batch < 60; ++batch) {
        const int changes = 1 + static_cast<int>(rng() % 40);
        for (int k = 0; k < changes; ++k) {
            const bool v6 = rng() % 2;
            const IpPrefix p = random_prefix(rng, v6);
            const unsigned what = rng() % 4;
            if (what == 0 && b.routes().contains(p)) {
                ASSERT_TRUE(b.del_route(p).ok());
            } else {
                ASSERT_TRUE(b.add_route(p, 1 + rng() % 6).ok()) << p.to_string();  // add or replace
            }
        }
        auto s = b.build();
        check_all(b, *s, rng, ("batch " + std::to_string(batch)).c_str());
        if (HasFatalFailure()) return;
    }
    // Everything out again: no route, no group.
    std::vector<IpPrefix> all;
    for (const auto &[p, id] : b.routes()) all.push_back(p);
    for (const IpPrefix &p : all) ASSERT_TRUE(b.del_route(p).ok());
    auto s = b.build();
    EXPECT_EQ(b.capacity().ipv4.tbl8_groups_linked, 0u);
    EXPECT_EQ(b.capacity().ipv6.tbl8_groups_linked, 0u);
    EXPECT_EQ(lookup(*s, *IpAddr::parse("10.1.2.3")), kNoRoute);
    EXPECT_EQ(lookup(*s, *IpAddr::parse("2001:db8::1")), kNoRoute);
}

TEST(FibUpdate, AddDeleteReplaceOverlappingAndDefault) {
    FibBuilder b(config());
    for (std::uint32_t id = 1; id <= 4; ++id)
        ASSERT_TRUE(b.set_nhg(id, {{static_cast<std::uint16_t>(id), {}}}).ok());
    auto at = [&](const FibSnapshot &s, const char *a) { return lookup(s, *IpAddr::parse(a)); };
    auto idx = [&](std::uint32_t id) { return std::uint64_t{*b.nhg_index(id)}; };
    ASSERT_TRUE(b.add_route(pfx("10.1.2.0/25"), 3).ok());  // the more specific first
    ASSERT_TRUE(b.add_route(pfx("10.0.0.0/8"), 1).ok());
    ASSERT_TRUE(b.add_route(pfx("10.1.0.0/16"), 2).ok());
    auto s = b.build();
    EXPECT_EQ(at(*s, "10.1.2.1"), idx(3));
    EXPECT_EQ(at(*s, "10.1.2.129"), idx(2));
    EXPECT_EQ(at(*s, "10.2.0.1"), idx(1));
    EXPECT_EQ(at(*s, "11.0.0.1"), kNoRoute);
    // The default route under everything; replacing the /16 leaves the /25 alone.
    ASSERT_TRUE(b.add_route(pfx("0.0.0.0/0"), 4).ok());
    ASSERT_TRUE(b.add_route(pfx("10.1.0.0/16"), 4).ok());
    s = b.build();
    EXPECT_EQ(at(*s, "11.0.0.1"), idx(4));
    EXPECT_EQ(at(*s, "10.1.9.9"), idx(4));
    EXPECT_EQ(at(*s, "10.1.2.1"), idx(3));
    // Deleting the /8 hands its addresses to the default route, not to the /16.
    ASSERT_TRUE(b.del_route(pfx("10.0.0.0/8")).ok());
    ASSERT_TRUE(b.del_route(pfx("0.0.0.0/0")).ok());
    s = b.build();
    EXPECT_EQ(at(*s, "10.2.0.1"), kNoRoute);
    EXPECT_EQ(at(*s, "10.1.2.200"), idx(4));
    // A route deleted and added again in one batch is a replacement (or nothing).
    ASSERT_TRUE(b.del_route(pfx("10.1.2.0/25")).ok());
    ASSERT_TRUE(b.add_route(pfx("10.1.2.0/25"), 1).ok());
    EXPECT_EQ(b.staged_routes(), 1u);
    s = b.build();
    EXPECT_EQ(at(*s, "10.1.2.1"), idx(1));
    EXPECT_EQ(b.capacity().ipv4.tbl8_groups_linked, 1u);
    // IPv6, the default route included.
    ASSERT_TRUE(b.add_route(pfx("::/0"), 1).ok());
    ASSERT_TRUE(b.add_route(pfx("2001:db8::/32"), 2).ok());
    ASSERT_TRUE(b.add_route(pfx("2001:db8:0:1::/64"), 3).ok());
    ASSERT_TRUE(b.add_route(pfx("2001:db8:0:1::7/128"), 4).ok());
    s = b.build();
    EXPECT_EQ(at(*s, "2001:db8:0:1::7"), idx(4));
    EXPECT_EQ(at(*s, "2001:db8:0:1::8"), idx(3));
    EXPECT_EQ(at(*s, "2001:db8:0:2::8"), idx(2));
    EXPECT_EQ(at(*s, "2001:db9::"), idx(1));
    EXPECT_EQ(at(*s, "10.9.9.9"), kNoRoute);  // the families stay apart
    ASSERT_TRUE(b.del_route(pfx("2001:db8:0:1::/64")).ok());
    s = b.build();
    EXPECT_EQ(at(*s, "2001:db8:0:1::7"), idx(4));
    EXPECT_EQ(at(*s, "2001:db8:0:1::8"), idx(2));
}

// A batch that adds before it deletes needs the groups of both for a moment: counted so.
TEST(FibUpdate, ABatchHoldsTheGroupsOfWhatItAddsAndWhatItDeletes) {
    FibConfig c = config();
    c.tbl8_groups4 = 2;
    FibBuilder b(c);
    ASSERT_TRUE(b.set_nhg(1, {{1, {}}}).ok());
    ASSERT_TRUE(b.add_route(pfx("10.0.0.128/25"), 1).ok());
    ASSERT_TRUE(b.add_route(pfx("10.0.1.128/25"), 1).ok());
    b.build();
    ASSERT_TRUE(b.del_route(pfx("10.0.0.128/25")).ok());
    const Status s = b.add_route(pfx("10.0.2.128/25"), 1);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("this batch"), std::string::npos) << s.message();
    b.build();
    EXPECT_TRUE(b.add_route(pfx("10.0.2.128/25"), 1).ok());
}

// Readers look up addresses of a few /24 blocks while the writer adds, replaces and deletes
// routes longer than /24 in them (groups made, dropped and reused all the time) under a /16 that
// stays. Each block's routes name groups of their own, so an answer that came from another
// block's group (one reused too early) or from no route at all is caught.
TEST(FibUpdate, ReadersSeeOnlyTheRoutesOfTheirAddress) {
    FibConfig c = config();
    c.tbl8_groups4 = 8;  // few groups: reused as soon as the grace period allows
    FibPublisher pub(3);
    c.rcu = pub.qsbr();
    FibBuilder b(c);
    constexpr unsigned kBlocks = 6;
    ASSERT_TRUE(b.set_nhg(100, {{0, {}}}).ok());
    for (unsigned k = 0; k < kBlocks; ++k)
        for (unsigned v = 0; v < 3; ++v)
            ASSERT_TRUE(b.set_nhg(k * 10 + v + 1, {{static_cast<std::uint16_t>(v), {}}}).ok());
    ASSERT_TRUE(b.add_route(pfx("10.7.0.0/16"), 100).ok());
    b.commit(pub);
    // Which indices an address of block k may get: its block's groups, or the /16's.
    std::vector<std::set<std::uint64_t>> allowed(kBlocks);
    for (unsigned k = 0; k < kBlocks; ++k) {
        allowed[k].insert(*b.nhg_index(100));
        for (unsigned v = 0; v < 3; ++v) allowed[k].insert(*b.nhg_index(k * 10 + v + 1));
    }
    std::atomic<bool> stop{false};
    std::atomic<long> lookups{0}, wrong{0};
    auto reader = [&](unsigned id) {
        RcuReader r(pub.qsbr(), id);
        std::mt19937 rng(id);
        while (!stop.load(std::memory_order_relaxed)) {
            const FibSnapshot *s = pub.current();
            std::uint32_t ips[32];
            unsigned block[32];
            for (unsigned i = 0; i < 32; ++i) {
                block[i] = rng() % kBlocks;
                ips[i] = 0x0A070000u | (block[i] << 8) | (rng() & 0xFF);
            }
            std::uint64_t nh[32];
            s->lookup4(ips, nh, 32);
            for (unsigned i = 0; i < 32; ++i)
                if (allowed[block[i]].count(nh[i]) == 0) wrong.fetch_add(1);
            lookups.fetch_add(32, std::memory_order_relaxed);
            r.quiescent();
        }
    };
    std::thread r1(reader, 1), r2(reader, 2);
    std::mt19937 rng(5);
    for (int batch = 0; batch < 1000; ++batch) {
        for (int n = 0; n < 4; ++n) {
            const unsigned k = rng() % kBlocks;
            const unsigned len = 25 + rng() % 8;
            const IpPrefix p = *IpPrefix::make(IpAddr::v4(0x0A070000u | (k << 8) | (rng() & 0xFF)), len);
            if (b.routes().contains(p) && rng() % 2 == 0) {
                ASSERT_TRUE(b.del_route(p).ok());
            } else if (!b.add_route(p, k * 10 + 1 + rng() % 3).ok()) {
                // The pool is full: empty this block instead.
                std::vector<IpPrefix> mine;
                for (const auto &[q, id] : b.routes())
                    if (q.len > 24 && ((q.addr.v4_host_order() >> 8) & 0xFF) == k) mine.push_back(q);
                for (const IpPrefix &q : mine) ASSERT_TRUE(b.del_route(q).ok());
            }
        }
        b.commit(pub);
        pub.reclaim();
    }
    while (lookups.load() < 100000) std::this_thread::yield();
    stop = true;
    r1.join();
    r2.join();
    EXPECT_EQ(wrong.load(), 0);
    EXPECT_GT(lookups.load(), 100000);
}

// Routes split and merged within one batch (each /16 deleted and its two /17s added, then back):
// a reader looking up their addresses meanwhile always finds the old route or the new, never none.
// (Deleting before adding would leave the /16's addresses without a route for the whole batch.)
TEST(FibUpdate, ABatchNeverLeavesAnAddressWithoutARoute) {
    FibConfig c = config();
    FibPublisher pub(2);
    c.rcu = pub.qsbr();
    FibBuilder b(c);
    ASSERT_TRUE(b.set_nhg(1, {{1, {}}}).ok());
    ASSERT_TRUE(b.set_nhg(2, {{2, {}}}).ok());
    constexpr unsigned kBlocks = 128;
    auto p16 = [](unsigned k) { return *IpPrefix::make(IpAddr::v4(0x0A000000u | (k << 16)), 16); };
    auto p17 = [](unsigned k, unsigned half) {
        return *IpPrefix::make(IpAddr::v4(0x0A000000u | (k << 16) | (half << 15)), 17);
    };
    for (unsigned k = 0; k < kBlocks; ++k) ASSERT_TRUE(b.add_route(p16(k), 1).ok());
    b.commit(pub);
    std::atomic<bool> stop{false};
    std::atomic<long> lookups{0}, none{0};
    std::thread reader([&] {
        RcuReader r(pub.qsbr(), 1);
        std::mt19937 rng(9);
        while (!stop.load(std::memory_order_relaxed)) {
            std::uint32_t ips[32];
            for (auto &ip : ips) ip = 0x0A000000u | ((rng() % kBlocks) << 16) | (rng() & 0xFFFF);
            std::uint64_t nh[32];
            pub.current()->lookup4(ips, nh, 32);
            for (const std::uint64_t x : nh) none += x == kNoRoute;
            lookups.fetch_add(32, std::memory_order_relaxed);
            r.quiescent();
        }
    });
    for (int round = 0; round < 100; ++round) {
        for (unsigned k = 0; k < kBlocks; ++k) {
            if (round % 2 == 0) {
                ASSERT_TRUE(b.del_route(p16(k)).ok());
                ASSERT_TRUE(b.add_route(p17(k, 0), 2).ok());
                ASSERT_TRUE(b.add_route(p17(k, 1), 2).ok());
            } else {
                ASSERT_TRUE(b.del_route(p17(k, 0)).ok());
                ASSERT_TRUE(b.del_route(p17(k, 1)).ok());
                ASSERT_TRUE(b.add_route(p16(k), 1).ok());
            }
        }
        b.commit(pub);
    }
    while (lookups.load() < 100000) std::this_thread::yield();
    stop = true;
    reader.join();
    EXPECT_EQ(none.load(), 0);
}

// A reader that loaded a link to a group and reads the group later (a slow lookup) gets its
// address's old or new route: the group, unlinked meanwhile, is not reused (for another block's
// routes) until the reader reports.
TEST(LpmTable, AGroupIsReusedOnlyAfterItsReadersReported) {
    FibPublisher pub(2);  // for its QSBR variable
    Lpm4 t(1, SOCKET_ID_ANY, pub.qsbr());
    const std::uint8_t a[4] = {10, 0, 0, 128}, b[4] = {10, 0, 1, 128};
    t.paint(a, 25, 7, 25);
    t.end_update();
    std::atomic<int> step{0};
    std::uint32_t seen = 0;
    std::thread reader([&] {
        RcuReader r(pub.qsbr(), 1);
        const std::uint16_t link = t.first_entry(0x0A0000);
        ASSERT_EQ(link & 1, 1);
        step = 1;
        while (step.load() < 2) std::this_thread::yield();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the writer wants the group now
        seen = t.group_entry(link >> 1, 200) >> 1;
        r.quiescent();
    });
    while (step.load() < 1) std::this_thread::yield();
    t.paint(a, 25, kNoRoute, 0);  // the /25 goes: its block's group is unlinked
    t.end_update();
    EXPECT_EQ(t.groups_linked(), 0u);
    step = 2;
    t.paint(b, 25, 9, 25);  // another block takes the only group, once the reader has reported
    t.end_update();
    reader.join();
    EXPECT_TRUE(seen == 7u || seen == kNoRoute) << seen;  // never 9, the other block's
    EXPECT_EQ(t.lookup(b), 9u);
    EXPECT_EQ(t.lookup(a), kNoRoute);
}

}  // namespace
}  // namespace weft::dataplane
