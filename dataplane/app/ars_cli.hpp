// The ARS part of the weft command set: desired ARS state (profile, ports, ARS objects, LAGs,
// ARS next-hop groups, ACL rules, monitoring) kept on the control thread. Every change is
// validated by building a complete ars::Config first; a refused change prints the library's
// messages and leaves both the state and the published tables as they were.
#pragma once

#include <cmdline.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "weft/ars/config.hpp"
#include "weft/ars/monitor.hpp"

namespace weft::app {

struct CommandContext;

struct ArsState {
    ars::Profile profile;
    std::map<std::uint16_t, ars::PortConfig> ports;
    std::map<std::uint16_t, ars::ArsObjectConfig> objects;
    std::map<std::uint16_t, ars::LagConfig> lags;
    std::map<std::uint32_t, ars::NhgConfig> nhgs;
    std::vector<ars::AclRule> acl;
    bool monitor = false;  // `monitor start`: every ARS object reports reassignments

    ars::BuildResult build(ars::Ticks ticks_per_us) const;
};

// Reassignment events of one worker: the worker appends (single writer), the control thread
// prints what is new. Lossy when the control thread falls more than a ring behind.
struct MonitorLog {
    static constexpr std::size_t kSize = 256;
    std::array<ars::ReassignEvent, kSize> ring{};
    std::atomic<std::uint64_t> head{0};
    std::uint64_t tail = 0;  // control thread only
};

// Every ARS command: `words` are the whole command line split on blanks. Returns false (after
// printing why and the usage) when refused.
bool ars_command(CommandContext &ctx, struct cmdline *cl, const std::vector<std::string> &words);

// The first ARS configuration (every port with its defaults); call once before the first commit.
void ars_init(CommandContext &ctx);

// Removes the ARS part of NHG `id` (its plain `nhg add ... ports` or `nhg del` replaced it).
void ars_forget_nhg(CommandContext &ctx, std::uint32_t id);

// Hooks for the workers' monitoring, and the control loop's printing of new events.
ars::MonitorHook monitor_hook_for(unsigned worker_index, void *logs);
void print_monitor_events(CommandContext &ctx, struct cmdline *cl);

}  // namespace weft::app
