// The Linux control-plane mirror (VPP's linux-cp, SONiC's host interfaces): each weft port has a
// kernel TAP interface with the port's MAC, so the kernel's stack and the routing daemons on it
// (FRR) see the switch's ports as ordinary interfaces.
//
// Frames: the workers punt what is the switch's own - frames routed to a Local group (the
// mirror's addresses, their connected subnets for the kernel to resolve, IPv4 link-local
// multicast 224.0.0.0/24, IPv6 link-scope multicast ff02::/16 and link-local fe80::/10) and ARP -
// and the control thread writes each to its in-port's TAP; what the kernel writes to a TAP
// leaves that port by the control TX queue. No worker makes a system call.
//
// State: the kernel is authoritative for addresses (`ip addr` on the TAP; weft learns them by
// rtnetlink and routes them to the kernel; `port N ip` asks the kernel for one; on a port that
// is not a fabric port they are the switch agent's host addresses, whose subnets the SM routes
// to this switch, and the subnet's hosts are reached as the kernel resolves them) and for neighbours (each
// neighbour the kernel resolves on a TAP becomes a weft neighbour and a host route to it, so routed frames to
// it are forwarded by the workers with its MAC, and FRR's routes through it find its MAC). The link of a port
// is the carrier of its TAP. A next hop that a route waits for and no traffic made the kernel resolve is
// asked for (resolve(): a managed neighbour entry, which the kernel resolves and keeps resolved).
//
// Control thread only.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "weft/control/command_context.hpp"
#include "weft/control/lcp/netlink_events.hpp"
#include "weft/control/lcp/tap.hpp"
#include "weft/dataplane/fib_builder.hpp"
#include "weft/dataplane/ip_addr.hpp"

struct rte_mbuf;
struct mnl_socket;

namespace weft::control::lcp {

// NHG ids of the mirror: the Local group, then one group per learned neighbour (its host route).
// Below the FPM server's groups (0xE0000000 up) and the RouteUpdater's next-hop-list groups
// (0xF0000000 up), far above the CLI's ids.
inline constexpr std::uint32_t kLinuxCpNhgFirst = 0xD0000000u;
inline constexpr std::uint32_t kLinuxCpNhgEnd = 0xE0000000u;  // the FPM server's from here
inline constexpr std::uint32_t kLocalNhg = kLinuxCpNhgFirst;
inline bool is_linux_cp_nhg(std::uint32_t id) {
    return id >= kLinuxCpNhgFirst && id < kLinuxCpNhgEnd;
}

struct LinuxCpConfig {
    // Interface name per dataplane port; a port past the list gets prefix + its number.
    std::vector<std::string> names;
    std::string prefix = "weft";
    std::uint16_t iboe_ethertype = 0x88B5;  // frames of this type are the SMA's, never the kernel's
};

// Why a frame or a kernel message was not taken.
struct LinuxCpDrops {
    std::uint64_t to_kernel_no_tap = 0;        // punted on a port without a mirror interface
    std::uint64_t to_kernel_write_failed = 0;  // the TAP did not take it (queue full, down)
    std::uint64_t from_kernel_no_mbuf = 0;
    std::uint64_t from_kernel_tx_failed = 0;  // the port's control TX queue refused it
    std::uint64_t from_kernel_read_failed = 0;
    std::uint64_t netlink_errors[kNetlinkErrorCount]{};  // malformed messages, by reason
    std::uint64_t netlink_overrun = 0;                   // the socket lost news (ENOBUFS): all dumped again
    std::uint64_t fib_refused = 0;           // a route, group or neighbour the FIB builder refused
    std::uint64_t neigh_in_use = 0;          // a neighbour the kernel dropped that a group still uses
    std::uint64_t host_address_refused = 0;  // a kernel address the switch agent did not take
};

struct LinuxCpPort {
    std::uint16_t port = 0;
    std::string name;
    std::uint32_t ifindex = 0;
    bool carrier = false;
    std::uint64_t to_kernel = 0, from_kernel = 0;  // frames
    std::uint64_t to_kernel_bytes = 0, from_kernel_bytes = 0;
    std::set<dataplane::IpPrefix> addresses;  // address/len as `ip addr` shows them (host bits kept)
};

struct LearnedNeighbour {
    std::uint16_t port = 0;
    std::array<std::uint8_t, 6> mac{};
    std::uint16_t state = 0;  // NUD_*
    std::uint32_t nhg = 0;    // its host route's group (0: none, IPv6 link-local)
};

class LinuxCp {
  public:
    // Makes a TAP per port and the netlink socket, installs the Local routes and learns the
    // addresses and neighbours the interfaces have already; throws std::runtime_error when a TAP
    // or the socket cannot be made. Installs itself as the frame ports' diversion of non-IBoE
    // frames (ctx.sma must be set).
    LinuxCp(CommandContext &ctx, LinuxCpConfig config);
    ~LinuxCp();
    LinuxCp(const LinuxCp &) = delete;
    LinuxCp &operator=(const LinuxCp &) = delete;

    // A punted frame: taken (written to its TAP or counted dropped, and freed) unless it is an
    // IBoE frame, which it leaves to the SMA (false).
    bool take_punted(rte_mbuf *m);
    // One control-loop round: frames the kernel wrote go out their ports, link changes become
    // carrier, netlink news becomes routes and neighbours (published when anything changed).
    void poll();

    const std::vector<LinuxCpPort> &ports() const { return ports_; }
    // By address, and for an IPv6 link-local one its port too (FibBuilder's key).
    const std::map<dataplane::NeighbourKey, LearnedNeighbour> &neighbours() const { return neigh_; }
    const LinuxCpDrops &drops() const { return drops_; }
    std::uint64_t netlink_messages() const { return netlink_messages_; }
    // The mirror's interface of a dataplane port, or nothing.
    const LinuxCpPort *port(std::uint16_t p) const { return p < ports_.size() ? &ports_[p] : nullptr; }
    bool learned(const dataplane::NeighbourKey &key) const { return neigh_.contains(key); }
    // The dataplane port of one of the mirror's interfaces.
    std::optional<std::uint16_t> port_of(std::uint32_t ifindex) const;
    // Asks the kernel to resolve `ip` on the mirror's interface `ifindex` and keep it resolved
    // (RTM_NEWNEIGH with NTF_EXT_MANAGED): for a route's next hop no traffic has made the kernel
    // resolve. What it learns arrives as any neighbour does. False when `ifindex` is none of the
    // mirror's; an address is asked for again at most every few seconds.
    bool resolve(const dataplane::IpAddr &ip, std::uint32_t ifindex);
    std::uint64_t resolutions_asked() const { return resolutions_asked_; }
    // `port N ip [del] A/len`: asks the kernel to add or remove the address on the port's
    // interface and waits for its answer; what the kernel then reports makes it a host address.
    // The kernel's refusal, or nothing.
    std::optional<std::string> request_address(std::uint16_t port, const dataplane::IpAddr &addr,
                                               std::uint8_t len, bool add);
    // Makes the switch agent's host addresses of `port` the kernel's addresses on it (none on a
    // fabric port; IPv6 link-local ones never). On every address change, and when the port turns
    // fabric on or off.
    void sync_host_addresses(std::uint16_t port);
    // What the control loop's sleep also watches: the TAPs (the kernel's frames) and the
    // netlink socket, appended to `out`.
    void watched_fds(std::vector<int> &out) const;

  private:
    void publish();
    void forward_from_kernel();
    void sync_carrier();
    void read_netlink();
    void dump(std::uint16_t type);
    void apply(const NetlinkParse &p);
    void on_addr(const AddrEvent &e);
    void on_neigh(const NeighEvent &e);
    bool local_route(const dataplane::IpPrefix &prefix, bool add);
    bool routed_to(const dataplane::IpPrefix &prefix, std::uint32_t nhg) const;
    std::uint32_t neighbour_nhg();
    void count_fib(const dataplane::Status &s);

    CommandContext &ctx_;
    LinuxCpConfig config_;
    std::vector<std::unique_ptr<Tap>> taps_;
    std::vector<LinuxCpPort> ports_;
    mnl_socket *nl_ = nullptr;
    std::uint32_t dump_seq_ = 0;
    std::vector<std::uint8_t> rx_;
    // Prefixes routed to the Local group, with how many addresses ask for each.
    std::map<dataplane::IpPrefix, unsigned> local_;
    std::map<dataplane::NeighbourKey, LearnedNeighbour> neigh_;
    std::set<std::uint32_t> free_nhgs_;
    std::vector<dataplane::NeighbourKey> neigh_retry_;  // deletions refused within their batch
    std::uint32_t next_nhg_ = kLinuxCpNhgFirst + 1;
    bool dirty_ = false;  // the FIB builder holds changes to publish
    std::chrono::steady_clock::time_point last_carrier_{};
    std::uint64_t netlink_messages_ = 0;
    std::map<std::pair<dataplane::IpAddr, std::uint32_t>, std::chrono::steady_clock::time_point> asked_;
    std::uint64_t resolutions_asked_ = 0;
    LinuxCpDrops drops_;
};

}  // namespace weft::control::lcp
