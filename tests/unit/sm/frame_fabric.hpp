// An in-process fabric of real SMAs that talk in IB-over-Ethernet frames: one Sma, SmaFrameAgent
// and FramePorts per node of a routing::Fabric, its cables an in-memory wire that carries encoded
// frames from a port to the port at the other end. The SM's node is driven by the test (its
// FrameSmpTransport pulls frames from its ports); whenever it waits, every other node takes the
// frames sent to it first (as their control threads would), so the fabric is quiet by the time
// the SM's node looks at its own ports. Frames can be spoiled on the wire. Time is the test's.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "weft/routing/fabric.hpp"
#include "weft/sm/frame_ports.hpp"
#include "weft/sm/sma_frame_agent.hpp"

namespace weft::sm::test {

class FrameFabric {
  public:
    explicit FrameFabric(const routing::Fabric &fabric);
    ~FrameFabric();

    Sma &sma(routing::NodeIdx n);
    SmaFrameAgent &agent(routing::NodeIdx n);
    FramePorts &ports(routing::NodeIdx n);
    std::size_t size() const { return nodes_.size(); }

    // The test's clock; a wait on the SM node's ports with nothing to take lets it pass.
    std::chrono::nanoseconds now() const { return now_; }
    void set_now(std::chrono::nanoseconds now) { now_ = now; }

    // Cuts or restores the cable on (n, p), both ends; the traps the SMAs raise leave at once.
    void set_cable(routing::NodeIdx n, PortNum p, bool up);
    // Puts raw bytes on the wire towards (n, p), as if its peer had sent them.
    void inject(routing::NodeIdx n, PortNum p, std::vector<std::uint8_t> frame);
    // Every node but `except` takes the frames sent to it, until none are in flight to them.
    void run_others(routing::NodeIdx except);

    // Called on every frame as it crosses the wire (may change it).
    std::function<void(std::vector<std::uint8_t> &)> spoil;

    std::size_t frames = 0;         // frames that crossed a cable
    std::size_t lost = 0;           // sent out of a port with no cable or a cable down
    std::size_t for_absent_sm = 0;  // an SMP for an SM on a node that runs none

    static MacAddr mac_of(routing::NodeIdx n, PortNum p);

  private:
    class Ports;
    struct Peer {
        routing::NodeIdx node = routing::kNoNode;
        PortNum port = 0;
    };
    struct InFrame {
        PortNum port;
        std::vector<std::uint8_t> bytes;
    };
    struct Node;

    void deliver(routing::NodeIdx from, PortNum port, std::span<const std::uint8_t> frame);

    std::vector<std::unique_ptr<Node>> nodes_;
    std::chrono::nanoseconds now_{0};
};

}  // namespace weft::sm::test
