// The SM core's transport over IB-over-Ethernet frames (the SM inside a weft switch, on its port
// 0, or on an end node's port): send() hands the SMP to the node's own Sma as the local SM's
// (Sma::originate), which answers it itself or sends it out of a port as a frame; frames that
// arrive go through the node's SmaFrameAgent, so the node keeps acting as SMA for other SMs and
// passes SMPs on while it is the SM, and what its Sma hands to the SM comes back from receive().
// Matching, retries and timeouts are SmpEngine's: this transport never reports kTimedOut.
//
// Two ways to feed it: receive() pulls frames from FramePorts itself (the SM's sweep loop), or
// the caller that owns the ports hands frames to on_frame() and the SMPs for the SM wait in a
// queue for receive().
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "weft/sm/sma_frame_agent.hpp"
#include "weft/sm/smp_transport.hpp"

namespace weft::sm {

class FrameSmpTransport final : public SmpTransport {
  public:
    using Clock = std::function<SmaTime()>;

    // The SM sends from `sm_port` of the agent's node (0 on a switch). `clock` gives the time the
    // Sma sees (trap repeats, M_Key lease).
    FrameSmpTransport(SmaFrameAgent &agent, FramePorts &ports, Clock clock, PortNum sm_port = 0);

    bool send(const OutgoingSmp &smp) override;
    std::optional<ReceivedSmp> receive(std::chrono::milliseconds wait) override;
    const std::string &error() const override { return error_; }

    // A frame the caller received on `in_port` (push mode).
    void on_frame(PortNum in_port, std::span<const std::uint8_t> frame);
    // Lets the node's Sma poll (a trap of its own for its own SM goes to the queue).
    void poll();
    // An SMP for the SM the node's Sma raised outside on_frame and poll (its owner drives the
    // agent: a link change's trap), queued for receive().
    void deliver(const SmpForSm &smp) { for_sm_.push_back(smp); }

    std::size_t queued() const { return for_sm_.size(); }
    PortNum sm_port() const { return sm_port_; }

  private:
    void take(std::optional<SmpForSm> s);

    SmaFrameAgent &agent_;
    FramePorts &ports_;
    Clock clock_;
    PortNum sm_port_;
    std::deque<SmpForSm> for_sm_;
    std::string error_;
};

}  // namespace weft::sm
