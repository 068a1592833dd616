// Private: the per-destination view of a set of LFTs that every check and metric builds on.
// For one destination LID, the LFT entries of all switches form a next-hop function; walking it
// once with memoisation gives every switch's fate (delivered after n switch-to-switch hops,
// dropped, or caught in a loop) in O(switches).
//
// The walk reads one LFT entry per switch. Read straight from the per-switch LFTs that is a
// cache miss per switch and destination on a large fabric, so the walker copies the entries of
// kBlock consecutive LIDs of every switch at once (one cache line per switch) and serves the
// destinations of that block from the copy; callers that go through the LIDs in order read each
// LFT line once. What each port leads to is precomputed per switch in one flat table.
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
    // The tables must not change while the walker is in use (it keeps a copy of LFT entries).
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

    // The LFT entries of the kBlock LIDs from block_first(d) on, switch by switch:
    // block(d)[s * kBlock + i] is switch s's entry for LID block_first(d) + i (kNoPort past the
    // end of its LFT). Valid until a walk or block call for a LID of another block.
    static constexpr Lid kBlock = 64;
    static Lid block_first(Lid d) { return d / kBlock * kBlock; }
    const PortNum *block(Lid d);
    // The switch port q of switch s is cabled to, or kNoSwitch (no such port, not linked, a CA).
    SwitchIdx peer_of(SwitchIdx s, PortNum q) const {
        if (q > radix_[s]) return kNoSwitch;
        const std::uint32_t v = hop_[hop_base_[s] + q];
        return v & kCaFlag ? kNoSwitch : v;
    }

  private:
    // hop_ values: a switch index, kCaFlag | the far end's global port index, or kDead.
    static constexpr std::uint32_t kCaFlag = 0x80000000u;
    static constexpr std::uint32_t kDead = 0xFFFFFFFFu;
    // Transient dist values during a walk.
    static constexpr std::int32_t kUnknown = -3;
    static constexpr std::int32_t kOnStack = -4;

    std::vector<std::uint32_t> hop_;       // per switch, ports 0..radix, from hop_base_
    std::vector<std::uint32_t> hop_base_;  // per switch
    std::vector<PortNum> radix_;           // per switch
    std::vector<PortNum> block_;           // the LFT block (see block())
    Lid block_lid_ = 0;
    bool block_valid_ = false;
    std::vector<SwitchIdx> stack_;
    std::vector<SwitchIdx> order_;
    std::vector<std::uint32_t> bucket_;
};

std::string node_label(const Fabric &f, NodeIdx n);

}  // namespace weft::routing::verify
