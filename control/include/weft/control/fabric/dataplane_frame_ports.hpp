// The switch's ports as the SMA and SM see them (sm::FramePorts) over the dataplane's control
// path: frames in are the subnet-management frames the workers punt (drain_punted), frames out
// leave by each port's control TX queue (send_from_control). IB port p is dataplane port p - 1
// (IB port 0 is the switch's management port, which has no wire).
//
// Control thread only. Its wait sleeps in small steps: the punt rings have no doorbell.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "weft/dataplane/dataplane.hpp"
#include "weft/sm/frame_ports.hpp"

struct rte_mbuf;

namespace weft::control::fabric {

struct FramePortsCounters {
    std::uint64_t received = 0;     // punted frames handed out by receive()
    std::uint64_t sent = 0;         // frames the control TX queue took
    std::uint64_t send_failed = 0;  // refused: no mbuf, too long, no such port or no control queue
};

class DataplaneFramePorts final : public sm::FramePorts {
  public:
    explicit DataplaneFramePorts(dataplane::Dataplane &dp);
    ~DataplaneFramePorts() override;
    DataplaneFramePorts(const DataplaneFramePorts &) = delete;
    DataplaneFramePorts &operator=(const DataplaneFramePorts &) = delete;

    bool send(sm::PortNum port, std::span<const std::uint8_t> frame) override;
    std::optional<sm::ReceivedFrame> receive(std::chrono::milliseconds wait) override;
    sm::MacAddr mac(sm::PortNum port) const override;

    // Punted frames that are not the SMA's (the kernel mirror's): a diversion that takes a frame
    // (returns true, and owns it) hides it from receive().
    using Divert = std::function<bool(rte_mbuf *)>;
    void set_divert(Divert d) { divert_ = std::move(d); }

    sm::PortNum num_ports() const { return static_cast<sm::PortNum>(macs_.size()); }
    const FramePortsCounters &counters() const { return counters_; }

  private:
    static constexpr unsigned kBatch = 32;
    void release();  // frees the frame handed out last

    dataplane::Dataplane &dp_;
    std::vector<sm::MacAddr> macs_;  // by dataplane port; fixed once the ports are configured
    std::array<rte_mbuf *, kBatch> batch_{};
    unsigned batch_n_ = 0, batch_next_ = 0;
    rte_mbuf *held_ = nullptr;        // the frame receive() handed out
    std::vector<std::uint8_t> copy_;  // a chained mbuf's bytes, made contiguous
    FramePortsCounters counters_;
    Divert divert_;
};

}  // namespace weft::control::fabric
