// SmpEngine over SimFabric (an in-process fabric answering SMPs as SMAs do): the window, replies
// matched to requests, retries with fresh TIDs, late and duplicate replies, timeouts,
// malformed replies located, traps, refused sends, and the counters of each.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "sim_fabric.hpp"
#include "weft/sm/notice.hpp"
#include "weft/sm/smp_engine.hpp"

namespace weft::sm {
namespace {

using namespace std::chrono_literals;
using test::SimFabric;

// host (CA, port 1) -- port 1 of a 16-port switch; switch port 2 -- a second CA.
struct Fixture : ::testing::Test {
    SimFabric fabric;
    std::size_t host = fabric.add_ca(0x1000, 1, "host");
    std::size_t sw = fabric.add_switch(0x2000, 16, "leaf");
    std::size_t other = fabric.add_ca(0x3000, 1, "other");
    SmpEngineConfig config{4, 200ms, 3};

    Fixture() {
        fabric.link(host, 1, sw, 1);
        fabric.link(sw, 2, other, 1);
    }

    // Moves the test's time to `t` and feeds the engine everything the fabric has for it.
    void run_to(SmpEngine &engine, SmTime t) {
        fabric.set_now(t);
        while (auto r = fabric.receive(0ms)) engine.on_receive(*r, t);
        engine.advance(t);
    }

    std::vector<SmpCompletion> drain(SmpEngine &engine) {
        std::vector<SmpCompletion> out;
        while (auto c = engine.next_completion()) out.push_back(std::move(*c));
        return out;
    }

    static Smp get(std::uint16_t attr_id, std::uint32_t mod, std::vector<std::uint8_t> path) {
        return make_dr_smp(Method::kGet, attr_id, mod, path, 0);
    }
};

TEST_F(Fixture, WindowHoldsAtMostMaxWireSmps) {
    SmpEngine engine(fabric, config);
    for (std::uint32_t p = 0; p <= 16; ++p)
        engine.submit({get(attr::kPortInfo, p, {1}), kPermissiveLid, p}, 0ns);
    EXPECT_EQ(fabric.requests_seen, 4u);  // the window is full; the rest wait
    EXPECT_EQ(engine.outstanding(), 4u);
    EXPECT_EQ(engine.queued(), 13u);
    std::vector<bool> answered(17);
    for (SmTime t = 10us; !engine.idle(); t += 10us) {
        run_to(engine, t);
        EXPECT_LE(fabric.requests_in_flight(), 4u);
        for (auto &c : drain(engine)) {
            ASSERT_EQ(c.outcome, SmpOutcome::kResponse);
            const auto info =
                decode_port_info(c.response, c.cookie == 0 ? PortKind::kEndPort : PortKind::kSwitchExternal);
            ASSERT_TRUE(info.ok()) << info.error().message();
            answered[c.cookie] = true;
            // The fabric's own state of that port: linked ports are up.
            const bool linked = c.cookie == 1 || c.cookie == 2;
            if (c.cookie != 0) {
                EXPECT_EQ(info->phys_state == PhysState::kLinkUp, linked) << c.cookie;
            }
        }
    }
    EXPECT_EQ(std::count(answered.begin(), answered.end(), true), 17);
    const SmpKindCounters k = engine.counters().per_kind.at({Method::kGet, attr::kPortInfo});
    EXPECT_EQ(k.sent, 17u);
    EXPECT_EQ(k.received, 17u);
    EXPECT_EQ(k.retried, 0u);
    EXPECT_EQ(engine.counters().max_outstanding, 4u);
}

TEST_F(Fixture, PumpDrivesABatchToTheEndAndWaitsForTrapsWhenIdle) {
    SmpEngine engine(fabric, config);
    fabric.lose_next_requests = 1;  // one retry on the way
    SmTime now = 0ns;
    const std::function<SmTime()> clock = [&] {
        now += 50ms;  // each look at the clock: time has passed
        fabric.set_now(now);
        return now;
    };
    for (std::uint32_t p = 0; p < 6; ++p)
        engine.submit({get(attr::kPortInfo, p, {1}), kPermissiveLid, p}, now);
    int rounds = 0;
    while (engine.pump(clock, 100ms)) ASSERT_LT(++rounds, 100);
    EXPECT_EQ(drain(engine).size(), 6u);
    EXPECT_EQ(engine.counters().per_kind.at({Method::kGet, attr::kPortInfo}).retried, 1u);
    Smp trap = make_lid_smp(Method::kTrap, attr::kNotice, 0, 1);
    trap.data = encode_notice(make_port_state_change_notice(0x12)).value();
    fabric.send_trap(trap, 0x12);
    EXPECT_FALSE(engine.pump(clock, 100ms));  // idle, but it still listened
    EXPECT_TRUE(engine.next_unsolicited());
}

TEST_F(Fixture, RepliesComeFromTheNodeThePathReaches) {
    SmpEngine engine(fabric, config);
    engine.submit({get(attr::kNodeInfo, 0, {}), kPermissiveLid, 0}, 0ns);
    engine.submit({get(attr::kNodeInfo, 0, {1}), kPermissiveLid, 1}, 0ns);
    engine.submit({get(attr::kNodeInfo, 0, {1, 2}), kPermissiveLid, 2}, 0ns);
    run_to(engine, 1ms);
    std::vector<std::uint64_t> guids(3);
    std::vector<PortNum> local(3);
    for (auto &c : drain(engine)) {
        const auto n = decode_node_info(c.response);
        ASSERT_TRUE(n.ok()) << n.error().message();
        guids[c.cookie] = n->node_guid;
        local[c.cookie] = n->local_port_num;
    }
    EXPECT_EQ(guids, (std::vector<std::uint64_t>{0x1000, 0x2000, 0x3000}));
    EXPECT_EQ(local, (std::vector<PortNum>{1, 1, 1}));
}

TEST_F(Fixture, LostRequestIsRetriedWithAFreshTid) {
    SmpEngine engine(fabric, config);
    fabric.lose_next_requests = 2;
    const std::uint64_t first_tid = engine.submit({get(attr::kNodeInfo, 0, {1}), kPermissiveLid, 7}, 0ns);
    run_to(engine, 199ms);
    EXPECT_FALSE(engine.next_completion());
    EXPECT_EQ(fabric.requests_seen, 1u);
    run_to(engine, 200ms);  // deadline: second attempt
    EXPECT_EQ(fabric.requests_seen, 2u);
    run_to(engine, 400ms);  // third attempt, answered
    run_to(engine, 401ms);
    auto c = engine.next_completion();
    ASSERT_TRUE(c);
    EXPECT_EQ(c->outcome, SmpOutcome::kResponse);
    EXPECT_EQ(c->attempts, 3u);
    EXPECT_EQ(c->cookie, 7u);
    EXPECT_NE(c->response.tid & kTidMask, first_tid);
    const SmpKindCounters k = engine.counters().per_kind.at({Method::kGet, attr::kNodeInfo});
    EXPECT_EQ(k.sent, 3u);
    EXPECT_EQ(k.retried, 2u);
    EXPECT_EQ(k.received, 1u);
    EXPECT_EQ(k.timed_out, 0u);
}

TEST_F(Fixture, UnreachableNodeTimesOutAfterTheLastRetry) {
    SmpEngine engine(fabric, config);
    engine.submit({get(attr::kNodeInfo, 0, {1, 9}), kPermissiveLid, 1}, 0ns);  // switch port 9: no link
    SmTime t = 0ns;
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(engine.next_deadline(), t + 200ms);
        t += 200ms;
        run_to(engine, t);
    }
    auto c = engine.next_completion();
    ASSERT_TRUE(c);
    EXPECT_EQ(c->outcome, SmpOutcome::kTimedOut);
    EXPECT_EQ(c->attempts, 4u);
    EXPECT_TRUE(engine.idle());
    const SmpKindCounters k = engine.counters().per_kind.at({Method::kGet, attr::kNodeInfo});
    EXPECT_EQ(k.sent, 4u);
    EXPECT_EQ(k.retried, 3u);
    EXPECT_EQ(k.timed_out, 1u);
}

TEST_F(Fixture, LateReplyToAnEarlierAttemptCountsAndTheSecondIsUnmatched) {
    SmpEngine engine(fabric, config);
    fabric.latency = 300ms;
    engine.submit({get(attr::kNodeInfo, 0, {1}), kPermissiveLid, 1}, 0ns);
    run_to(engine, 200ms);  // retried
    EXPECT_EQ(fabric.requests_seen, 2u);
    run_to(engine, 300ms);  // the first attempt's reply
    auto c = engine.next_completion();
    ASSERT_TRUE(c);
    EXPECT_EQ(c->outcome, SmpOutcome::kResponse);
    EXPECT_EQ(c->attempts, 2u);
    run_to(engine, 500ms);  // the second attempt's reply: nobody waits for it
    EXPECT_EQ(engine.counters().unmatched, 1u);
    EXPECT_FALSE(engine.next_completion());
}

TEST_F(Fixture, CancelledRequestsCompleteNeverAndTheirRepliesAreUnmatched) {
    SmpEngine engine(fabric, SmpEngineConfig{2, 200ms, 3});
    fabric.latency = 1ms;
    engine.submit({get(attr::kNodeInfo, 0, {1}), kPermissiveLid, 1}, 0ns);     // on the wire
    engine.submit({get(attr::kPortInfo, 1, {1, 2}), kPermissiveLid, 2}, 0ns);  // on the wire
    engine.submit({get(attr::kPortInfo, 2, {1, 2}), kPermissiveLid, 3}, 0ns);  // queued
    engine.submit({get(attr::kSwitchInfo, 0, {1}), kPermissiveLid, 4}, 0ns);   // queued
    EXPECT_EQ(engine.outstanding(), 2u);
    // Everything along 1,2: one on the wire, one queued; the window refills with the last.
    EXPECT_EQ(engine.cancel([](const SmpRequest &r) { return r.smp.hop_count == 2; }, 0ns), 2u);
    EXPECT_EQ(engine.outstanding(), 2u);
    EXPECT_EQ(engine.queued(), 0u);
    run_to(engine, 2ms);
    const std::vector<SmpCompletion> done = drain(engine);
    ASSERT_EQ(done.size(), 2u);
    EXPECT_EQ(done[0].cookie + done[1].cookie, 1u + 4u);
    EXPECT_TRUE(engine.idle());
    EXPECT_EQ(engine.counters().cancelled, 2u);
    EXPECT_EQ(engine.counters().unmatched, 1u) << "the cancelled request on the wire was answered";
}

TEST_F(Fixture, TransportTimeoutReportRetriesAtOnce) {
    SmpEngine engine(fabric, config);
    fabric.lose_next_requests = 1;
    const std::uint64_t tid = engine.submit({get(attr::kNodeInfo, 0, {1}), kPermissiveLid, 1}, 0ns);
    ReceivedSmp report;
    report.kind = ReceiveKind::kTimedOut;
    report.tid = tid | 0xABCD'0000'0000'0000ull;  // the transport's upper bits do not matter
    engine.on_receive(report, 50ms);
    EXPECT_EQ(fabric.requests_seen, 2u);
    engine.on_receive(report, 60ms);  // a second report for the old attempt changes nothing
    EXPECT_EQ(fabric.requests_seen, 2u);
    run_to(engine, 61ms);
    auto c = engine.next_completion();
    ASSERT_TRUE(c);
    EXPECT_EQ(c->outcome, SmpOutcome::kResponse);
}

TEST_F(Fixture, MalformedReplyEndsTheRequestWithItsPlace) {
    SmpEngine engine(fabric, config);
    fabric.corrupt_reply = [](SmpBytes &b, std::size_t &) { b[7] = 64; };  // hop count
    engine.submit({get(attr::kNodeInfo, 0, {1}), kPermissiveLid, 1}, 0ns);
    run_to(engine, 1ms);
    auto c = engine.next_completion();
    ASSERT_TRUE(c);
    EXPECT_EQ(c->outcome, SmpOutcome::kMalformed);
    ASSERT_TRUE(c->error);
    EXPECT_EQ(c->error->field, "SMP.hop_count");
    EXPECT_EQ(c->error->value, 64u);
    EXPECT_EQ(engine.counters().per_kind.at({Method::kGet, attr::kNodeInfo}).malformed, 1u);
}

TEST_F(Fixture, ReplyForAnotherAttributeIsMalformed) {
    SmpEngine engine(fabric, config);
    fabric.corrupt_reply = [](SmpBytes &b, std::size_t &) { b[17] = 0x10; };  // NodeDescription
    engine.submit({get(attr::kNodeInfo, 0, {1}), kPermissiveLid, 1}, 0ns);
    run_to(engine, 1ms);
    auto c = engine.next_completion();
    ASSERT_TRUE(c);
    EXPECT_EQ(c->outcome, SmpOutcome::kMalformed);
    EXPECT_EQ(c->error->field, "SMP.attr_id");
}

TEST_F(Fixture, TruncatedMadNobodyAskedForIsCountedAndKept) {
    SmpEngine engine(fabric, config);
    fabric.corrupt_reply = [](SmpBytes &, std::size_t &n) { n = 8; };
    engine.submit({get(attr::kNodeInfo, 0, {1}), kPermissiveLid, 1}, 0ns);
    run_to(engine, 1ms);
    EXPECT_EQ(engine.counters().malformed_unmatched, 1u);
    ASSERT_TRUE(engine.counters().last_malformed);
    EXPECT_EQ(engine.counters().last_malformed->field, "SMP.size");
    EXPECT_EQ(engine.outstanding(), 1u);  // still waiting: the request will be retried
}

TEST_F(Fixture, ErrorStatusIsAResponseAndCounted) {
    SmpEngine engine(fabric, config);
    engine.submit({get(attr::kSwitchInfo, 0, {}), kPermissiveLid, 1}, 0ns);  // a CA has none
    run_to(engine, 1ms);
    auto c = engine.next_completion();
    ASSERT_TRUE(c);
    EXPECT_EQ(c->outcome, SmpOutcome::kResponse);
    EXPECT_EQ(c->response.status, status::kUnsupportedMethodAttr);
    EXPECT_EQ(decode_switch_info(c->response).error().field, "SMP.status");
    EXPECT_EQ(engine.counters().per_kind.at({Method::kGet, attr::kSwitchInfo}).error_status, 1u);
}

TEST_F(Fixture, TrapsAreUnsolicited) {
    SmpEngine engine(fabric, config);
    Smp trap = make_lid_smp(Method::kTrap, attr::kNotice, 0, 0x55);
    trap.data = encode_notice(make_port_state_change_notice(0x12)).value();
    fabric.send_trap(trap, 0x12);
    run_to(engine, 1ms);
    auto u = engine.next_unsolicited();
    ASSERT_TRUE(u);
    EXPECT_EQ(u->slid, 0x12);
    const auto notice = decode_notice(u->smp);
    ASSERT_TRUE(notice.ok());
    EXPECT_EQ(decode_port_state_change(notice.value()).value().lid, 0x12);
    EXPECT_EQ(engine.counters().unsolicited, 1u);
    EXPECT_FALSE(engine.next_completion());
}

TEST_F(Fixture, PostedTrapRepressIsSentAndAwaitsNothing) {
    SmpEngine engine(fabric, config);
    Smp trap = make_lid_smp(Method::kTrap, attr::kNotice, 0, 0x55);
    trap.data = encode_notice(make_port_state_change_notice(0x12)).value();
    EXPECT_TRUE(engine.post({make_trap_repress(trap), 0x12, 0}, 0ns));
    EXPECT_EQ(fabric.requests_seen, 1u);
    EXPECT_TRUE(engine.idle());
    run_to(engine, 1s);
    EXPECT_FALSE(engine.next_completion());
    EXPECT_EQ(engine.counters().per_kind.at({Method::kTrapRepress, attr::kNotice}).sent, 1u);
    Smp bad = make_trap_repress(trap);
    bad.mgmt_class = MgmtClass::kDirectedRoute;  // traps are LID-routed
    EXPECT_FALSE(engine.post({bad, 0x12, 0}, 0ns));
    fabric.refuse_sends = true;
    EXPECT_FALSE(engine.post({make_trap_repress(trap), 0x12, 0}, 0ns));
    EXPECT_EQ(engine.counters().per_kind.at({Method::kTrapRepress, attr::kNotice}).send_failed, 1u);
}

TEST_F(Fixture, RefusedSendCompletesWithTheTransportsReason) {
    SmpEngine engine(fabric, config);
    fabric.refuse_sends = true;
    engine.submit({get(attr::kNodeInfo, 0, {1}), kPermissiveLid, 1}, 0ns);
    auto c = engine.next_completion();
    ASSERT_TRUE(c);
    EXPECT_EQ(c->outcome, SmpOutcome::kSendFailed);
    EXPECT_EQ(c->transport_error, "refused by the test fabric");
    EXPECT_TRUE(engine.idle());
    EXPECT_EQ(engine.counters().per_kind.at({Method::kGet, attr::kNodeInfo}).send_failed, 1u);
}

TEST_F(Fixture, RequestThatDoesNotEncodeIsRejected) {
    SmpEngine engine(fabric, config);
    Smp bad = get(attr::kNodeInfo, 0, {1});
    bad.hop_count = 64;
    engine.submit({bad, kPermissiveLid, 1}, 0ns);
    auto c = engine.next_completion();
    ASSERT_TRUE(c);
    EXPECT_EQ(c->outcome, SmpOutcome::kRejected);
    EXPECT_EQ(c->error->field, "SMP.hop_count");
    EXPECT_EQ(fabric.requests_seen, 0u);
}

TEST_F(Fixture, SetsReachTheFabric) {
    SmpEngine engine(fabric, config);
    LftBlock block;
    block.block = 0;
    block.ports.fill(kNoPort);
    block.ports[1] = 1;
    block.ports[2] = 2;
    Smp set = make_dr_smp(Method::kSet, attr::kLinearForwardingTable, 0, std::vector<std::uint8_t>{1}, 0);
    set.data = encode_lft_block(block).value();
    engine.submit({set, kPermissiveLid, 1}, 0ns);
    run_to(engine, 1ms);
    auto c = engine.next_completion();
    ASSERT_TRUE(c);
    ASSERT_EQ(c->outcome, SmpOutcome::kResponse);
    EXPECT_EQ(decode_lft_block(c->response, PortNum{16}).value(), block);
    EXPECT_EQ(fabric.node(sw).lft[2], 2);
    EXPECT_EQ(engine.counters().per_kind.at({Method::kSet, attr::kLinearForwardingTable}).received, 1u);
}

}  // namespace
}  // namespace weft::sm
