// The control thread's doorbell: it wakes for the bell, and for any socket it is told to watch
// (zebra's FPM connection, the mirror's TAPs and netlink), well before its timeout.
#include "weft/dataplane/punt_doorbell.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace weft::dataplane {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kLong = std::chrono::seconds(20);  // a wake-up that waits for it is a failure

TEST(PuntDoorbell, WakesForTheBellOnceArmed) {
    PuntDoorbell bell;
    bell.ring();  // not armed: nothing written
    EXPECT_FALSE(bell.sleep(std::chrono::microseconds(1000)));
    bell.arm();
    std::thread worker([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        bell.ring();
    });
    const auto t0 = Clock::now();
    EXPECT_TRUE(bell.sleep(kLong));
    EXPECT_LT(Clock::now() - t0, kLong / 2);
    worker.join();
}

TEST(PuntDoorbell, WakesForAWatchedSocketWithoutTheBell) {
    PuntDoorbell bell;
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    bell.arm();
    std::thread zebra([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        ASSERT_EQ(write(fds[1], "x", 1), 1);
    });
    const int watched[] = {-1, fds[0]};  // a closed socket (-1) is skipped
    const auto t0 = Clock::now();
    EXPECT_FALSE(bell.sleep(kLong, watched));  // woken, but the bell did not ring
    EXPECT_LT(Clock::now() - t0, kLong / 2);
    zebra.join();
    close(fds[0]);
    close(fds[1]);
}

}  // namespace
}  // namespace weft::dataplane
