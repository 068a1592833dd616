// ARS monitoring events of one worker: the worker appends through its ars::MonitorHook (single
// writer, no lock), the control thread prints what is new. Lossy when the control thread falls
// more than a ring behind; the loss is reported, never waited for.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "weft/ars/monitor.hpp"

namespace weft::control {

struct MonitorLog {
    static constexpr std::size_t kSize = 256;
    std::array<ars::ReassignEvent, kSize> ring{};
    std::atomic<std::uint64_t> head{0};
    std::uint64_t tail = 0;  // control thread only
};

// For Dataplane::set_ars_monitor: `logs` is a std::vector<std::unique_ptr<MonitorLog>> with
// one log per worker.
ars::MonitorHook monitor_hook_for(unsigned worker_index, void *logs);

}  // namespace weft::control
