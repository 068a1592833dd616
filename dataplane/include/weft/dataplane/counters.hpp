// Per-lcore counters. Each worker owns one WorkerCounters and is its only writer, so an
// increment is a relaxed load and store (a plain add on x86, no locked instruction); readers on
// other threads sum the workers' values and may see a slightly old total, never a torn one.
#pragma once

#include <rte_common.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "weft/dataplane/drop_reason.hpp"
#include "weft/dataplane/limits.hpp"

namespace weft::dataplane {

class Counter {
  public:
    void add(std::uint64_t n = 1) noexcept {
        v_.store(v_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
    }
    void set(std::uint64_t n) noexcept { v_.store(n, std::memory_order_relaxed); }
    std::uint64_t get() const noexcept { return v_.load(std::memory_order_relaxed); }

  private:
    std::atomic<std::uint64_t> v_{0};
};

struct alignas(RTE_CACHE_LINE_SIZE) PortCounters {
    Counter rx_pkts, rx_bytes;
    Counter tx_pkts, tx_bytes;
    Counter tx_dropped;     // frames given up on at this port's TX buffer
    Counter backlog_bytes;  // gauge: bytes waiting in this worker's TX buffers for the port
};

// The control thread's frames a worker sent for it on ports without a control TX queue
// (Dataplane::send_from_control), by port: written by that worker alone.
struct InjectCounters {
    std::array<Counter, kMaxPorts> sent, failed;
};

struct NhgCounters {
    Counter pkts, bytes;
};

struct alignas(RTE_CACHE_LINE_SIZE) WorkerCounters {
    Counter rx_pkts, rx_bytes;
    // Frames a port's TX queue took (replicas included). A received frame is counted here or
    // under one drop reason, once; while it waits in the worker's TX buffer, in neither.
    Counter fwd_pkts;
    Counter replicas;  // extra copies made for multicast
    // Subnet-management frames for this switch, handed to the control thread: a received frame's
    // third way out, beside forwarded and dropped.
    Counter punted;
    Counter loops;  // loop iterations (liveness)
    // Idle back-off (--idle-sleep-max-us): sleeps taken and the microseconds asked for.
    Counter idle_sleeps, idle_sleep_us;
    std::array<Counter, kDropReasonCount> drops;
    std::array<PortCounters, kMaxPorts> ports;
    std::array<NhgCounters, kMaxNhgs> nhgs;  // by NHG index

    // A frame is counted received when its burst is read and forwarded or dropped later in the
    // same polling round, so the counters agree (rx = forwarded - replicas + dropped + punted) only
    // between rounds. A reader that needs them to agree asks the worker, which copies them
    // between two rounds (serve_reading: one load of the request per round, on a line the
    // reader writes only when it asks). See read_between_rounds.
    struct Reading {
        std::array<std::uint64_t, 5> totals{};  // rx_pkts, rx_bytes, fwd_pkts, replicas, punted
        std::array<std::uint64_t, kDropReasonCount> drops{};
        std::array<std::array<std::uint64_t, 6>, kMaxPorts> ports{};
    };
    alignas(RTE_CACHE_LINE_SIZE) mutable std::atomic<std::uint64_t> reading_requested{0};  // readers
    alignas(RTE_CACHE_LINE_SIZE) std::atomic<std::uint64_t> reading_served{0};             // the worker
    std::atomic<bool> polling{false};  // the worker is in its loop and serves requests
    Reading reading;                   // written by the worker before it stores reading_served

    // The worker, between two polling rounds.
    void serve_reading() noexcept {
        const std::uint64_t asked = reading_requested.load(std::memory_order_acquire);
        if (asked != reading_served.load(std::memory_order_relaxed)) [[unlikely]]
            copy_reading(asked);
    }

  private:
    void copy_reading(std::uint64_t asked) noexcept;
};

// Sums over workers, for the CLI, telemetry and the quality sampler.
struct PortTotals {
    std::uint64_t rx_pkts = 0, rx_bytes = 0, tx_pkts = 0, tx_bytes = 0, tx_dropped = 0, backlog_bytes = 0;
};

struct Totals {
    // Every received frame (and replica) is forwarded, dropped or punted:
    // rx_pkts + replicas == fwd_pkts + dropped() + punted between polling rounds.
    std::uint64_t rx_pkts = 0, rx_bytes = 0, fwd_pkts = 0, replicas = 0, punted = 0;
    std::array<std::uint64_t, kDropReasonCount> drops{};
    std::uint64_t dropped() const noexcept {
        std::uint64_t n = 0;
        for (std::size_t i = 1; i < kDropReasonCount; ++i) n += drops[i];
        return n;
    }
};

// One worker's totals and port counters as of the same instant between two polling rounds.
struct WorkerReading {
    Totals totals;
    std::array<PortTotals, kMaxPorts> ports{};
    bool between_rounds = false;  // false: the worker did not answer in time (read as they were)
};
// Asks a polling worker for its counters and waits for them (microseconds; up to about 100 ms
// for a worker preempted meanwhile); a worker that does not poll is read directly. One reader
// at a time (the control thread).
WorkerReading read_between_rounds(const WorkerCounters &w) noexcept;

Totals sum_totals(const std::vector<const WorkerCounters *> &workers) noexcept;
PortTotals sum_port(const std::vector<const WorkerCounters *> &workers, std::uint16_t port) noexcept;
std::pair<std::uint64_t, std::uint64_t> sum_nhg(const std::vector<const WorkerCounters *> &workers,
                                                std::uint32_t nhg_index) noexcept;  // pkts, bytes

}  // namespace weft::dataplane
