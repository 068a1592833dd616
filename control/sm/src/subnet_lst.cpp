#include "weft/sm/subnet_lst.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace weft::sm {

namespace {

constexpr std::uint32_t kIsSm = 0x2;  // PortInfo.CapabilityMask bit 1

std::uint64_t wire_order(std::uint64_t guid) {  // the GUID's network-order bytes, read little-endian
    std::uint64_t r = 0;
    for (int i = 0; i < 8; ++i) r = (r << 8) | ((guid >> (8 * i)) & 0xFF);
    return r;
}

const char *width_text(std::uint8_t w) {
    switch (w) {
        case 1:
            return "1x";
        case 2:
            return "4x";
        case 4:
            return "8x";
        case 8:
            return "12x";
        case 16:
            return "2x";
        default:
            return "??";
    }
}

const char *state_text(PortState s) {
    switch (s) {
        case PortState::kDown:
            return "DWN";
        case PortState::kInit:
            return "INI";
        case PortState::kArmed:
            return "ARM";
        case PortState::kActive:
        case PortState::kActiveDefer:
            return "ACT";
        default:
            return "???";
    }
}

const char *speed_text(const PortInfo &p) {
    switch (p.link_speed_ext_active) {
        case 1:
            return "14";
        case 2:
            return "25";
        case 4:
            return "50";
        case 8:
            return "100";
        default:
            break;
    }
    switch (p.link_speed_active) {
        case 1:
            return "2.5";
        case 2:
            return "5";
        case 4:
            return "10";
        default:
            return "??";
    }
}

}  // namespace

std::string write_subnet_lst(const DiscoveryResult &d, const ProgramReport *programmed) {
    const routing::Fabric &f = d.fabric;
    std::vector<routing::NodeIdx> order(f.node_count());
    std::iota(order.begin(), order.end(), routing::NodeIdx{0});
    std::sort(order.begin(), order.end(), [&](routing::NodeIdx a, routing::NodeIdx b) {
        return wire_order(f.node(a).guid) < wire_order(f.node(b).guid);
    });
    // One end: "{ CA Ports:01 ... PN:01 }"; vendor_digits 6 for the first end, 8 for the second.
    auto end = [&](routing::NodeIdx n, PortNum port, int vendor_digits) {
        const DiscoveredNode &x = d.nodes[n];
        const PortNum owner = x.is_switch() ? 0 : port;  // the port whose LID and capabilities count
        const auto &info = x.ports[owner];
        const bool sm = info && (info->capability_mask & kIsSm);
        const char *type = x.info.node_type == NodeType::kSwitch ? "SW"
                           : x.info.node_type == NodeType::kCa   ? "CA"
                                                                 : "RT";
        const std::uint64_t port_guid = x.is_switch() ? x.info.port_guid : x.port_guid[port];
        char buf[512];
        std::snprintf(
            buf, sizeof buf,
            "{ %s%s Ports:%02X SystemGUID:%016llx NodeGUID:%016llx PortGUID:%016llx VenID:%0*X DevID:%04X "
            "Rev:%08X {%s} LID:%04X PN:%02X }",
            type, sm ? "-SM" : "", x.info.num_ports,
            static_cast<unsigned long long>(x.info.system_image_guid),
            static_cast<unsigned long long>(x.info.node_guid), static_cast<unsigned long long>(port_guid),
            vendor_digits, x.info.vendor_id, x.info.device_id, x.info.revision, x.description.c_str(),
            static_cast<unsigned>(f.port(n, owner).lid), port);
        return std::string(buf);
    };
    std::string out;
    for (routing::NodeIdx n : order) {
        const DiscoveredNode &x = d.nodes[n];
        for (PortNum port = 1; port <= x.info.num_ports; ++port) {
            const routing::Port &fp = f.port(n, port);
            if (fp.peer == routing::kNoNode || !x.ports[port]) continue;
            const PortInfo &pi = *x.ports[port];
            PortState state = pi.port_state;
            if (programmed) {
                auto it = programmed->port_states.find({n, port});
                if (it != programmed->port_states.end()) state = it->second;
            }
            out += end(n, port, 6) + " " + end(fp.peer, fp.peer_port, 8) +
                   " PHY=" + width_text(pi.link_width_active) + " LOG=" + state_text(state) +
                   " SPD=" + speed_text(pi) + "\n";
        }
    }
    return out;
}

}  // namespace weft::sm
