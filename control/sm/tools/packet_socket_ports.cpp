#include "packet_socket_ports.hpp"

#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace weft::sm::tools {

namespace {

[[noreturn]] void fail(const std::string &what) {
    throw std::system_error(errno, std::generic_category(), what);
}

ifreq request_for(const std::string &ifname) {
    ifreq r{};
    if (ifname.size() >= IFNAMSIZ) {
        errno = ENAMETOOLONG;
        fail(ifname);
    }
    std::memcpy(r.ifr_name, ifname.c_str(), ifname.size());
    return r;
}

}  // namespace

PacketSocketPorts::PacketSocketPorts(const std::string &ifname, std::uint16_t ethertype)
    : ifname_(ifname), ethertype_(ethertype), buf_(16384) {
    fd_ = ::socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ethertype));
    if (fd_ < 0) fail("socket(AF_PACKET)");
    ifreq r = request_for(ifname);
    if (::ioctl(fd_, SIOCGIFINDEX, &r) < 0) fail(ifname + ": SIOCGIFINDEX");
    ifindex_ = r.ifr_ifindex;
    r = request_for(ifname);
    if (::ioctl(fd_, SIOCGIFHWADDR, &r) < 0) fail(ifname + ": SIOCGIFHWADDR");
    std::memcpy(mac_.data(), r.ifr_hwaddr.sa_data, mac_.size());
    sockaddr_ll addr{};
    addr.sll_family = AF_PACKET;
    addr.sll_protocol = htons(ethertype);
    addr.sll_ifindex = ifindex_;
    if (::bind(fd_, reinterpret_cast<sockaddr *>(&addr), sizeof addr) < 0) fail(ifname + ": bind");
    // Data frames keep the destination MAC their sender gave them across a weft fabric: take
    // frames for any address.
    packet_mreq m{};
    m.mr_ifindex = ifindex_;
    m.mr_type = PACKET_MR_PROMISC;
    if (::setsockopt(fd_, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &m, sizeof m) < 0)
        fail(ifname + ": promiscuous");
}

PacketSocketPorts::~PacketSocketPorts() {
    if (fd_ >= 0) ::close(fd_);
}

bool PacketSocketPorts::send(PortNum port, std::span<const std::uint8_t> frame) {
    if (port != 1) return false;
    sockaddr_ll addr{};
    addr.sll_family = AF_PACKET;
    addr.sll_protocol = htons(ethertype_);
    addr.sll_ifindex = ifindex_;
    addr.sll_halen = ETH_ALEN;
    std::memcpy(addr.sll_addr, frame.data(), ETH_ALEN);
    const ssize_t n =
        ::sendto(fd_, frame.data(), frame.size(), 0, reinterpret_cast<const sockaddr *>(&addr), sizeof addr);
    return n == static_cast<ssize_t>(frame.size());
}

std::optional<ReceivedFrame> PacketSocketPorts::receive(std::chrono::milliseconds wait) {
    for (;;) {
        pollfd p{fd_, POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(wait.count()));
        if (ready < 0 && errno == EINTR) return std::nullopt;
        if (ready <= 0) return std::nullopt;
        sockaddr_ll from{};
        socklen_t len = sizeof from;
        const ssize_t n = ::recvfrom(fd_, buf_.data(), buf_.size(), MSG_TRUNC | MSG_DONTWAIT,
                                     reinterpret_cast<sockaddr *>(&from), &len);
        if (n < 0) return std::nullopt;
        // Our own frames, seen on the way out, and frames longer than any IBoE packet: not taken.
        if (from.sll_pkttype == PACKET_OUTGOING || static_cast<std::size_t>(n) > buf_.size()) {
            wait = std::chrono::milliseconds(0);
            continue;
        }
        return ReceivedFrame{1, std::span<const std::uint8_t>(buf_.data(), static_cast<std::size_t>(n))};
    }
}

bool PacketSocketPorts::link_up() const {
    ifreq r = request_for(ifname_);
    if (::ioctl(fd_, SIOCGIFFLAGS, &r) < 0) return false;
    return (r.ifr_flags & IFF_UP) && (r.ifr_flags & IFF_RUNNING);
}

}  // namespace weft::sm::tools
