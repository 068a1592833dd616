// Programming a routed fabric, in OpenSM's order and each step over the whole fabric before the
// next (the window kept full within a step):
//   1. PortInfo Set of every end port (CA/router ports, switch port 0): LID, LMC, MasterSMLID;
//   2. SwitchInfo Set where LinearFDBTop changes;
//   3. LinearForwardingTable blocks of 64 LIDs — only those that differ from what the switch
//      holds: a switch that holds a table (LinearFDBTop > 0) is read first, block by block, and
//      only differing blocks are written; blocks past its old top, or of a switch that held none,
//      are written whole;
//   4. SLtoVLMappingTable of each switch port pair where the engine assigns VLs — on a switch
//      whose memory holds (below) only the pairs whose table changed or whose ports were not
//      ACTIVE when read (a link that came back up is programmed again, as OpenSM does);
//   4b. MulticastForwardingTable blocks (32 MLIDs by 16 ports) of the multicast trees: on a
//      switch whose memory holds, only the blocks that changed (a group gone is written empty);
//      elsewhere every block of the MLIDs in use, empty ones too (stale entries of another SM go);
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
#include <unordered_map>
#include <vector>

#include "weft/routing/tables.hpp"
#include "weft/sm/discovery.hpp"
#include "weft/sm/linear_forwarding_table.hpp"
#include "weft/sm/multicast_forwarding_table.hpp"
#include "weft/sm/sl_to_vl_table.hpp"
#include "weft/sm/smp_loop.hpp"

namespace weft::sm {

// What a resident SM programmed into each switch (by node GUID): its LinearFDBTop, every entry
// of the blocks up to it and the SL2VL tables it set. A switch whose LinearFDBTop still reads as
// programmed is taken to hold these (as OpenSM assumes), so its blocks and SL2VL tables are
// compared here instead of read or rewritten; a switch that was reset (top 0) or reprogrammed by
// another SM (another top) is read again and its SL2VL tables are set whole.
struct HeldTables {
    Lid top = 0;
    std::vector<PortNum> entries;  // whole blocks: (top / 64 + 1) * 64
    // sl_to_vl_attr_mod(in, out) -> the table Set there (only pairs whose Set was answered).
    std::map<std::uint32_t, SlToVlTable> sl2vl;
    // MftBlock::attr_mod() -> the port masks Set there (only blocks whose Set was answered).
    std::map<std::uint32_t, std::array<std::uint16_t, kMftBlockSize>> mft;
    // vLID LFT block (1024 and up) -> the ports Set there (only blocks whose Set was answered).
    std::map<std::uint32_t, std::array<PortNum, kLftBlockSize>> vlid;
};
using TableMemory = std::unordered_map<std::uint64_t, HeldTables>;

struct ProgramReport {
    std::size_t port_info_sets = 0;    // LID/LMC/SM LID
    std::size_t switch_info_sets = 0;  // LinearFDBTop
    std::size_t lft_blocks_read = 0;
    std::size_t lft_blocks_set = 0;
    std::size_t lft_blocks_unchanged = 0;   // found equal (read, or as remembered): not written
    std::size_t lft_blocks_remembered = 0;  // compared with what was programmed before, not read
    std::size_t lft_vlid_blocks_set = 0;    // of lft_blocks_set: the secondary LFT's (vLIDs)
    std::size_t sl2vl_sets = 0;
    std::size_t sl2vl_unchanged = 0;  // as remembered: not written
    std::size_t mft_blocks_set = 0;
    std::size_t mft_blocks_unchanged = 0;  // as remembered: not written
    std::size_t armed = 0, activated = 0;  // port-state Sets
    std::size_t failures = 0;              // Sets or Gets that were refused, unanswered or malformed
    // The logical state each linked port was left in (as its last reply said).
    std::map<std::pair<routing::NodeIdx, PortNum>, PortState> port_states;
    TableMemory programmed;             // the switches whose whole table is now known to be the routing's
    std::vector<std::string> problems;  // one located line each
};

struct ProgramOptions {
    std::function<void(std::string_view)> log;
    bool activate = true;                                    // step 5
    const std::vector<routing::McastTree> *mcast = nullptr;  // the multicast trees to program (4b)
    const TableMemory *held = nullptr;  // what an earlier sweep programmed (ProgramReport::programmed)
};

// `d.fabric` carries the LIDs to program (routing::assign_lids on it) and `t` its routing;
// `sm_lid` is the SM port's LID (every port's MasterSMLID).
ProgramReport program_fabric(SmpEngine &engine, const SmClock &clock, const DiscoveryResult &d,
                             const routing::RoutingTables &t, Lid sm_lid, const ProgramOptions &options = {});

}  // namespace weft::sm
