// FramePorts in front of an end node's port that lets only management frames (QP0 and QP1)
// through to the SMA and the SM, and hands every other IBoE frame to the node's data path as it
// comes (so data keeps flowing while a heavy sweep waits on the ports). It also remembers the MAC
// of the neighbour's port, from the source of the last SMP frame that arrived: where the node's
// data frames go.
#pragma once

#include <functional>
#include <optional>

#include "weft/sm/frame_ports.hpp"
#include "weft/sm/iboe_frame.hpp"

namespace weft::sm::tools {

class ManagementPorts final : public FramePorts {
  public:
    using DataHandler = std::function<void(const IboePacket &)>;

    ManagementPorts(FramePorts &inner, IboeFrameConfig config, DataHandler data)
        : inner_(inner), config_(config), data_(std::move(data)) {}

    bool send(PortNum port, std::span<const std::uint8_t> frame) override { return inner_.send(port, frame); }
    std::optional<ReceivedFrame> receive(std::chrono::milliseconds wait) override;
    MacAddr mac(PortNum port) const override { return inner_.mac(port); }

    std::optional<MacAddr> neighbour_mac() const { return neighbour_; }
    std::uint64_t data_frames() const { return data_frames_; }

  private:
    FramePorts &inner_;
    IboeFrameConfig config_;
    DataHandler data_;
    std::optional<MacAddr> neighbour_;
    std::uint64_t data_frames_ = 0;
};

}  // namespace weft::sm::tools
