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

struct NhgCounters {
    Counter pkts, bytes;
};

struct alignas(RTE_CACHE_LINE_SIZE) WorkerCounters {
    Counter rx_pkts, rx_bytes;
    // Frames a port's TX queue took (replicas included). A received frame is counted here or
    // under one drop reason, once; while it waits in the worker's TX buffer, in neither.
    Counter fwd_pkts;
    Counter replicas;  // extra copies made for multicast
    Counter loops;     // loop iterations (liveness)
    std::array<Counter, kDropReasonCount> drops;
    std::array<PortCounters, kMaxPorts> ports;
    std::array<NhgCounters, kMaxNhgs> nhgs;  // by NHG index
};

// Sums over workers, for the CLI, telemetry and the quality sampler.
struct PortTotals {
    std::uint64_t rx_pkts = 0, rx_bytes = 0, tx_pkts = 0, tx_bytes = 0, tx_dropped = 0, backlog_bytes = 0;
};

struct Totals {
    std::uint64_t rx_pkts = 0, rx_bytes = 0, fwd_pkts = 0, replicas = 0;
    std::array<std::uint64_t, kDropReasonCount> drops{};
    std::uint64_t dropped() const noexcept {
        std::uint64_t n = 0;
        for (std::size_t i = 1; i < kDropReasonCount; ++i) n += drops[i];
        return n;
    }
};

Totals sum_totals(const std::vector<const WorkerCounters *> &workers) noexcept;
PortTotals sum_port(const std::vector<const WorkerCounters *> &workers, std::uint16_t port) noexcept;
std::pair<std::uint64_t, std::uint64_t> sum_nhg(const std::vector<const WorkerCounters *> &workers,
                                                std::uint32_t nhg_index) noexcept;  // pkts, bytes

}  // namespace weft::dataplane
