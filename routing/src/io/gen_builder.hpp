// Private: node creation shared by the generators, so every generated fabric uses the same
// GUID plan (switches from kSwitchGuidBase, CAs 16 GUIDs apart with port GUID = node GUID +
// port, as ibsim does) and short descriptions that ibsim and OpenSM accept.
#pragma once

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "weft/routing/fabric.hpp"

namespace weft::routing::io {

inline constexpr Guid kSwitchGuidBase = 0x0002c90200000000ull;
inline constexpr Guid kHostGuidBase = 0x0002c90300000000ull;

// Every switch and host port of a generated fabric gets a LID: a fabric the unicast LID space
// cannot hold could never be routed, so it is refused before it is built.
inline void check_lid_space(const char *kind, std::uint64_t switches, std::uint64_t host_ports) {
    if (switches + host_ports > kMaxUnicastLid)
        throw std::invalid_argument(std::string(kind) + ": " + std::to_string(switches) + " switches and " +
                                    std::to_string(host_ports) + " host ports need more LIDs than the " +
                                    std::to_string(kMaxUnicastLid) + " of the unicast LID space");
}

class GenBuilder {
  public:
    NodeIdx add_switch(unsigned ports, const std::string &desc) {
        check_ports(ports);
        return f.add_node(NodeType::Switch, kSwitchGuidBase + ++switches_, static_cast<PortNum>(ports), desc);
    }
    NodeIdx add_host(unsigned ports, const std::string &desc) {
        if (ports > 15) throw std::invalid_argument("generator: a host has at most 15 ports");
        check_ports(ports);
        const Guid g = kHostGuidBase + 16 * ++hosts_;
        const NodeIdx n = f.add_node(NodeType::Ca, g, static_cast<PortNum>(ports), desc);
        for (PortNum p = 1; p <= ports; ++p) f.set_port_guid(n, p, g + p);
        return n;
    }
    void link(NodeIdx a, unsigned pa, NodeIdx b, unsigned pb) {
        f.connect(a, static_cast<PortNum>(pa), b, static_cast<PortNum>(pb), LinkWidth::X4, LinkSpeed::Edr);
    }
    std::string host_name() const { return name("h", hosts_ + 1, 5); }
    static std::string name(const char *prefix, unsigned i, int digits) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%s%0*u", prefix, digits, i);
        return buf;
    }

    Fabric f;

  private:
    static void check_ports(unsigned ports) {
        if (ports == 0 || ports > 254)
            throw std::invalid_argument("generator: a node needs 1..254 ports, this one " +
                                        std::to_string(ports));
    }
    unsigned switches_ = 0, hosts_ = 0;
};

}  // namespace weft::routing::io
