// NodeInfo (IBA 14.2.5.3): what a node is (CA, switch, router), its GUIDs and port count, and
// the port the SMP came in on.
#pragma once

#include <cstdint>
#include <span>

#include "weft/sm/lid.hpp"
#include "weft/sm/smp.hpp"

namespace weft::sm {

enum class NodeType : std::uint8_t { kCa = 1, kSwitch = 2, kRouter = 3 };

struct NodeInfo {
    static constexpr std::uint16_t kAttributeId = attr::kNodeInfo;

    std::uint8_t base_version = 1;
    std::uint8_t class_version = 1;
    NodeType node_type = NodeType::kCa;
    std::uint8_t num_ports = 1;  // physical ports (a switch's port 0 not counted)
    std::uint64_t system_image_guid = 0;
    std::uint64_t node_guid = 0;
    std::uint64_t port_guid = 0;
    std::uint16_t partition_cap = 0;
    std::uint16_t device_id = 0;
    std::uint32_t revision = 0;
    PortNum local_port_num = 1;   // the port the SMP entered by (0: a switch's own port 0)
    std::uint32_t vendor_id = 0;  // 24 bits

    bool is_switch() const { return node_type == NodeType::kSwitch; }
    friend bool operator==(const NodeInfo &, const NodeInfo &) = default;
};

// Checked: versions 1, a known node type, 1..254 ports, the local port within them (0 only on a
// switch), no GUID 0.
Result<NodeInfo> decode_node_info(std::span<const std::uint8_t> data);
Result<NodeInfo> decode_node_info(const Smp &smp);  // also checks attribute ID and status
Result<SmpData> encode_node_info(const NodeInfo &info);

}  // namespace weft::sm
