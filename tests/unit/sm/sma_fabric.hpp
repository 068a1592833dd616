// An in-process fabric of real SMAs behind the SmpTransport interface: one weft::sm::Sma per
// node of a routing::Fabric (switches and CAs with its GUIDs, port counts and descriptions), its
// cables as links. What the SM sends enters the SMA of the SM's node (originate) and every
// SmaOutput that leaves by a port is handed to the SMA at the other end of the cable (handle),
// hop by hop, until it reaches the SM's node again or is dropped. Cables can be cut and restored;
// the traps the SMAs raise travel to the SM the same way. Time is the test's: a reply is
// receivable `latency` per hop after its request.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "weft/routing/fabric.hpp"
#include "weft/sm/sma.hpp"
#include "weft/sm/smp_transport.hpp"

namespace weft::sm::test {

class SmaFabric final : public SmpTransport {
  public:
    // The SM sits on node `sm_node`: port 0 of a switch, or port `sm_port` of a CA.
    // `vlid_cap`: the vLIDs every switch's secondary LFT holds (0: legacy switches).
    SmaFabric(const routing::Fabric &fabric, routing::NodeIdx sm_node, PortNum sm_port = 0,
              std::uint32_t vlid_cap = 0);

    Sma &sma(routing::NodeIdx n) { return nodes_[n].sma; }
    std::size_t size() const { return nodes_.size(); }
    routing::NodeIdx sm_node() const { return sm_node_; }

    // The test's clock.
    void set_now(std::chrono::nanoseconds now) { now_ = now; }
    std::chrono::nanoseconds now() const { return now_; }
    bool time_passes_on_wait = true;  // receive(wait) lets time pass as a blocking transport would
    std::chrono::nanoseconds latency{std::chrono::microseconds(1)};  // per hop

    // Cuts or restores the cable on (n, p), both ends; traps the switches raise go out at once.
    void set_cable(routing::NodeIdx n, PortNum p, bool up);
    // Lets every SMA's time pass to now (trap repeats).
    void poll();

    // Nodes whose SMA takes nothing (a switch still starting behind a port that is up).
    std::set<routing::NodeIdx> silent;

    // What crossed the wire.
    std::size_t hops = 0;  // SMPs handed from one SMA to the next
    std::size_t lost = 0;  // sent out of a port with no cable, or for an SM where there is none
    std::size_t traps_to_sm = 0;

    bool send(const OutgoingSmp &smp) override;
    std::optional<ReceivedSmp> receive(std::chrono::milliseconds wait) override;
    const std::string &error() const override { return error_; }

  private:
    struct Peer {
        routing::NodeIdx node = routing::kNoNode;
        PortNum port = 0;
    };
    struct Node {
        Sma sma;
        std::vector<Peer> peers;  // index = port
    };
    struct Delivery {
        std::chrono::nanoseconds at;
        ReceivedSmp mad;
    };
    void run(routing::NodeIdx at, SmaOutput out);

    std::vector<Node> nodes_;
    routing::NodeIdx sm_node_;
    PortNum sm_port_;
    std::deque<Delivery> pending_;
    std::chrono::nanoseconds now_{0};
    std::string error_;
};

// The SMA of node `n`: its type, GUIDs, port count and description from the fabric.
SmaConfig sma_config(const routing::Fabric &fabric, routing::NodeIdx n);

// PortInfo's link width and speed codes for a routing::Fabric link.
SmaLinkRate link_rate(routing::LinkWidth width, routing::LinkSpeed speed);

}  // namespace weft::sm::test
