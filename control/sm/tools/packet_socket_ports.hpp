// FramePorts on a Linux interface (one port, number 1): an AF_PACKET raw socket bound to the
// interface and the IBoE EtherType, so it sees only weft's frames. What weft-ca runs on in a host
// namespace, on one end of a veth pair (the other end a weft switch's net_af_packet port, or
// another weft-ca).
#pragma once

#include <string>
#include <vector>

#include "weft/sm/frame_ports.hpp"

namespace weft::sm::tools {

class PacketSocketPorts final : public FramePorts {
  public:
    // Throws std::system_error (no such interface, no CAP_NET_RAW...).
    PacketSocketPorts(const std::string &ifname, std::uint16_t ethertype);
    ~PacketSocketPorts() override;
    PacketSocketPorts(const PacketSocketPorts &) = delete;
    PacketSocketPorts &operator=(const PacketSocketPorts &) = delete;

    bool send(PortNum port, std::span<const std::uint8_t> frame) override;
    std::optional<ReceivedFrame> receive(std::chrono::milliseconds wait) override;
    MacAddr mac(PortNum port) const override { return (void)port, mac_; }

    // The interface is up and has carrier (IFF_RUNNING).
    bool link_up() const;
    const std::string &ifname() const { return ifname_; }

  private:
    std::string ifname_;
    int fd_ = -1;
    int ifindex_ = 0;
    std::uint16_t ethertype_;
    MacAddr mac_{};
    std::vector<std::uint8_t> buf_;
};

}  // namespace weft::sm::tools
