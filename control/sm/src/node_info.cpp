#include "weft/sm/node_info.hpp"

#include "attribute_codec.hpp"

namespace weft::sm {

namespace {

using detail::BitField;

template <class Io, class N>
void fields(Io &io, N &n) {
    io(BitField{"NodeInfo.BaseVersion", 0, 8}, n.base_version);
    io(BitField{"NodeInfo.ClassVersion", 8, 8}, n.class_version);
    io(BitField{"NodeInfo.NodeType", 16, 8}, n.node_type);
    io(BitField{"NodeInfo.NumPorts", 24, 8}, n.num_ports);
    io(BitField{"NodeInfo.SystemImageGUID", 32, 64}, n.system_image_guid);
    io(BitField{"NodeInfo.NodeGUID", 96, 64}, n.node_guid);
    io(BitField{"NodeInfo.PortGUID", 160, 64}, n.port_guid);
    io(BitField{"NodeInfo.PartitionCap", 224, 16}, n.partition_cap);
    io(BitField{"NodeInfo.DeviceID", 240, 16}, n.device_id);
    io(BitField{"NodeInfo.Revision", 256, 32}, n.revision);
    io(BitField{"NodeInfo.LocalPortNum", 288, 8}, n.local_port_num);
    io(BitField{"NodeInfo.VendorID", 296, 24}, n.vendor_id);
}

std::optional<SmpError> check(const NodeInfo &n) {
    if (n.base_version != 1) return SmpError{"NodeInfo.BaseVersion", n.base_version, "1"};
    if (n.class_version != 1) return SmpError{"NodeInfo.ClassVersion", n.class_version, "1"};
    const auto type = static_cast<std::uint8_t>(n.node_type);
    if (type < 1 || type > 3) return SmpError{"NodeInfo.NodeType", type, "1 (CA), 2 (switch) or 3 (router)"};
    if (n.num_ports < 1 || n.num_ports > kMaxPortNum)
        return SmpError{"NodeInfo.NumPorts", n.num_ports, "1..254"};
    if (n.local_port_num > n.num_ports)
        return SmpError{"NodeInfo.LocalPortNum", n.local_port_num, "0..NumPorts"};
    if (n.local_port_num == 0 && !n.is_switch())
        return SmpError{"NodeInfo.LocalPortNum", 0, "1..NumPorts on a CA or router"};
    if (n.node_guid == 0) return SmpError{"NodeInfo.NodeGUID", 0, "a non-zero GUID"};
    if (n.port_guid == 0) return SmpError{"NodeInfo.PortGUID", 0, "a non-zero GUID"};
    return std::nullopt;
}

}  // namespace

Result<NodeInfo> decode_node_info(std::span<const std::uint8_t> data) {
    return detail::decode_attribute<NodeInfo>(
        data, "NodeInfo.size", [](auto &io, NodeInfo &n) { fields(io, n); }, check);
}

Result<NodeInfo> decode_node_info(const Smp &smp) {
    if (auto err = check_attribute(smp, NodeInfo::kAttributeId)) return *err;
    return decode_node_info(smp.data);
}

Result<SmpData> encode_node_info(const NodeInfo &info) {
    return detail::encode_attribute(
        info, [](auto &io, const NodeInfo &n) { fields(io, n); }, check);
}

}  // namespace weft::sm
