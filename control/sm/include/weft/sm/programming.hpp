// Programming a routed fabric, in OpenSM's order and each step over the whole fabric before the
// next (the window kept full within a step):
//   1. PortInfo Set of every end port (CA/router ports, switch port 0): LID, LMC, MasterSMLID;
//   2. SwitchInfo Set where LinearFDBTop changes;
//   3. LinearForwardingTable blocks of 64 LIDs — only those that differ from what the switch
//      holds: a switch that holds a table (LinearFDBTop > 0) is read first, block by block, and
//      only differing blocks are written; blocks past its old top, or of a switch that held none,
//      are written whole;
//   4. SLtoVLMappingTable of each switch port pair where the engine assigns VLs;
//   5. port states: every end of every link INIT -> ARMED (with OperationalVLs where VLs are
//      used), then ARMED -> ACTIVE.
// Sets that need nothing (the value already there) are not sent. A refused or unanswered Set is
// a located log line and counted; the other switches are still programmed.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "weft/routing/tables.hpp"
#include "weft/sm/discovery.hpp"
#include "weft/sm/smp_loop.hpp"

namespace weft::sm {

struct ProgramReport {
    std::size_t port_info_sets = 0;    // LID/LMC/SM LID
    std::size_t switch_info_sets = 0;  // LinearFDBTop
    std::size_t lft_blocks_read = 0;
    std::size_t lft_blocks_set = 0;
    std::size_t lft_blocks_unchanged = 0;  // read and found equal: not written
    std::size_t sl2vl_sets = 0;
    std::size_t armed = 0, activated = 0;  // port-state Sets
    std::size_t failures = 0;              // Sets or Gets that were refused, unanswered or malformed
    // The logical state each linked port was left in (as its last reply said).
    std::map<std::pair<routing::NodeIdx, PortNum>, PortState> port_states;
    std::vector<std::string> problems;  // one located line each
};

struct ProgramOptions {
    std::function<void(std::string_view)> log;
    bool activate = true;  // step 5
};

// `d.fabric` carries the LIDs to program (routing::assign_lids on it) and `t` its routing;
// `sm_lid` is the SM port's LID (every port's MasterSMLID).
ProgramReport program_fabric(SmpEngine &engine, const SmClock &clock, const DiscoveryResult &d,
                             const routing::RoutingTables &t, Lid sm_lid, const ProgramOptions &options = {});

}  // namespace weft::sm
