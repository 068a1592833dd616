// The event queue: earliest first, and simultaneous events in the order of what they are, however
// they were pushed.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "weft/ars/rng.hpp"
#include "weft/sim/event_queue.hpp"

namespace weft::sim {
namespace {

TEST(EventQueue, EarliestFirst) {
    EventQueue q;
    q.push(30, 1);
    q.push(10, 2);
    q.push(20, 3);
    ASSERT_EQ(q.size(), 3u);
    EXPECT_EQ(q.pop().time, 10u);
    EXPECT_EQ(q.pop().time, 20u);
    EXPECT_EQ(q.pop().time, 30u);
    EXPECT_TRUE(q.empty());
}

TEST(EventQueue, SimultaneousEventsByKindThenId) {
    EventQueue q;
    q.push(5, Event::make(3, 7));
    q.push(5, Event::make(1, 9));
    q.push(5, Event::make(3, 2));
    q.push(4, Event::make(9, 0));
    q.push(5, Event::make(1, 1));
    const Event a = q.pop(), b = q.pop(), c = q.pop(), d = q.pop(), e = q.pop();
    EXPECT_EQ(a.time, 4u);
    EXPECT_EQ(b.kind(), 1u);
    EXPECT_EQ(b.id(), 1u);
    EXPECT_EQ(c.kind(), 1u);
    EXPECT_EQ(c.id(), 9u);
    EXPECT_EQ(d.kind(), 3u);
    EXPECT_EQ(d.id(), 2u);
    EXPECT_EQ(e.kind(), 3u);
    EXPECT_EQ(e.id(), 7u);
}

// Any push order of the same events gives the same pop order: sorted by (time, what).
TEST(EventQueue, OrderIndependentOfPushOrder) {
    ars::Rng rng(42, 0);
    std::vector<Event> events;
    for (std::uint32_t i = 0; i < 5000; ++i)
        events.push_back({rng.below(200), Event::make(rng.below(10), rng.below(1000))});
    std::vector<Event> expected = events;
    std::sort(expected.begin(), expected.end(), comes_before);
    for (int round = 0; round < 3; ++round) {
        for (std::size_t i = events.size(); i > 1; --i) std::swap(events[i - 1], events[rng.below(i)]);
        EventQueue q;
        for (const Event &e : events) q.push(e.time, e.what);
        std::vector<Event> out;
        while (!q.empty()) out.push_back(q.pop());
        ASSERT_EQ(out.size(), expected.size());
        for (std::size_t i = 0; i < out.size(); ++i) {
            EXPECT_EQ(out[i].time, expected[i].time) << i;
            EXPECT_EQ(out[i].what, expected[i].what) << i;
        }
    }
}

TEST(EventQueue, PushDuringPopsKeepsOrder) {
    EventQueue q;
    ars::Rng rng(7, 1);
    q.push(0, 0);
    Time last = 0;
    std::uint32_t last_what = 0;
    for (int i = 0; i < 20000 && !q.empty(); ++i) {
        const Event e = q.pop();
        ASSERT_TRUE(e.time > last || (e.time == last && e.what >= last_what));
        last = e.time;
        last_what = e.what;
        const unsigned n = rng.below(3);
        for (unsigned k = 0; k < n && q.size() < 1000; ++k)
            q.push(e.time + rng.below(50), rng.below(1u << 20));
    }
}

TEST(Rate, SerializationTimes) {
    EXPECT_EQ(Rate(100e9).serialize(1500), 120 * kNs);
    EXPECT_EQ(Rate(400e9).serialize(4096), 81920u);
    EXPECT_EQ(Rate(10e9).serialize(64), 51200u);
    EXPECT_EQ(Rate(25e9).serialize(1000), 320 * kNs);
    EXPECT_EQ(Rate(100e9).bytes_in(1 * kUs), 12500u);
}

}  // namespace
}  // namespace weft::sim
