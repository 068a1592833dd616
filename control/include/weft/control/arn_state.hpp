// The desired ARN state the CLI keeps (`arn ...` commands) and its plan: the switch's dragonfly
// group (its local links, every global link of the group and the group beyond it, the next-hop
// groups toward each destination group), as the SM found it when weft's SM runs the fabric and
// sent it with the switch's table (WeftArnGroup, control/sm/include/weft/sm/arn_group.hpp), or as
// configured (when FRR runs the fabric, or `arn topology config`), turned into this switch's part of the
// prefix-multicast flood tables (arn's labels over the group's breadth-first tree, rooted at the
// lowest switch id, so every switch of the group computes the same tree), the ports its detector
// watches, the candidate paths per destination group and their remote quality slots. Pure: no
// dataplane state but what the inputs give.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "weft/arn/best_path_table.hpp"
#include "weft/arn/detector.hpp"
#include "weft/ars/types.hpp"
#include "weft/dataplane/arn_agent.hpp"
#include "weft/dataplane/arn_tables.hpp"

namespace weft::control {

// Ports here are dataplane ports (ARN's numbering is one more).
struct ArnLocalLink {
    arn::SwitchId a = 0;
    std::uint16_t port_a = 0;
    arn::SwitchId b = 0;
    std::uint16_t port_b = 0;
    friend auto operator<=>(const ArnLocalLink &, const ArnLocalLink &) = default;
};

struct ArnGlobalLink {
    arn::SwitchId owner = 0;
    std::uint16_t port = 0;
    arn::GroupId peer_group = 0;
    friend auto operator<=>(const ArnGlobalLink &, const ArnGlobalLink &) = default;
};

// The switch's detector averages over a millisecond unless told otherwise (`arn window`): some 60
// of the ARS sampler's 16 us intervals, so a port's congestion is judged on its load, not on the
// packet or two of one interval.
inline constexpr std::uint32_t kArnDefaultWindowUs = 1000;

// A dragonfly group as this switch sees it.
struct ArnTopology {
    std::vector<ArnLocalLink> links;             // ascending, no duplicates
    std::vector<ArnGlobalLink> globals;          // ascending, no duplicates
    std::map<std::uint32_t, arn::GroupId> nhgs;  // NHG id -> the destination group it leads to
    friend bool operator==(const ArnTopology &, const ArnTopology &) = default;
};

struct ArnState {
    bool enabled = false;
    std::optional<arn::SwitchId> self;  // none: the SMA's node GUID
    std::uint16_t ethertype = arn::kArnEtherType;
    dataplane::ArnEncapsulation encapsulation = dataplane::ArnEncapsulation::kEthernet;
    std::uint16_t udp_port = arn::kArnUdpPort;
    // The group as configured (`arn link`, `arn global`, `arn nhg`).
    std::vector<ArnLocalLink> links;             // ascending, no duplicates
    std::vector<ArnGlobalLink> globals;          // ascending, no duplicates
    std::map<std::uint32_t, arn::GroupId> nhgs;  // NHG id -> the destination group it leads to
    // The group as the SM sent it with the switch's last table; used instead of the configured
    // one unless `arn topology config`.
    std::optional<ArnTopology> from_sm;
    bool use_sm = true;
    bool uses_sm() const { return use_sm && from_sm.has_value(); }
    std::map<std::uint16_t, std::uint64_t> speeds;  // port -> line rate the detector assumes
    arn::DetectorConfig detector = [] {
        arn::DetectorConfig c;
        c.window_us = kArnDefaultWindowUs;
        return c;
    }();
    arn::BptConfig bpt;
    std::uint32_t rx_pps = 20000;  // per worker and fabric port
    std::uint32_t rx_burst = 64;
};

// What the plan needs of the switch.
struct ArnInputs {
    arn::SwitchId self = 0;
    std::uint16_t num_ports = 0;
    std::uint64_t fabric_ports = 0;          // mask
    std::vector<std::uint64_t> port_speeds;  // Mbit/s as the ports report them (0: unknown)
    std::uint64_t ticks_per_us = 1;
};

struct ArnPlan {
    std::shared_ptr<dataplane::ArnTables> tables;
    std::shared_ptr<dataplane::ArnSetup> setup;
    // The remote slot of each (NHG id, port) member toward a destination group.
    std::map<std::pair<std::uint32_t, std::uint16_t>, ars::RemoteSlot> member_slots;
    std::vector<arn::SwitchId> switches;  // the group, ascending (node index order)
    std::vector<std::string> labels;      // their prefix labels
};

// The line rate the detector assumes for a port that reports none (a vdev).
inline constexpr std::uint64_t kArnDefaultSpeedMbps = 10000;

// The plan, or why the state does not make one (a port joined twice, a switch of the group not
// reachable over the local links, ...).
struct ArnPlanResult {
    std::optional<ArnPlan> plan;
    std::string error;
};
ArnPlanResult plan_arn(const ArnState &state, const ArnInputs &in);

}  // namespace weft::control
