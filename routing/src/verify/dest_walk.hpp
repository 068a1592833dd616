// Private: the per-destination view of a set of LFTs that every check and metric builds on.
// For one destination LID, the LFT entries of all switches form a next-hop function; walking it
// once with memoisation gives every switch's fate (delivered after n switch-to-switch hops,
// dropped, or caught in a loop) in O(switches).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "weft/routing/fabric.hpp"
#include "weft/routing/tables.hpp"

namespace weft::routing::verify {

inline constexpr std::int32_t kDropped = -1;  // LFT leads nowhere (no entry, dead port, wrong node)
inline constexpr std::int32_t kLooped = -2;   // LFT walk revisits a switch

class DestWalker {
  public:
    DestWalker(const Fabric &f, const RoutingTables &t);

    // False if the LID has no owner or the owner is not cabled (nothing to route to).
    bool walk(Lid d);

    // Per switch, after walk(): switch-to-switch hops to delivery, or kDropped / kLooped.
    std::vector<std::int32_t> dist;
    // Per switch: the switch the LFT forwards to (kNoSwitch when it delivers or drops).
    std::vector<SwitchIdx> next;
    std::vector<PortNum> out;            // the LFT's port (kNoPort when missing)
    LidOwner owner;                      // of the LID walked
    SwitchIdx owner_switch = kNoSwitch;  // the switch the owner is or hangs off (kNoSwitch: none)
    std::int32_t max_dist = 0;           // largest dist of this walk

    // Static fabric facts shared by the users.
    const Fabric &f;
    const RoutingTables &t;
    std::vector<SwitchIdx> peer_switch;     // by global port index: the switch on the far side, or kNoSwitch
    std::vector<std::uint32_t> ca_sources;  // per switch: cabled CA/router ports hanging off it
    // Switches in an order where every switch comes after those that forward to it (valid for
    // the last walk; switches that drop or loop are left out).
    const std::vector<SwitchIdx> &sources_first();

  private:
    std::vector<std::uint8_t> state_;
    std::vector<SwitchIdx> stack_;
    std::vector<SwitchIdx> order_;
    std::vector<std::uint32_t> bucket_;
};

std::string node_label(const Fabric &f, NodeIdx n);

}  // namespace weft::routing::verify
