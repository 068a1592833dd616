// The fabric model every routing engine, reader, writer and verifier works on.
//
// Nodes (switches, channel adapters, routers) live in one vector and are named by a compact
// NodeIdx; each node's ports (0..num_ports, port 0 being a switch's management port) live in one
// flat vector, so a 20 000-node fabric is two allocations and traversals touch contiguous memory.
// Switches additionally get a dense SwitchIdx (0..switch_count-1) because per-switch tables
// (LFTs, hop matrices) are indexed by it.
//
// Pure C++20: no DPDK, no rdma-core. Discovery and readers fill it; engines read it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace weft::routing {

using NodeIdx = std::uint32_t;
using SwitchIdx = std::uint32_t;
using PortNum = std::uint8_t;  // IB ports are 1..254; 0 is a switch's management port
using Lid = std::uint32_t;     // 16-bit IB LIDs; 18-bit extended LIDs per seed 002
using Guid = std::uint64_t;

inline constexpr NodeIdx kNoNode = 0xFFFFFFFFu;
inline constexpr SwitchIdx kNoSwitch = 0xFFFFFFFFu;
inline constexpr PortNum kNoPort = 0xFF;  // OpenSM's OSM_NO_PATH in an LFT
inline constexpr Lid kMaxUnicastLid = 0xBFFF;
inline constexpr Lid kMaxExtendedLid = 0x3FFFF;
// Seed 002's extended LID space: LIDs with one of the two extra LRH bits set are vLIDs, VM
// addresses forwarded by a secondary LFT; the 16-bit space below them stays the pLIDs'.
inline constexpr Lid kFirstVlid = 0x10000;

// Values as in the IB NodeInfo NodeType field.
enum class NodeType : std::uint8_t { Ca = 1, Switch = 2, Router = 3 };

// IB link widths (number of lanes: 1, 2, 4, 8, 12).
enum class LinkWidth : std::uint8_t { X1, X2, X4, X8, X12 };
// IB lane speeds, SDR (2.5 Gb/s) through XDR (200 Gb/s).
enum class LinkSpeed : std::uint8_t { Sdr, Ddr, Qdr, Fdr10, Fdr, Edr, Hdr, Ndr, Xdr };
// IB PortInfo PortState values.
enum class PortState : std::uint8_t { Down = 1, Init = 2, Armed = 3, Active = 4 };

unsigned lanes(LinkWidth w);
double lane_gbps(LinkSpeed s);  // signalling-free data rate per lane, Gb/s
// A GUID as OpenSM and infiniband-diags print it: "0x" and 16 hex digits.
std::string guid_text(Guid g);

inline double link_gbps(LinkWidth w, LinkSpeed s) {
    return lanes(w) * lane_gbps(s);
}

struct Port {
    NodeIdx peer = kNoNode;  // node on the far end of the link, kNoNode if unconnected
    PortNum peer_port = 0;
    LinkWidth width = LinkWidth::X4;
    LinkSpeed speed = LinkSpeed::Edr;
    PortState state = PortState::Down;
    Guid guid = 0;  // port GUID (CA/router ports; a switch's ports share the node GUID)
    Lid lid = 0;    // base LID: CA/router ports, and port 0 of a switch
    std::uint8_t lmc = 0;

    bool linked() const { return peer != kNoNode && state == PortState::Active; }
};

struct Node {
    NodeType type = NodeType::Ca;
    Guid guid = 0;
    Guid sys_guid = 0;  // system image GUID (LMC rule b prefers differing systems)
    std::string desc;
    PortNum num_ports = 0;        // physical ports are 1..num_ports
    std::uint32_t port_base = 0;  // index of this node's port 0 in Fabric's flat port vector
    SwitchIdx sw = kNoSwitch;     // dense switch index, switches only
    // A CA whose HCA is a vSwitch (seed 002): its port kVswitchPort carries the PF's LID and
    // its VFs' LIDs, which VMs use; vfs of them, from vf_base in Fabric's flat VF vector.
    bool vswitch = false;
    std::uint16_t vfs = 0;
    std::uint32_t vf_base = 0;

    bool is_switch() const { return type == NodeType::Switch; }
};

inline constexpr PortNum kVswitchPort = 1;  // the HCA port the vSwitch sits behind
inline constexpr std::uint32_t kNoVm = 0xFFFFFFFFu;
inline constexpr std::uint16_t kMaxVfs = 4096;

// A virtual function of a vSwitch: the LID it answers to (always, with prepopulated LIDs; only
// while a VM uses it, with dynamic assignment) and the VM on it.
struct VirtualFunction {
    Lid lid = 0;
    std::uint32_t vm = kNoVm;
};

// A VM on a VF. Its LID is its VF's and moves with it (vf_lid == lid while it runs).
struct VirtualMachine {
    std::string name;
    NodeIdx hypervisor = kNoNode;
    std::uint16_t vf = 0;
    Lid lid = 0;
};

// How VFs get LIDs (seed 002, Table 1): every VF up front, or a VF when a VM starts on it.
enum class VfLidScheme : std::uint8_t { Prepopulated, Dynamic };

// An endpoint that owns LIDs: a CA/router port, or a switch (port 0).
struct LidOwner {
    NodeIdx node = kNoNode;
    PortNum port = 0;
};

class Fabric {
  public:
    // Adds a node with ports 0..num_ports, all down and unconnected. GUIDs must be unique.
    NodeIdx add_node(NodeType type, Guid guid, PortNum num_ports, std::string desc = {}, Guid sys_guid = 0);

    // Cables port pa of a to port pb of b. Throws std::invalid_argument on a bad node or port,
    // on port 0, or if either port is already cabled.
    void connect(NodeIdx a, PortNum pa, NodeIdx b, PortNum pb, LinkWidth w = LinkWidth::X4,
                 LinkSpeed s = LinkSpeed::Edr, PortState state = PortState::Active);
    // Removes the cable on (n, p) from both ends; no-op if unconnected.
    void disconnect(NodeIdx n, PortNum p);

    std::size_t node_count() const { return nodes_.size(); }
    std::size_t switch_count() const { return switches_.size(); }
    const Node &node(NodeIdx n) const { return nodes_[n]; }
    Node &node(NodeIdx n) { return nodes_[n]; }
    const Port &port(NodeIdx n, PortNum p) const { return ports_[nodes_[n].port_base + p]; }
    Port &port(NodeIdx n, PortNum p) { return ports_[nodes_[n].port_base + p]; }
    // Ports 0..num_ports of n.
    std::span<const Port> ports(NodeIdx n) const {
        return {ports_.data() + nodes_[n].port_base, std::size_t{nodes_[n].num_ports} + 1};
    }
    const std::vector<NodeIdx> &switches() const { return switches_; }  // by SwitchIdx
    NodeIdx switch_node(SwitchIdx s) const { return switches_[s]; }
    std::optional<NodeIdx> find_guid(Guid node_guid) const;
    // Node owning a port GUID (CA ports have their own GUIDs; switches answer for the node GUID).
    std::optional<LidOwner> find_port_guid(Guid port_guid) const;
    void set_port_guid(NodeIdx n, PortNum p, Guid g);

    // LIDs. A CA/router port or switch port 0 owns 2^lmc consecutive LIDs from base.
    void set_lid(NodeIdx n, PortNum p, Lid base, std::uint8_t lmc);
    void clear_lids();
    Lid max_lid() const { return lid_owner_.empty() ? 0 : static_cast<Lid>(lid_owner_.size() - 1); }
    std::optional<LidOwner> lid_owner(Lid lid) const {
        if (lid >= lid_owner_.size() || lid_owner_[lid].node == kNoNode) return std::nullopt;
        return lid_owner_[lid];
    }
    // The switch a LID's owner sits on or is: the switch itself, or the switch a CA port is
    // cabled to. kNoNode if the owner is unconnected.
    NodeIdx attached_switch(Lid lid) const;

    // vSwitches and VMs. A VF's LID is owned by the hypervisor's kVswitchPort (the VFs share the
    // PF's link), so routing, tracing and metrics see it as one more LID of that port, beside
    // the port's own base LID.
    // Makes CA n a vSwitch with `vfs` VFs (1..kMaxVfs), once; std::invalid_argument otherwise.
    void add_vswitch(NodeIdx n, std::uint16_t vfs);
    std::span<const VirtualFunction> vfs(NodeIdx n) const {
        return {vfs_.data() + nodes_[n].vf_base, nodes_[n].vfs};
    }
    const VirtualFunction &vf(NodeIdx n, std::uint16_t i) const { return vfs_[nodes_[n].vf_base + i]; }
    // Gives VF i of n the LID (0: none), releasing the one it had. The LID must be free.
    void set_vf_lid(NodeIdx n, std::uint16_t i, Lid lid);
    // Starts a VM on VF i of hypervisor n with the VF's LID (which it must have). Names are
    // unique. Returns the VM's index.
    std::uint32_t add_vm(std::string name, NodeIdx n, std::uint16_t i);
    // Moves a VM to VF i of hypervisor n with its LID: the VF it lands on takes the VM's LID and
    // the VF it leaves takes the LID the destination VF had (a swap with prepopulated LIDs; with
    // dynamic ones the destination had none and the source is left without).
    void move_vm(std::uint32_t vm, NodeIdx n, std::uint16_t i);
    const std::vector<VirtualMachine> &vms() const { return vms_; }
    std::optional<std::uint32_t> find_vm(std::string_view name) const;
    bool has_vswitches() const { return !vfs_.empty(); }
    VfLidScheme vf_lid_scheme = VfLidScheme::Prepopulated;
    // VF LIDs are vLIDs (seed 002's extended LID space, kFirstVlid..kMaxExtendedLid) rather than
    // LIDs of the unicast space.
    bool extended_vlids = false;

  private:
    void own_lid(Lid lid, LidOwner o);
    // VF i of hypervisor n, which must exist and run no VM (std::invalid_argument otherwise).
    VirtualFunction &free_vf_at(NodeIdx n, std::uint16_t i);
    std::vector<Node> nodes_;
    std::vector<Port> ports_;
    std::vector<NodeIdx> switches_;
    std::unordered_map<Guid, NodeIdx> by_guid_;
    std::unordered_map<Guid, LidOwner> by_port_guid_;
    std::vector<LidOwner> lid_owner_;  // index = LID
    std::vector<VirtualFunction> vfs_;
    std::vector<VirtualMachine> vms_;
    std::unordered_map<std::string, std::uint32_t> vm_by_name_;
};

}  // namespace weft::routing
