// What the command set works on: the running dataplane, the FIB builder whose snapshots it
// publishes, the ARS quality sampler, the accepted ARS state, and the per-worker monitoring
// logs. One context per process, owned by the application, used on the control thread only.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "weft/ars/config.hpp"
#include "weft/control/arn_state.hpp"
#include "weft/control/ars_state.hpp"
#include "weft/control/monitor_log.hpp"
#include "weft/control/stats_baseline.hpp"
#include "weft/dataplane/ars_sampler.hpp"
#include "weft/dataplane/dataplane.hpp"
#include "weft/dataplane/fib_builder.hpp"

namespace weft::control {

class FpmServer;
namespace fabric {
class SwitchAgent;
class SmService;
}  // namespace fabric
namespace lcp {
class LinuxCp;
}  // namespace lcp

struct CommandContext {
    dataplane::Dataplane *dp = nullptr;
    dataplane::FibBuilder *fib = nullptr;
    dataplane::ArsSampler *sampler = nullptr;
    ArsState ars;                                           // accepted ARS state
    std::shared_ptr<const ars::Config> ars_config;          // built from `ars`, published with the FIB
    std::vector<std::unique_ptr<MonitorLog>> monitor_logs;  // one per worker
    StatsBaseline stats;                                    // what `clear port stats` zeroed
    fabric::SwitchAgent *sma = nullptr;                     // the switch's SMA (null: none)
    fabric::SmService *sm = nullptr;                        // the SM inside it (running or not)
    lcp::LinuxCp *lcp = nullptr;                            // the kernel mirror (null: off)
    FpmServer *fpm = nullptr;                               // zebra's FPM server (null: none)
    ArnState arn;                                           // accepted ARN state (`arn ...`)
    dataplane::ArnAgent *arn_agent = nullptr;               // the ARN state's owner (null: none)
    ars::Ticks ticks_per_us = 1;
    bool quit = false;
    unsigned errors = 0;  // commands refused since start
    // Set while `route load` runs its lines: a command's refusal is stored here (not printed),
    // and what it changes is staged in the FIB builder, not published.
    std::string *batch_refusal = nullptr;
};

}  // namespace weft::control
