// Private: the per-destination view of a set of LFTs that every check and metric builds on.
// For one destination LID, the LFT entries of all switches form a next-hop function; walking it
// once with memoisation gives every switch's fate (delivered after n switch-to-switch hops,
// dropped, or caught in a loop) in O(switches).
//
// The switches are taken nearest the destination first (by cabled distance), so on minimal
// routes every switch's next one is settled when it comes: one pass, no chains to follow.
//
// The walk reads one LFT entry per switch. Read straight from the per-switch LFTs that is a
// cache miss per switch and destination on a large fabric, so the walker decodes the entries of
// kBlock consecutive LIDs of every switch at once (one cache line per switch, and the table of
// what its ports lead to looked up while it is in cache) into one array of next switches per
// LID, and serves the destinations of that block from it; callers that go through the LIDs in
// order read each LFT line once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "switch_distances.hpp"
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
        return s == owner_switch && to_switch_ ? kNoSwitch : code_switch(row_[s]);
    }
    PortNum out_of(SwitchIdx s) const { return s == owner_switch && to_switch_ ? 0 : col_[s * kBlock]; }
    LidOwner owner;                      // of the LID walked
    SwitchIdx owner_switch = kNoSwitch;  // the switch the owner is or hangs off (kNoSwitch: none)
    std::int32_t max_dist = 0;           // largest dist of this walk
    // Per switch, after a walk with an owner switch: the shortest cabled distance to it
    // (SwitchDistances::kFar where there is no cabled path).
    const std::uint16_t *shortest() const { return shortest_; }

    // Static fabric facts shared by the users.
    const Fabric &f;
    const RoutingTables &t;
    std::vector<SwitchIdx> peer_switch;     // by global port index: the switch on the far side, or kNoSwitch
    std::vector<std::uint32_t> ca_sources;  // per switch: cabled CA/router ports hanging off it
    // Switches in an order where every switch comes after those that forward to it (valid for
    // the last walk; switches that drop or loop are left out).
    const std::vector<SwitchIdx> &sources_first();

    // The LFT entries of the kBlock LIDs from block_first(d) on, after block(d) (valid until a
    // walk or block call for a LID of another block), two ways:
    // - by LID: next_block()[i * block_stride() + s] is the switch that switch s sends LID
    //   block_first(d) + i to, as a code (code_switch: kNoSwitch for a CA, a dead or missing port);
    // - by switch: port_block()[s * kBlock + i] is the LFT's port itself.
    static constexpr Lid kBlock = 64;
    static Lid block_first(Lid d) { return d / kBlock * kBlock; }
    void block(Lid d);
    const std::uint16_t *next_block() const { return next_.data(); }
    const PortNum *port_block() const { return ports_.data(); }
    std::size_t block_stride() const { return stride_; }
    static SwitchIdx code_switch(std::uint16_t c) { return c < kCaCode ? c : kNoSwitch; }

  private:
    // Switch codes: the switch index, or kCaCode (a CA or router) or kDeadCode. Sixteen bits
    // keep the block and the port table in cache; a fabric of more switches than that has more
    // than 16-bit LIDs can address (the walker refuses it).
    static constexpr std::uint16_t kCaCode = 0xFFFE;
    static constexpr std::uint16_t kDeadCode = 0xFFFF;
    // Transient dist values during a walk.
    static constexpr std::int32_t kUnknown = -3;
    static constexpr std::int32_t kOnStack = -4;

    std::vector<std::uint16_t> hop_;       // per switch, ports 0..radix, from hop_base_: the far switch code
    std::vector<std::uint32_t> hop_base_;  // per switch, and one past the last
    std::vector<std::uint16_t> next_;      // the block by LID (see block())
    std::vector<PortNum> ports_;           // the block by switch
    std::size_t stride_ = 0;               // of next_'s rows
    Lid block_lid_ = 0;
    bool block_valid_ = false;
    const std::uint16_t *row_ = nullptr;  // the walked LID's row of next_
    const PortNum *col_ = nullptr;        // the walked LID's column of ports_ (stride kBlock)
    bool to_switch_ = false;              // the walked LID is a switch's
    SwitchDistances distances_;
    const std::uint16_t *shortest_ = nullptr;
    std::vector<SwitchIdx> stack_;
    std::vector<SwitchIdx> order_;
    std::vector<std::uint32_t> bucket_;
};

std::string node_label(const Fabric &f, NodeIdx n);

}  // namespace weft::routing::verify
