// Verification of routing tables against a fabric.
//
// Path tracing follows the LFTs for every (source, destination LID) pair, where sources are CA
// and router ports and switches (through their own LFT) and destinations are every LID owned by
// a connected port. It works per destination: the LFT entries for one LID form a next-hop
// function on the switches, walked once with memoisation, so a 20 000-node fabric costs
// O(switches x LIDs) with no per-pair state.
//
// The credit-loop check follows ibdmchk: nodes of the channel dependency graph are (directed
// link, VL); every CA-to-CA path adds an edge for each pair of consecutive switch-to-switch
// hops, with the VL of each hop given by the path's SL and the SL2VL table of the switch it
// leaves through (identity when the tables are empty). A cycle is reported with its channels.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "weft/routing/fabric.hpp"
#include "weft/routing/tables.hpp"

namespace weft::routing {

using ProgressFn = std::function<void(std::size_t done, std::size_t total)>;

struct PathIssue {
    NodeIdx src = kNoNode;  // source node (a switch, or the CA port's node)
    PortNum src_port = 0;
    Lid dst = 0;
    std::string what;  // "unreachable: ...", "loop: ...", "non-minimal: ..."
};

struct PathReport {
    std::uint64_t pairs = 0;  // (source, destination LID) pairs traced
    // CA-sourced pairs whose LFT walk leads nowhere (missing entry, dead port, wrong node).
    std::uint64_t unreachable = 0;
    // Switch-sourced pairs that are unreachable: reported, not a failure (up*/down* engines
    // leave root-to-root LIDs unrouted unless OpenSM's connect_roots is set; SMPs use
    // directed routes).
    std::uint64_t switch_unreachable = 0;
    std::uint64_t loops = 0;                  // LFT walk revisits a switch
    std::uint64_t non_minimal = 0;            // delivered, but longer than the shortest cabled path
    std::uint64_t unreachable_in_fabric = 0;  // no cabled path at all (not the routing's fault)
    unsigned max_hops = 0;                    // links on the longest delivered path
    double mean_hops = 0;
    std::vector<std::uint64_t> hop_histogram;  // delivered pairs by link count
    std::vector<PathIssue> examples;           // the first few issues of each kind
    bool ok() const { return unreachable == 0 && loops == 0; }
};

// threads: how many to spread the destinations over (0: one per hardware thread; small fabrics
// use one). The reports do not depend on it.
PathReport trace_paths(const Fabric &f, const RoutingTables &t, const ProgressFn &progress = {},
                       unsigned threads = 0);

// One channel of the dependency graph: the link leaving (node, port), on a VL.
struct Channel {
    NodeIdx node = kNoNode;
    PortNum port = 0;
    std::uint8_t vl = 0;
};

struct CreditLoopReport {
    bool has_cycle = false;
    std::vector<Channel> cycle;                   // c0 -> c1 -> ... -> c0 when has_cycle
    unsigned vls = 1;                             // VLs that carry traffic
    std::uint64_t dependencies = 0;               // distinct edges in the dependency graph
    std::string describe(const Fabric &f) const;  // the cycle, one channel per line
};

CreditLoopReport check_credit_loops(const Fabric &f, const RoutingTables &t, const ProgressFn &progress = {},
                                    unsigned threads = 0);

// Both checks in one pass: each destination is walked once for the two (what a tool that runs
// both should call). The reports are those of trace_paths and check_credit_loops.
struct RoutingCheck {
    PathReport paths;
    CreditLoopReport credit_loops;
};
RoutingCheck check_routing(const Fabric &f, const RoutingTables &t, const ProgressFn &progress = {},
                           unsigned threads = 0);

// The same check over routes given as turns rather than read from LFTs: routes that depend on more
// than the destination (a multicast's replication, prefix multicast's way up to the LCP), or
// routes of a scheme under test. A turn says that packets holding the channel into `node` by
// `in_port` (from the switch on its other end) wait for the channel out of `node` by `out_port`;
// a replicating switch adds one turn per output. Turns from or to a port cabled to a CA add
// nothing (as ibdmchk, CA links are not in the graph). Throws std::invalid_argument on a turn at
// a node that is not a switch or on a port that is not linked.
struct ChannelTurn {
    NodeIdx node = kNoNode;
    PortNum in_port = 0;
    PortNum out_port = 0;
    std::uint8_t vl_in = 0;
    std::uint8_t vl_out = 0;
};
CreditLoopReport check_turn_credit_loops(const Fabric &f, std::span<const ChannelTurn> turns);

struct ArsGroups;
// The same check over the union of every choice ARS may make (ars_groups.hpp): per destination
// leaf, a packet at any switch may leave by any member of that switch's group (fixed, primary or
// alternate), keeping the SL of its source switch's path; VLs per hop from the SL2VL tables as
// above. A forwarding loop through the groups shows up as a cycle.
CreditLoopReport check_ars_credit_loops(const Fabric &f, const RoutingTables &t, const ArsGroups &groups,
                                        const ProgressFn &progress = {});

// Check of one multicast group's spanning tree (McastTree): every port listed is linked (port 0
// only on a switch that is itself a member), a CA port listed is a member, a switch-to-switch
// link is listed at both ends, the listed links join the on-tree switches into one tree (no
// cycle, so no switch is reached twice; parallel cables count as a cycle), and every member is
// reached. Groups with fewer than two members may have an empty tree (OpenSM leaves them
// unconfigured).
struct McastTreeReport {
    std::size_t switches = 0;           // switches on the tree
    std::size_t links = 0;              // switch-to-switch links of the tree
    std::vector<std::string> problems;  // one line each; empty when the tree is good
    bool ok() const { return problems.empty(); }
};

McastTreeReport verify_mcast_tree(const Fabric &f, const McastGroup &g, const McastTree &t);

// Human name of a directed channel: "'desc' (0x<guid>) port P -> 'desc' port Q".
std::string channel_name(const Fabric &f, NodeIdx n, PortNum p);

}  // namespace weft::routing
