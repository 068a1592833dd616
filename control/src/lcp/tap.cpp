// TAP set-up by ioctl: TUNSETIFF for the device, SIOCSIFHWADDR and SIOCSIFFLAGS on a socket for
// its MAC and admin state.
#include "weft/control/lcp/tap.hpp"

#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <net/if_arp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace weft::control::lcp {

namespace {

[[noreturn]] void fail(const std::string &name, const char *step) {
    throw std::runtime_error("linux-cp: " + name + ": " + step + ": " + std::strerror(errno));
}

ifreq request(const std::string &name) {
    ifreq ifr{};
    std::memcpy(ifr.ifr_name, name.data(), std::min<std::size_t>(name.size(), IFNAMSIZ - 1));
    return ifr;
}

}  // namespace

Tap::Tap(const std::string &name, const std::array<std::uint8_t, 6> &mac) : name_(name) {
    if (name.empty() || name.size() >= IFNAMSIZ)
        throw std::runtime_error("linux-cp: interface name '" + name + "' is not 1.." +
                                 std::to_string(IFNAMSIZ - 1) + " characters");
    fd_ = ::open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0) fail(name, "open /dev/net/tun");
    ifreq ifr = request(name);
    ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
    const int sock = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    auto cleanup = [&](const char *step) {
        const int e = errno;
        if (sock >= 0) ::close(sock);
        ::close(fd_);
        errno = e;
        fail(name, step);
    };
    if (::ioctl(fd_, TUNSETIFF, &ifr) < 0) cleanup("TUNSETIFF");
    if (sock < 0) cleanup("socket");
    ifreq hw = request(name);
    hw.ifr_hwaddr.sa_family = ARPHRD_ETHER;
    std::memcpy(hw.ifr_hwaddr.sa_data, mac.data(), mac.size());
    if (::ioctl(sock, SIOCSIFHWADDR, &hw) < 0) cleanup("SIOCSIFHWADDR");
    ifreq flags = request(name);
    if (::ioctl(sock, SIOCGIFFLAGS, &flags) < 0) cleanup("SIOCGIFFLAGS");
    flags.ifr_flags = static_cast<short>(flags.ifr_flags | IFF_UP);
    if (::ioctl(sock, SIOCSIFFLAGS, &flags) < 0) cleanup("SIOCSIFFLAGS");
    ifreq index = request(name);
    if (::ioctl(sock, SIOCGIFINDEX, &index) < 0) cleanup("SIOCGIFINDEX");
    ifindex_ = static_cast<std::uint32_t>(index.ifr_ifindex);
    ::close(sock);
}

Tap::~Tap() {
    if (fd_ >= 0) ::close(fd_);
}

bool Tap::set_carrier(bool up) noexcept {
    int on = up ? 1 : 0;
    return ::ioctl(fd_, TUNSETCARRIER, &on) == 0;
}

bool Tap::write(std::span<const std::uint8_t> frame) noexcept {
    return ::write(fd_, frame.data(), frame.size()) == static_cast<ssize_t>(frame.size());
}

long Tap::read(std::span<std::uint8_t> buf) noexcept {
    const ssize_t n = ::read(fd_, buf.data(), buf.size());
    if (n >= 0) return n;
    return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
}

}  // namespace weft::control::lcp
