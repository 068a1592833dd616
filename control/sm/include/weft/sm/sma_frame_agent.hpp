// A node's SMA on IB-over-Ethernet frames: what the switch's control thread (or an end node) runs
// for every SMP frame that arrives, whether or not an SM runs on the node. A frame in is decoded
// (refused and counted per reason if malformed or not for QP0), handed to the Sma with its port
// and LRH, and what the Sma sends leaves as a frame out of the port it names, with the LRH it
// gives (mad_frame.hpp: VL15, QP0, to kSmpGroupMac). What the Sma hands to the SM on this node
// (a reply to it, a trap for it) is returned to the caller, with the SLID it came from.
//
// Pure C++20 over FramePorts; time enters as a parameter. One control thread owns it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "weft/sm/frame_ports.hpp"
#include "weft/sm/iboe_frame.hpp"
#include "weft/sm/sma.hpp"

namespace weft::sm {

struct SmaFrameCounters {
    std::uint64_t frames_in = 0;    // frames handed to on_frame()
    std::uint64_t smps_in = 0;      // of them, SMP frames handed to the Sma
    std::uint64_t frames_out = 0;   // SMP frames sent
    std::uint64_t send_failed = 0;  // FramePorts::send refused a frame
    std::uint64_t gsi_ignored = 0;  // QP1 MADs: this agent has no GSI
    FrameDropCounters refused;      // frames the decoder refused, by reason
};

// An SMP for the SM on this node, and where it came from (LRH SLID; the node's own LID when the
// node answered its own SM).
struct SmpForSm {
    SmpBytes bytes{};
    Lid slid = 0;
};

class SmaFrameAgent {
  public:
    SmaFrameAgent(Sma &sma, FramePorts &ports, IboeFrameConfig config = {});

    // A frame that arrived on `in_port`.
    std::optional<SmpForSm> on_frame(PortNum in_port, std::span<const std::uint8_t> frame, SmaTime now);
    // An SMP the SM on this node sends from `sm_port` (0 on a switch): Sma::originate, then out.
    std::optional<SmpForSm> originate(PortNum sm_port, std::span<const std::uint8_t> mad, SmaTime now,
                                      Lid dlid = kPermissiveLid);
    // Time passing (trap repeats, the M_Key lease), and link changes (trap 128): what the Sma
    // sends for them goes out too.
    std::optional<SmpForSm> poll(SmaTime now);
    std::optional<SmpForSm> set_link(PortNum port, bool up, SmaTime now, SmaLinkRate rate = {});

    // Sends an SmaOutput: kSend leaves as a frame, kToSm is returned, the rest is nothing.
    std::optional<SmpForSm> emit(const SmaOutput &out);

    Sma &sma() { return sma_; }
    const Sma &sma() const { return sma_; }
    const SmaFrameCounters &counters() const { return counters_; }
    const IboeFrameConfig &config() const { return config_; }

  private:
    Sma &sma_;
    FramePorts &ports_;
    IboeFrameConfig config_;
    std::uint32_t psn_ = 0;
    Lid last_slid_ = 0;  // of the frame being handled: where a kToSm output came from
    std::vector<std::uint8_t> frame_;
    SmaFrameCounters counters_;
};

}  // namespace weft::sm
