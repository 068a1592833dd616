// Private: the channel dependency graph both credit-loop checks build (the engine's single path
// per destination, and the union of every ARS choice), and the facts they share: which VLs are in
// play, the VL a hop takes, and what each channel (global port index) joins.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "weft/routing/fabric.hpp"
#include "weft/routing/tables.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing::verify {

// Channels are global port indices (Fabric's flat port array): the link leaving (node, port).
struct ChannelMap {
    explicit ChannelMap(const Fabric &f);
    std::vector<NodeIdx> far;                    // by channel: the switch node it leads to, or kNoNode
    std::vector<NodeIdx> node;                   // by channel: the node it leaves
    std::vector<PortNum> port;                   // by channel: the port it leaves by
    std::vector<std::vector<PortNum>> ca_ports;  // per switch: its ports cabled to CAs/routers
    std::size_t size() const { return node.size(); }
};

// VLs that carry traffic: the SL2VL tables decide; without them VL = SL.
unsigned vls_in_play(const RoutingTables &t);

// The VL a packet of `sl` takes leaving switch s by `out` after arriving on `in` (0: from one of
// the switch's own CAs without SL2VL tables, which keeps its SL).
unsigned hop_vl(const Fabric &f, const RoutingTables &t, unsigned vls, SwitchIdx s, PortNum in, PortNum out,
                unsigned sl);

// Edges (channel, VL) -> (channel, VL) as bits: for each channel `from` and (vl_in, vl_out), one
// bit per port of the switch `from` leads to. Dense, so adding an edge twice costs nothing.
class DependencyGraph {
  public:
    DependencyGraph(const Fabric &f, unsigned vls, std::size_t channels);
    // Packets holding channel `from` on vl_in wait for port `out` (of the switch `from` leads to)
    // on vl_out. Returns whether the edge is new.
    bool add(std::uint32_t from, unsigned vl_in, unsigned vl_out, PortNum out) {
        std::uint64_t &w = bits_[index(from, vl_in, vl_out) + out / 64];
        const std::uint64_t bit = std::uint64_t{1} << (out % 64);
        const bool fresh = !(w & bit);
        w |= bit;
        return fresh;
    }
    void remove(std::uint32_t from, unsigned vl_in, unsigned vl_out, PortNum out) {
        bits_[index(from, vl_in, vl_out) + out / 64] &= ~(std::uint64_t{1} << (out % 64));
    }
    bool has(std::uint32_t from, unsigned vl_in, unsigned vl_out, PortNum out) const {
        return bits_[index(from, vl_in, vl_out) + out / 64] >> (out % 64) & 1;
    }
    // Calls fn(vl_out, out) for every edge leaving (from, vl_in).
    template <class Fn>
    void for_each_out(std::uint32_t from, unsigned vl_in, Fn &&fn) const {
        for (unsigned vo = 0; vo < vls_; ++vo) {
            const std::size_t base = index(from, vl_in, vo);
            for (unsigned k = 0; k < words_; ++k)
                for (std::uint64_t w = bits_[base + k]; w; w &= w - 1)
                    fn(vo, static_cast<PortNum>(k * 64 + static_cast<unsigned>(std::countr_zero(w))));
        }
    }
    std::uint64_t edges() const;
    unsigned vls() const { return vls_; }
    // Adds every edge of o (a graph of the same fabric and VLs).
    void merge(const DependencyGraph &o) {
        for (std::size_t i = 0; i < bits_.size(); ++i) bits_[i] |= o.bits_[i];
    }

    // Iterative DFS over (channel, VL); returns a cycle if one exists.
    std::vector<Channel> find_cycle(const ChannelMap &m) const;

  private:
    std::size_t index(std::size_t from, unsigned vl_in, unsigned vl_out) const {
        return ((from * vls_ + vl_in) * vls_ + vl_out) * words_;
    }
    bool has_out(std::uint32_t node) const;

    const Fabric &f_;
    unsigned vls_;
    std::size_t channels_;
    unsigned max_ports_ = 0, words_ = 1;
    std::vector<std::uint64_t> bits_;
};

}  // namespace weft::routing::verify
