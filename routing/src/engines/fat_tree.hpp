// Private: OpenSM's fat-tree routing (ftree.cpp), shared with vswitch-ftree (vswitch_ftree.cpp),
// which routes each VM of a vSwitch on its own through the same machinery with a weight.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "weft/routing/engine.hpp"
#include "weft/routing/ftree.hpp"

namespace weft::routing::engines {

constexpr SwitchIdx kNone = kNoSwitch;
constexpr std::uint64_t kLoadUnit = std::uint64_t{1} << 32;  // one route in a Slot key

struct FtPort {
    PortNum port = 0, remote_port = 0;
    std::uint8_t group_width = 0;    // on a group's first port: the ports in the group
    std::uint32_t up = 0, down = 0;  // routes (their weights) going up / down through this link
};

struct FtGroup {
    SwitchIdx remote = kNone;  // kNone: the group is a CA port
    NodeIdx ca = kNoNode;
    PortNum ca_port = 0;
    bool cn = false, io = false;
    bool up = false;                     // the remote switch is nearer the roots
    std::uint32_t first = 0, count = 0;  // ports
};

struct FtSwitch {
    unsigned rank = 0;
    bool leaf = false;  // has compute nodes
    std::uint64_t tuple = 0;
    bool indexed = false;
    std::uint32_t gbeg = 0, gend = 0;  // its groups in groups_, in port order
    std::uint32_t cns = 0;
    // Routing view: switch groups only, as ranges of FatTree::slots_.
    std::uint32_t up_off = 0, up_len = 0, down_off = 0, down_len = 0;
    bool switch_below = false, ca_below = false;
};

class FatTree {
  public:
    std::string analyse(const Fabric &f, const RoutingOptions &o);
    void route(const Fabric &f, const RoutingOptions &o, RoutingTables &t);
    FtreeCaOrder ca_order(const Fabric &f) const;
    // vswitch-ftree (seed 002, Algorithm 1): after route(), with every load back at zero, each VM
    // of each leaf's vSwitches (fewest VMs first) is routed as a compute node of weight
    // 1/(VMs on its vSwitch); a CN without VMs counts as one dummy node, as do missing CNs.
    void route_vms(const Fabric &f, RoutingTables &t);

  private:
    // Where the current LID's routes go: hops per switch (read back by the visits) and the
    // LID's slot in every switch's staged entries (see stage_). Copied into locals by the
    // visits, because byte stores could alias members and would force reloads after every store.
    struct Column {
        std::uint8_t *hop;
        std::uint16_t *stage;  // switch s's entry at stage[s * kStaged]
        void set(SwitchIdx sw, PortNum port, unsigned h) const {
            const auto b = static_cast<std::uint8_t>(std::min(h, unsigned{kInfHops - 1}));
            hop[sw] = b;
            stage[std::size_t{sw} * kStaged] = static_cast<std::uint16_t>(b << 8 | port);
        }
    };
    // Routes are staged for kStaged LIDs at a time and then written switch by switch: the LFT
    // and hop rows are separate allocations, and writing a LID's entry into every switch's rows
    // at once costs a TLB miss per switch on a large fabric.
    static constexpr std::uint32_t kStaged = 64;
    static constexpr std::uint16_t kUnstaged = 0xFFFF;  // hops never reach 0xFF'xx: set() caps them
    // Port groups of a switch in load order.
    struct Slot {
        // Sort key: the group's load (routes counted for this direction) in the high half, the
        // remote switch's position in tuple order (OpenSM's tie-break) in the low half.
        std::uint64_t key = 0;
        SwitchIdx remote = kNone;
        std::uint32_t first = 0;  // the group's first port in ports_ (which knows the width)
    };

    Column column();
    template <std::uint32_t FtPort::*Load>
    static std::uint32_t least_port(const FtPort *ports, const Slot &s);
    template <bool Real>
    bool route_up_by_down(SwitchIdx sw, SwitchIdx prev, unsigned hops);
    template <bool Real>
    void route_down_by_up(SwitchIdx sw, SwitchIdx prev, bool main, unsigned credit, unsigned hops);
    void set_route(SwitchIdx sw, PortNum port, unsigned hops) { column().set(sw, port, hops); }
    static void resort(Slot *v, std::uint32_t len);
    static void sift_first(Slot *v, std::uint32_t len);
    void begin_lid(Lid lid);
    void attach(RoutingTables &t);  // the tables routes go to, nothing staged
    void flush();                   // the staged entries into the tables
    void reset_loads();
    static std::uint16_t running_vms_of(const Fabric &f, NodeIdx ca);
    std::string rank_switches(const Fabric &f, const RoutingOptions &o);
    std::string index_switches();
    void build_slots();

    std::vector<Slot> slots_;
    // Per switch, read for every remote visited: what is below it, whether it is a top switch,
    // and the id of the set of switches below it (shared by e.g. the switches of a root group).
    static constexpr std::uint8_t kSwitchBelow = 1, kCaBelow = 2, kTop = 4;
    std::vector<std::uint8_t> below_kind_;
    std::vector<std::uint32_t> below_set_;
    // Per LID and per set of switches below: the fewest hops at which a switch with that set
    // below has checked all of them. Hops only shrink within a LID, so a later visit with at
    // least as many hops would skip every one of them (the check that dominates at scale).
    std::vector<std::uint8_t> below_done_;

    std::vector<FtSwitch> sw_;
    std::vector<FtGroup> groups_;
    std::vector<FtPort> ports_;
    std::vector<SwitchIdx> leaves_;  // in index order
    std::vector<Guid> guid_;
    std::vector<Lid> sw_lid_;
    unsigned leaf_rank_ = 0;
    std::uint32_t max_cns_ = 0;
    // The hops to the LID being routed from each switch (kInfHops = not routed yet), and each
    // switch's LFT and hop rows, which the staged routes go to.
    std::vector<std::uint8_t> hop_;
    std::vector<PortNum *> lft_row_;
    std::vector<std::uint8_t *> hop_row_;
    // Per switch, kStaged slots (hops << 8 | port, or kUnstaged); the LID of each slot in use.
    std::vector<std::uint16_t> stage_;
    std::vector<Lid> staged_lid_;
    // The weight of the route being made (1 = a node; vswitch-ftree's VMs share a node's weight).
    std::uint32_t w_ = 1;
};

}  // namespace weft::routing::engines
