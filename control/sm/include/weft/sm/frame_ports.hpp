// The ports of one node as the SM and SMA see them: frames out of a port, frames in with the port
// they came in on, each port's MAC. The weft switch implements it on its punt path and control TX
// (DPDK), the CA end node on a packet socket, the unit tests on an in-memory wire; what is above
// it (SmaFrameAgent, FrameSmpTransport) is the same in all three.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>

#include "weft/sm/iboe_frame.hpp"
#include "weft/sm/lid.hpp"

namespace weft::sm {

struct ReceivedFrame {
    PortNum port = 0;                     // the port it came in on (1..num_ports)
    std::span<const std::uint8_t> bytes;  // the whole Ethernet frame, without FCS
};

class FramePorts {
  public:
    virtual ~FramePorts() = default;

    // Puts `frame` on the wire out of `port`; false when it cannot (no such port, queue full).
    virtual bool send(PortNum port, std::span<const std::uint8_t> frame) = 0;

    // The next frame that arrived on any port, waiting up to `wait` (0: do not wait). Its bytes
    // stay valid until the next call.
    virtual std::optional<ReceivedFrame> receive(std::chrono::milliseconds wait) = 0;

    // The MAC address of `port`: the source of every frame sent out of it.
    virtual MacAddr mac(PortNum port) const = 0;
};

}  // namespace weft::sm
