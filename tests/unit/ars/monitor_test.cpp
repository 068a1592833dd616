// The monitoring hook: called on every reassignment of a monitored group, never otherwise.
#include <gtest/gtest.h>

#include <vector>

#include "rig.hpp"

namespace weft::ars {
namespace {

struct Recorder {
    std::vector<ReassignEvent> events;
    static void record(void *self, const ReassignEvent &e) {
        static_cast<Recorder *>(self)->events.push_back(e);
    }
    MonitorHook hook() { return {&Recorder::record, this}; }
};

test::Rig &monitored_rig(test::Rig &rig, bool monitoring) {
    auto b = test::builder();
    ArsObjectConfig o = test::object(1, Mode::kFlowletQuality);
    o.monitoring = monitoring;
    b.add_ars_object(o);
    b.add_nhg(test::nhg(4, 1, {test::primary(40, 0), test::primary(41, 1)}));
    rig.adopt(b);
    return rig;
}

TEST(Monitor, HookSeesEveryReassignmentWithReason) {
    test::Rig rig;
    monitored_rig(rig, true);
    Recorder rec;
    rig.worker.set_monitor_hook(rec.hook());
    const PortId first = rig.worker.select_nhg(4, 0xAB, 0).port;  // new flow: not a reassignment
    EXPECT_TRUE(rec.events.empty());
    rig.board.set_link_up(first, false);
    rig.worker.select_nhg(4, 0xAB, 5);
    ASSERT_EQ(rec.events.size(), 1u);
    const ReassignEvent &e = rec.events[0];
    EXPECT_EQ(e.group_id, 4u);
    EXPECT_EQ(e.ars_object, 1);
    EXPECT_EQ(e.reason, ReassignReason::kLinkDown);
    EXPECT_EQ(e.old_member_id, first == 0 ? 40u : 41u);
    EXPECT_EQ(e.new_member_id, first == 0 ? 41u : 40u);
    EXPECT_EQ(e.old_target, EgressTarget::port(first));
    EXPECT_EQ(e.now, 5u);
}

TEST(Monitor, OffUnlessEnabledByObjectOrAcl) {
    test::Rig rig;
    monitored_rig(rig, false);
    Recorder rec;
    rig.worker.set_monitor_hook(rec.hook());
    const PortId first = rig.worker.select_nhg(4, 1, 0).port;
    rig.board.set_link_up(first, false);
    rig.worker.select_nhg(4, 1, 1);
    EXPECT_TRUE(rec.events.empty());
    rig.board.set_link_up(first, true);
    const PortId now_on = rig.worker.select_nhg(4, 1, 2).port;
    rig.board.set_link_up(now_on, false);
    AclVerdict on;
    on.flags = AclVerdict::kMonitorOn;
    rig.worker.select_nhg(4, 1, 3, on);
    EXPECT_EQ(rec.events.size(), 1u);
}

}  // namespace
}  // namespace weft::ars
