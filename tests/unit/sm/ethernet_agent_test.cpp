// The switch's side of weft's vendor attributes, through a real Sma: host subnets answered from
// the configuration, groups and routes taken into staging only, a Commit that checks whole
// making them the active table in one observer call, and every refusal counted by reason and
// leaving the active table as it was.
#include <gtest/gtest.h>

#include <vector>

#include "weft/sm/sma.hpp"

namespace weft::sm {
namespace {

struct Heard final : SmaObserver {
    std::vector<EthernetTable> tables;
    void ethernet_table_committed(const EthernetTable &t) override { tables.push_back(t); }
};

SmaConfig switch_config() {
    SmaConfig c;
    c.node_type = NodeType::kSwitch;
    c.node_guid = 0xabc0;
    c.num_ports = 8;
    c.description = "leaf";
    return c;
}

EthernetAgentConfig ethernet_config() {
    EthernetAgentConfig c;
    for (PortNum p = 5; p <= 8; ++p) c.host_subnets.push_back({p, IpPrefix::v4(0x0A000000u | p << 8, 24)});
    c.max_primaries = 4;
    c.max_alternates = 2;
    return c;
}

EthernetGroup group(std::uint16_t id, std::vector<PortNum> primary, std::vector<PortNum> alternate = {}) {
    EthernetGroup g;
    g.id = id;
    g.fixed = primary.empty() ? 0 : primary.front();
    g.primary = std::move(primary);
    g.alternate = std::move(alternate);
    return g;
}

EthernetTable two_leaves() {
    EthernetTable t;
    t.groups = {group(3, {1, 2}), group(9, {1, 2, 3}, {4})};
    t.routes = {{IpPrefix::v4(0x0A010000, 24), 3},
                {IpPrefix::v4(0x0A020000, 24), 9},
                {IpPrefix::v4(0x0A020100, 24), 9},
                {IpPrefix::v6({0x20, 0x01, 0x0d, 0xb8}, 32), 9}};
    return t;
}

struct EthernetSma : ::testing::Test {
    Heard heard;
    Sma sma{switch_config(), &heard};
    std::uint64_t tid = 1;

    EthernetSma() { sma.enable_ethernet(ethernet_config()); }

    // The SM on this switch asks (hop count 0): the reply.
    Smp ask(Method m, std::uint16_t attr_id, std::uint32_t mod, const SmpData &data = {}) {
        Smp s = make_dr_smp(m, attr_id, mod, {}, tid++);
        s.data = data;
        const SmaOutput o = sma.originate(0, encode_smp(s).value(), SmaTime{0});
        EXPECT_EQ(o.action, SmaAction::kToSm);
        return decode_smp(o.bytes).value();
    }
    Smp state_op(FibOp op, std::uint32_t generation, std::uint32_t routes = 0, std::uint16_t groups = 0,
                 bool empty = false, std::uint16_t arn = 0) {
        FibState s;
        s.op = op;
        s.generation = generation;
        s.routes = routes;
        s.groups = groups;
        s.arn = arn;
        s.begin_empty = empty;
        return ask(Method::kSet, attr::kWeftFibState, 0, encode_fib_state(s).value());
    }
    // Begin, every block of `t`, Commit: the Commit's reply.
    Smp program(const EthernetTable &t, std::uint32_t generation) {
        EXPECT_EQ(state_op(FibOp::kBegin, generation, 0, 0, true).status, 0);
        write_blocks(t);
        return state_op(FibOp::kCommit, generation, static_cast<std::uint32_t>(t.routes.size()),
                        static_cast<std::uint16_t>(t.groups.size()), false,
                        static_cast<std::uint16_t>(t.arn.size()));
    }
    void write_blocks(const EthernetTable &t) {
        const EthernetBlocks b = split_ethernet_table(t);
        for (const auto &[mod, g] : b.groups)
            EXPECT_EQ(ask(Method::kSet, attr::kWeftNextHopGroup, mod, encode_next_hop_group_block(g).value())
                          .status,
                      0);
        for (const auto &[mod, r] : b.routes)
            EXPECT_EQ(ask(Method::kSet, attr::kWeftRoutes, mod, encode_routes_block(r).value()).status, 0);
        for (const auto &[mod, a] : b.arn)
            EXPECT_EQ(ask(Method::kSet, attr::kWeftArnGroup, mod, encode_arn_group_block(a).value()).status,
                      0);
    }
    FibState state() { return decode_fib_state(ask(Method::kGet, attr::kWeftFibState, 0)).value(); }
    std::uint64_t refused(EthernetRefusal why) const { return sma.ethernet()->counters().refusals(why); }
};

TEST(EthernetSmaOff, AttributesUnsupportedWithoutEthernetMode) {
    Sma sma{switch_config()};
    const Smp s = make_dr_smp(Method::kGet, attr::kWeftFibState, 0, {}, 1);
    const Smp r = decode_smp(sma.originate(0, encode_smp(s).value(), SmaTime{0}).bytes).value();
    EXPECT_EQ(r.status, status::kUnsupportedMethodAttr);
    SmaConfig ca = switch_config();
    ca.node_type = NodeType::kCa;
    Sma host{ca};
    EXPECT_THROW(host.enable_ethernet({}), std::invalid_argument);
    EthernetAgentConfig bad;
    bad.host_subnets.push_back({9, IpPrefix::v4(0x0A000000, 8)});  // no port 9
    EXPECT_THROW(sma.enable_ethernet(bad), std::invalid_argument);
}

TEST_F(EthernetSma, HostSubnetsInBlocksWithAVersion) {
    const FibState s = state();
    EXPECT_EQ(s.magic, kWeftMagic);
    EXPECT_EQ(s.subnets, 4);
    EXPECT_EQ(s.max_primaries, 4);
    const HostSubnetsBlock b0 =
        decode_host_subnets_block(ask(Method::kGet, attr::kWeftHostSubnets, 0)).value();
    const HostSubnetsBlock b1 =
        decode_host_subnets_block(ask(Method::kGet, attr::kWeftHostSubnets, 1)).value();
    EXPECT_EQ(b0.total, 4);
    EXPECT_EQ(b0.version, s.subnets_version);
    EXPECT_EQ(b0.entries[0].port, 5);
    EXPECT_EQ(b0.entries[0].prefix.to_string(), "10.0.5.0/24");
    EXPECT_EQ(b1.entries[0].prefix.to_string(), "10.0.8.0/24");
    EXPECT_TRUE(b1.entries[1].prefix.empty());
    EXPECT_EQ(ask(Method::kGet, attr::kWeftHostSubnets, 2).status, status::kInvalidField);
    EXPECT_EQ(ask(Method::kSet, attr::kWeftHostSubnets, 0, encode_host_subnets_block(b0).value()).status,
              status::kUnsupportedMethodAttr);  // the switch's own configuration
    sma.ethernet()->set_host_subnets({});
    const HostSubnetsBlock none =
        decode_host_subnets_block(ask(Method::kGet, attr::kWeftHostSubnets, 0)).value();
    EXPECT_EQ(none.total, 0);
    EXPECT_NE(none.version, b0.version);
}

TEST_F(EthernetSma, StagingIsInvisibleUntilTheCommit) {
    const EthernetTable t = two_leaves();
    EXPECT_EQ(state_op(FibOp::kBegin, 1).status, 0);
    write_blocks(t);
    // Staging reads back, the active table is still empty and nobody heard of it.
    const RoutesBlock r0 = decode_routes_block(ask(Method::kGet, attr::kWeftRoutes, 0)).value();
    EXPECT_EQ(r0.entries[1].group, 9);
    EXPECT_TRUE(heard.tables.empty());
    EXPECT_TRUE(sma.ethernet()->table().routes.empty());
    FibState s = state();
    EXPECT_TRUE(s.staging_open);
    EXPECT_EQ(s.active_generation, 0u);
    EXPECT_EQ(s.generation, 1u);
    const Smp reply = state_op(FibOp::kCommit, 1, 4, 2);
    EXPECT_EQ(reply.status, 0) << sma.ethernet()->last_refusal();
    ASSERT_EQ(heard.tables.size(), 1u);
    EXPECT_TRUE(heard.tables[0].same_content(t));
    EXPECT_EQ(heard.tables[0].generation, 1u);
    s = decode_fib_state(reply).value();
    EXPECT_FALSE(s.staging_open);
    EXPECT_EQ(s.active_generation, 1u);
    EXPECT_EQ(s.routes, 4u);
    EXPECT_EQ(s.groups, 2);
    // Gets now read the active table; a block past the routes reads empty.
    EXPECT_EQ(decode_routes_block(ask(Method::kGet, attr::kWeftRoutes, 1)).value().entries[0].group, 9);
    EXPECT_TRUE(
        decode_routes_block(ask(Method::kGet, attr::kWeftRoutes, 7)).value().entries[0].prefix.empty());
    const NextHopGroupBlock g =
        decode_next_hop_group_block(ask(Method::kGet, attr::kWeftNextHopGroup, 9)).value();
    EXPECT_EQ(g.members, 4);
    EXPECT_EQ(g.slots[3].role, MemberRole::kAlternate);
    EXPECT_EQ(decode_next_hop_group_block(ask(Method::kGet, attr::kWeftNextHopGroup, 4)).value().members, 0);
    EXPECT_EQ(ask(Method::kGet, attr::kWeftNextHopGroup, 0x10009).status, status::kInvalidField);
    EXPECT_EQ(sma.ethernet()->counters().commits, 1u);
    EXPECT_EQ(sma.ethernet()->counters().refused_total(), 0u);
}

TEST_F(EthernetSma, ABeginCopiesTheActiveTableSoOnlyChangesAreWritten) {
    ASSERT_EQ(program(two_leaves(), 1).status, 0);
    EthernetTable next = two_leaves();
    next.groups[1].alternate.clear();  // a link went: group 9 loses its alternate
    next.groups[1].primary = {2, 3};
    next.groups[1].fixed = 2;
    EXPECT_EQ(state_op(FibOp::kBegin, 2).status, 0);
    const NextHopGroupBlock g = split_ethernet_table(next).groups.at(9);
    EXPECT_EQ(ask(Method::kSet, attr::kWeftNextHopGroup, 9, encode_next_hop_group_block(g).value()).status,
              0);
    EXPECT_EQ(state_op(FibOp::kCommit, 2, 4, 2).status, 0) << sma.ethernet()->last_refusal();
    ASSERT_EQ(heard.tables.size(), 2u);
    EXPECT_TRUE(heard.tables[1].same_content(next));
    // A group deleted by writing its block 0 empty; the route to it goes too.
    next.groups.erase(next.groups.begin());
    next.routes.erase(next.routes.begin());
    EXPECT_EQ(state_op(FibOp::kBegin, 3).status, 0);
    NextHopGroupBlock gone;
    gone.group = 3;
    EXPECT_EQ(ask(Method::kSet, attr::kWeftNextHopGroup, 3, encode_next_hop_group_block(gone).value()).status,
              0);
    for (const auto &[mod, r] : split_ethernet_table(next).routes)
        EXPECT_EQ(ask(Method::kSet, attr::kWeftRoutes, mod, encode_routes_block(r).value()).status, 0);
    RoutesBlock tail;  // route 3 moved into block 0: block 1's slot 0 is past the count now
    tail.block = 1;
    EXPECT_EQ(ask(Method::kSet, attr::kWeftRoutes, 1, encode_routes_block(tail).value()).status, 0);
    EXPECT_EQ(state_op(FibOp::kCommit, 3, 3, 1).status, 0) << sma.ethernet()->last_refusal();
    EXPECT_TRUE(heard.tables.back().same_content(next));
}

TEST_F(EthernetSma, ARefusedCommitKeepsTheOldTable) {
    ASSERT_EQ(program(two_leaves(), 1).status, 0);
    const EthernetTable before = sma.ethernet()->table();
    auto refused_commit = [&](const EthernetTable &t, std::uint32_t routes, std::uint16_t groups,
                              EthernetRefusal why) {
        const std::uint64_t n = refused(why);
        EXPECT_EQ(state_op(FibOp::kBegin, 5, 0, 0, true).status, 0);
        write_blocks(t);
        EXPECT_EQ(state_op(FibOp::kCommit, 5, routes, groups).status, status::kInvalidField)
            << refusal_name(why);
        EXPECT_EQ(refused(why), n + 1) << refusal_name(why) << ": " << sma.ethernet()->last_refusal();
        EXPECT_EQ(sma.ethernet()->table(), before);
        EXPECT_EQ(heard.tables.size(), 1u);
    };
    EthernetTable t = two_leaves();
    t.routes[2].group = 4;  // no group 4
    refused_commit(t, 4, 2, EthernetRefusal::kBadGroupReference);
    t = two_leaves();
    t.routes[2] = t.routes[1];
    refused_commit(t, 4, 2, EthernetRefusal::kDuplicate);
    t = two_leaves();
    t.groups[1].primary = {1, 2, 3, 5, 6};  // the switch takes 4
    refused_commit(t, 4, 2, EthernetRefusal::kTooManyMembers);
    t = two_leaves();
    t.groups[1].alternate = {4, 5, 6};  // and 2 alternates
    refused_commit(t, 4, 2, EthernetRefusal::kTooManyMembers);
    t = two_leaves();
    t.groups[1].alternate = {1};  // port 1 is a primary already
    refused_commit(t, 4, 2, EthernetRefusal::kDuplicate);
    t = two_leaves();
    t.groups[1].fixed = 4;
    refused_commit(t, 4, 2, EthernetRefusal::kFixedNotPrimary);
    refused_commit(two_leaves(), 4, 3, EthernetRefusal::kCountMismatch);  // 3 groups said, 2 written
    refused_commit(two_leaves(), 2, 2, EthernetRefusal::kCountMismatch);  // route 2 past the count
    refused_commit(two_leaves(), 7, 2, EthernetRefusal::kMissingBlock);   // route 4 never written
    refused_commit(two_leaves(), 4, 2000, EthernetRefusal::kTooManyGroups);
    // A block whose member count its slots do not bear out.
    sma.enable_ethernet([] {
        EthernetAgentConfig c = ethernet_config();
        c.max_primaries = 40;
        return c;
    }());
    EthernetSma::state_op(FibOp::kBegin, 1, 0, 0, true);
    EthernetGroup big = group(7, {});
    for (PortNum p = 1; p <= 8; ++p) big.primary.push_back(p);
    big.fixed = 1;
    SmpData b0 = encode_next_hop_group_block(split_ethernet_table({0, {big}, {}, {}}).groups.at(7)).value();
    b0[1] = 30;  // says there are 30 members: slots 8.. are empty, so the block is malformed
    EXPECT_EQ(ask(Method::kSet, attr::kWeftNextHopGroup, 7, b0).status, status::kInvalidField);
    EXPECT_EQ(refused(EthernetRefusal::kMalformed), 1u);
}

TEST_F(EthernetSma, BlocksNeedAnOpenStagingAndTheirGeneration) {
    const EthernetBlocks b = split_ethernet_table(two_leaves());
    EXPECT_EQ(ask(Method::kSet, attr::kWeftRoutes, 0, encode_routes_block(b.routes.at(0)).value()).status,
              status::kInvalidField);
    EXPECT_EQ(state_op(FibOp::kCommit, 1).status, status::kInvalidField);
    EXPECT_EQ(refused(EthernetRefusal::kNoStaging), 2u);
    // A port the switch does not have.
    EXPECT_EQ(state_op(FibOp::kBegin, 1).status, 0);
    NextHopGroupBlock g = b.groups.at(9);
    g.slots[2].port = 12;
    EXPECT_EQ(ask(Method::kSet, attr::kWeftNextHopGroup, 9, encode_next_hop_group_block(g).value()).status,
              status::kInvalidField);
    EXPECT_EQ(refused(EthernetRefusal::kUnknownPort), 1u);
    // Garbage in the state attribute.
    SmpData junk{};
    junk[0] = 'x';
    EXPECT_EQ(ask(Method::kSet, attr::kWeftFibState, 0, junk).status, status::kInvalidField);
    EXPECT_EQ(refused(EthernetRefusal::kMalformed), 1u);
}

TEST_F(EthernetSma, AnSmDyingHalfWayChangesNothingAndTwoSmsCannotMix) {
    ASSERT_EQ(program(two_leaves(), 1).status, 0);
    // SM A begins generation 2 and writes half of a new table, then dies.
    EthernetTable a = two_leaves();
    a.routes.pop_back();
    EXPECT_EQ(state_op(FibOp::kBegin, 2, 0, 0, true).status, 0);
    const EthernetBlocks half = split_ethernet_table(a);
    EXPECT_EQ(ask(Method::kSet, attr::kWeftRoutes, 0, encode_routes_block(half.routes.at(0)).value()).status,
              0);
    EXPECT_TRUE(state().staging_open);
    EXPECT_EQ(sma.ethernet()->table().routes.size(), 4u);  // still forwarding by generation 1
    EXPECT_EQ(heard.tables.size(), 1u);
    // SM B begins generation 3: A's half-written staging is gone (a copy of the active table).
    EXPECT_EQ(state_op(FibOp::kBegin, 3).status, 0);
    EXPECT_EQ(decode_routes_block(ask(Method::kGet, attr::kWeftRoutes, 1)).value(),
              split_ethernet_table(two_leaves()).routes.at(1));
    // A (back, or never really gone) commits its generation: refused.
    EXPECT_EQ(state_op(FibOp::kCommit, 2, 3, 2).status, status::kInvalidField);
    EXPECT_EQ(refused(EthernetRefusal::kGeneration), 1u);
    // B commits what staging holds.
    EXPECT_EQ(state_op(FibOp::kCommit, 3, 4, 2).status, 0) << sma.ethernet()->last_refusal();
    EXPECT_EQ(state().active_generation, 3u);
    ASSERT_EQ(heard.tables.size(), 2u);
    EXPECT_TRUE(heard.tables[1].same_content(two_leaves()));
}

// The switch's ARN group (WeftArnGroup) goes through staging with the groups and routes: taken
// whole at the Commit, which counts its entries and checks that its destinations' groups exist.
EthernetTable with_arn_group() {
    EthernetTable t = two_leaves();
    t.arn = {{ArnEntryKind::kLocalLink, 0xabc0, 1, 0xabc1, 2, 0, 0},
             {ArnEntryKind::kLocalLink, 0xabc0, 2, 0xabc2, 1, 0, 0},
             {ArnEntryKind::kLocalLink, 0xabc1, 3, 0xabc2, 3, 0, 0},
             {ArnEntryKind::kGlobalLink, 0xabc1, 4, 0, 0, 7, 0},
             {ArnEntryKind::kDestination, 0, 0, 0, 0, 7, 9}};
    return t;
}

TEST_F(EthernetSma, TheArnGroupIsCommittedWithTheTable) {
    const EthernetTable t = with_arn_group();
    EXPECT_EQ(state_op(FibOp::kBegin, 1).status, 0);
    write_blocks(t);
    EXPECT_TRUE(heard.tables.empty());
    // A Commit that counts fewer entries than staging holds is refused, and changes nothing.
    EXPECT_EQ(state_op(FibOp::kCommit, 1, 4, 2, false, 4).status, status::kInvalidField);
    EXPECT_EQ(refused(EthernetRefusal::kCountMismatch), 1u);
    EXPECT_EQ(state_op(FibOp::kCommit, 1, 4, 2, false, 6).status, status::kInvalidField);
    EXPECT_EQ(refused(EthernetRefusal::kMissingBlock), 1u);
    const Smp reply = state_op(FibOp::kCommit, 1, 4, 2, false, 5);
    ASSERT_EQ(reply.status, 0) << sma.ethernet()->last_refusal();
    ASSERT_EQ(heard.tables.size(), 1u);
    EXPECT_EQ(heard.tables[0].arn, t.arn);
    EXPECT_EQ(decode_fib_state(reply).value().arn, 5);
    EXPECT_EQ(decode_arn_group_block(ask(Method::kGet, attr::kWeftArnGroup, 1)).value().entries[1], t.arn[4]);
    // A destination whose group the table does not hold.
    EthernetTable bad = with_arn_group();
    bad.arn[4].nhg = 10;
    EXPECT_EQ(program(bad, 2).status, status::kInvalidField);
    EXPECT_EQ(refused(EthernetRefusal::kBadGroupReference), 1u);
    // Without entries the next table has no ARN group.
    ASSERT_EQ(program(two_leaves(), 3).status, 0);
    EXPECT_TRUE(heard.tables.back().arn.empty());
    EXPECT_EQ(ask(Method::kSet, attr::kWeftArnGroup, 0, SmpData{}).status,
              status::kInvalidField);  // no staging
}

TEST(EthernetTable, SplitAndAssembleAreInverse) {
    EthernetTable t = two_leaves();
    EthernetGroup big = group(40, {});
    for (PortNum p = 1; p <= 30; ++p) (p % 3 ? big.primary : big.alternate).push_back(p);
    big.fixed = 2;
    big.mode = EthernetArsMode::kFixed;
    big.ars_object = 3;
    t.groups.push_back(big);
    const EthernetBlocks b = split_ethernet_table(t);
    EXPECT_EQ(b.groups.size(), 4u);  // 9, 3 and two blocks of 40
    EXPECT_EQ(b.routes.size(), 2u);
    EthernetLimits limits;
    limits.num_ports = 30;
    limits.max_primaries = limits.max_alternates = 30;
    const auto back = assemble_ethernet_table(b, 4, 3, limits);
    ASSERT_TRUE(std::holds_alternative<EthernetTable>(back)) << std::get<EthernetFault>(back).what;
    EXPECT_EQ(std::get<EthernetTable>(back), t);
    EthernetBlocks missing = b;
    missing.groups.erase(NextHopGroupBlock::attr_mod_of(40, 1));
    EXPECT_EQ(std::get<EthernetFault>(assemble_ethernet_table(missing, 4, 3, limits)).reason,
              EthernetRefusal::kMissingBlock);
    EthernetBlocks odd = b;
    odd.groups.at(NextHopGroupBlock::attr_mod_of(40, 1)).ars_object = 4;
    EXPECT_EQ(std::get<EthernetFault>(assemble_ethernet_table(odd, 4, 3, limits)).reason,
              EthernetRefusal::kInconsistentGroup);
    limits.num_ports = 29;
    EXPECT_EQ(std::get<EthernetFault>(assemble_ethernet_table(b, 4, 3, limits)).reason,
              EthernetRefusal::kUnknownPort);
}

}  // namespace
}  // namespace weft::sm
