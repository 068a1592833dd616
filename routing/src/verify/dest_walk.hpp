// Private: the per-destination view of a set of LFTs that every check and metric builds on.
// For one destination LID, the LFT entries of all switches form a next-hop function; walking it
// once with memoisation gives every switch's fate (delivered after n switch-to-switch hops,
// dropped, or caught in a loop) in O(switches).
//
// The walk reads one LFT entry per switch. Read straight from the per-switch LFTs that is a
// cache miss per switch and destination on a large fabric, so the walker decodes the entries of
// kBlock consecutive LIDs of every switch at once (one cache line per switch, and the table of
// what its ports lead to looked up while it is in cache) into one array per LID, and serves the
// destinations of that block from it; callers that go through the LIDs in order read each LFT
// line once.
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

    // False if the LID has no owner or the owner is not cabled (nothing to route to). Without
    // `hops` the walk fills dist alone (next_of and out_of answer instead of next and out).
    bool walk(Lid d, bool hops = true);

    // Per switch, after walk(): switch-to-switch hops to delivery, or kDropped / kLooped.
    std::vector<std::int32_t> dist;
    // Per switch: the switch the LFT forwards to (kNoSwitch when it delivers or drops).
    std::vector<SwitchIdx> next;
    std::vector<PortNum> out;  // the LFT's port (kNoPort when missing)
    // The same for one switch, after any walk.
    SwitchIdx next_of(SwitchIdx s) const {
        return s == owner_switch && to_switch_ ? kNoSwitch : entry_switch(row_[s]);
    }
    PortNum out_of(SwitchIdx s) const { return s == owner_switch && to_switch_ ? 0 : entry_port(row_[s]); }
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

    // The LFT entries of the kBlock LIDs from block_first(d) on, decoded, LID by LID:
    // block(d)[i * block_stride() + s] says where switch s sends LID block_first(d) + i: its
    // port (entry_port) and the switch on the far side (entry_switch: kNoSwitch for a CA, a
    // dead or missing port). Valid until a walk or block call for a LID of another block.
    static constexpr Lid kBlock = 64;
    static Lid block_first(Lid d) { return d / kBlock * kBlock; }
    const std::uint32_t *block(Lid d);
    std::size_t block_stride() const { return stride_; }
    static PortNum entry_port(std::uint32_t e) { return static_cast<PortNum>(e >> 24); }
    static SwitchIdx entry_switch(std::uint32_t e) {
        const std::uint32_t s = e & kSwitchMask;
        return s < kCaCode ? s : kNoSwitch;
    }

  private:
    // Decoded entries: port << 24 | the far switch, kCaCode (a CA or router) or kDeadCode.
    static constexpr std::uint32_t kSwitchMask = 0xFFFFFFu;
    static constexpr std::uint32_t kCaCode = 0xFFFFFEu;
    static constexpr std::uint32_t kDeadCode = 0xFFFFFFu;
    // Transient dist values during a walk.
    static constexpr std::int32_t kUnknown = -3;
    static constexpr std::int32_t kOnStack = -4;

    std::vector<std::uint32_t> hop_;       // per switch, ports 0..radix, from hop_base_: the far switch code
    std::vector<std::uint32_t> hop_base_;  // per switch
    std::vector<std::uint32_t> block_;     // the decoded block (see block())
    std::size_t stride_ = 0;               // of block_'s rows
    Lid block_lid_ = 0;
    bool block_valid_ = false;
    const std::uint32_t *row_ = nullptr;  // the walked LID's entries in block_
    bool to_switch_ = false;              // the walked LID is a switch's
    std::vector<SwitchIdx> stack_;
    std::vector<SwitchIdx> order_;
    std::vector<std::uint32_t> bucket_;
};

std::string node_label(const Fabric &f, NodeIdx n);

}  // namespace weft::routing::verify
