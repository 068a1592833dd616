// The switch-level view every engine works on: compact adjacency (CSR) of active switch-to-switch
// links, and for each LID the switch it lands on. Engines compute per destination *switch* and
// derive CA LIDs from their switch, so the heavy work scales with switches, not end ports.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "weft/routing/fabric.hpp"
#include "weft/routing/tables.hpp"

namespace weft::routing::engines {

namespace detail {
using Bytes16 = std::uint8_t __attribute__((vector_size(16)));  // GCC/Clang vector extension
}  // namespace detail

struct SwitchLink {
    PortNum port = 0;       // port on this switch
    PortNum peer_port = 0;  // port on the peer switch
    SwitchIdx peer = kNoSwitch;
};

// Where a LID ends up: the switch that owns it, or the switch a CA/router port is cabled to.
struct LidTarget {
    SwitchIdx sw = kNoSwitch;  // kNoSwitch: unconnected or unknown LID
    PortNum port = 0;          // 0 for a switch's own LID, else the switch port facing the CA
    bool is_switch = false;
    NodeIdx node = kNoNode;  // owner node
    PortNum node_port = 0;   // owner port (0 for a switch)
};

class SwitchGraph {
  public:
    explicit SwitchGraph(const Fabric &f);

    std::size_t size() const { return begin_.size() - 1; }
    std::span<const SwitchLink> links(SwitchIdx s) const {
        return {links_.data() + begin_[s], begin_[s + 1] - begin_[s]};
    }
    Lid max_lid() const { return static_cast<Lid>(targets_.size() - 1); }
    const LidTarget &target(Lid l) const { return targets_[l]; }
    // Number of CA/router LID-owning ports cabled to switch s.
    std::uint32_t end_ports(SwitchIdx s) const { return end_ports_[s]; }

  private:
    std::vector<std::uint32_t> begin_;  // CSR offsets, size() + 1
    std::vector<SwitchLink> links_;
    std::vector<LidTarget> targets_;  // by LID
    std::vector<std::uint32_t> end_ports_;
};

// Switch-to-switch hop matrix, row-major: at(s, d) = hops from s to d (kInfHops if none). Rows
// are `stride` >= n apart; the padding past n holds kInfHops.
struct HopMatrix {
    std::size_t n = 0, stride = 0;
    std::vector<std::uint8_t> v;
    void assign(std::size_t switches, std::size_t row_stride = 0) {
        n = switches, stride = std::max(row_stride, switches);
        v.assign(switches * stride, kInfHops);
    }
    const std::uint8_t *row(SwitchIdx s) const { return v.data() + std::size_t{s} * stride; }
    std::uint8_t at(SwitchIdx s, SwitchIdx d) const { return v[std::size_t{s} * stride + d]; }
    std::uint8_t &at(SwitchIdx s, SwitchIdx d) { return v[std::size_t{s} * stride + d]; }
};

// Unrestricted min hops by one BFS per destination switch; rows row_stride apart (at least n),
// so the LFT builders can take the matrix as it is (they want rows padded to 16).
HopMatrix switch_min_hops(const SwitchGraph &g, std::size_t row_stride = 0);

// "'desc' (0x<guid>)": how engines name a switch in warnings and failures.
std::string switch_name(const Fabric &f, SwitchIdx s);

// t.hops[s][lid] from a switch matrix: the switch's own LIDs 0, a CA one more than its switch.
void fill_lid_hops(const SwitchGraph &g, const HopMatrix &m, RoutingTables &t);

}  // namespace weft::routing::engines
