// The graph prefix routing works on (seed 003, "prefix routing and multicast"): the switches of a
// group (or of a whole fabric) as nodes 0..n-1, each link joining a port of one to a port of
// another. Ports are numbered from 1, as the fabric numbers them; port 0 stands for the switch
// itself (where a multicast starts or a packet is delivered). Pure: no fabric model, so the
// dataplane's tables, the routing library's `prefix` engine and the tests share it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "weft/arn/types.hpp"

namespace weft::arn {

using NodeIndex = std::uint32_t;
inline constexpr NodeIndex kNoNodeIndex = 0xFFFFFFFFu;
inline constexpr PortNumber kLocalPort = 0;

class PrefixGraph {
  public:
    struct Adjacency {
        PortNumber port = 0;
        NodeIndex peer = kNoNodeIndex;
        PortNumber peer_port = 0;
        friend bool operator==(const Adjacency &, const Adjacency &) = default;
    };

    explicit PrefixGraph(std::size_t nodes = 0) : links_(nodes) {}

    std::size_t size() const { return links_.size(); }
    // Joins port pa of a and port pb of b. Throws std::invalid_argument on a node out of range, a
    // link of a node to itself, port 0, or a port already joined.
    void connect(NodeIndex a, PortNumber pa, NodeIndex b, PortNumber pb);
    // Removes the link on (n, p) from both ends; false when there is none.
    bool disconnect(NodeIndex n, PortNumber p);

    // n's links in port order.
    std::span<const Adjacency> links(NodeIndex n) const { return links_[n]; }
    std::optional<Adjacency> link(NodeIndex n, PortNumber p) const;

  private:
    std::vector<std::vector<Adjacency>> links_;
};

}  // namespace weft::arn
