// The FPM server: FRR's zebra (module dplane_fpm_nl) connects over TCP and streams its FIB as
// netlink messages in FPM frames; the server applies them to the switch's FIB through a
// RouteUpdater, many messages to one commit. It runs inside the control thread's loop (poll()
// never blocks: non-blocking sockets, a bounded amount of input per call).
//
// What FRR's interfaces and gateways are to weft: a gateway that is one of weft's neighbours is
// reached on that neighbour's port (an IPv6 link-local one: the neighbour on the port of the next
// hop's interface); a next hop with only an interface takes the port `fpm port IFNAME PORT`
// maps the interface to, or whose mirror TAP it is (its MAC: the port's peer). A next hop that resolves to no
// port yet (no neighbour, no mapping) holds its route pending until it does; with the Linux
// mirror, a gateway on one of its interfaces is asked of the kernel (LinuxCp::resolve), and the
// route is installed once the kernel has resolved it.
//
// A zebra that reconnects replays everything: what it held before is marked stale at the new
// connection, and what it has not replayed `grace` after it is removed (mark and sweep). While no
// zebra is connected, the routes stay as they are.
//
// With the dragonfly policy (`fpm policy`, control/FRR_POLICY.md), the routes of the policy's
// tables become ARS groups of primaries and alternates in the command context's ARS state.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "weft/control/fib/dragonfly_policy.hpp"
#include "weft/control/route_updater.hpp"
#include "weft/dataplane/status.hpp"

namespace weft::control {

struct CommandContext;
namespace fpm {
class Rib;
struct ServerCounters;
struct Decoded;
}  // namespace fpm
namespace fib {
class DragonflyGroups;
}  // namespace fib

struct FpmConfig {
    std::string address = "127.0.0.1";
    std::uint16_t port = 2620;
    bool allow_remote = false;  // take connections from addresses other than loopback ones
    std::chrono::seconds grace{30};
    // zebra's connected and kernel routes (RTPROT_KERNEL): taken, or left to the Linux mirror,
    // which owns the switch's connected subnets (their frames go to the kernel) and neighbours.
    bool kernel_routes = true;
};

inline constexpr unsigned kMaxFpmGraceSeconds = 3600;

// Kernel interface names and the weft ports they stand for (`fpm port IFNAME PORT`).
using FpmPortMap = std::map<std::string, std::uint16_t>;

class FpmServer {
  public:
    // The context (its FIB builder, publisher and ARS state) outlives the server.
    explicit FpmServer(CommandContext &ctx, FpmConfig config = {});
    ~FpmServer();
    FpmServer(const FpmServer &) = delete;
    FpmServer &operator=(const FpmServer &) = delete;

    // Listens on the configured address and port (closing any listener and connection first).
    dataplane::Status listen();
    dataplane::Status listen(const std::string &address, std::uint16_t port);
    // Closes the listener and the connection; the routes stay (stale until a zebra replays them).
    void stop();
    // Accepts, reads, applies and commits what is waiting; returns at once when nothing is.
    void poll();
    // The listening and connected sockets, appended to `out`: the control loop's sleep watches
    // them, so zebra's messages are taken when they come.
    void watched_fds(std::vector<int> &out) const;

    void set_grace(std::chrono::seconds grace);
    // The dragonfly policy from now on (nullopt: off, the main table's routes as they are); the
    // routes held move to it in the next commit.
    void set_policy(const std::optional<fib::DragonflyPolicy> &policy);
    const fib::DragonflyGroups *policy() const noexcept { return policy_.get(); }
    void set_allow_remote(bool allow) { config_.allow_remote = allow; }
    void set_kernel_routes(bool take) { config_.kernel_routes = take; }
    // Maps a kernel interface name to a weft port (nullopt: the mapping removed); routes held
    // for want of a port are tried again.
    void map_port(const std::string &ifname, std::optional<std::uint16_t> port);
    const FpmPortMap &port_map() const noexcept { return ports_; }
    const FpmConfig &config() const noexcept { return config_; }

    bool listening() const noexcept { return listen_fd_ >= 0; }
    bool connected() const noexcept { return conn_fd_ >= 0; }
    const std::string &peer() const noexcept { return peer_; }
    const fpm::ServerCounters &counters() const noexcept { return *counters_; }
    const fpm::Rib &rib() const noexcept { return *rib_; }

  private:
    void accept_one();
    void read_connection();
    void apply(const fpm::Decoded &d);
    void close_connection(const char *why);
    void commit_if_staged();
    std::optional<std::uint16_t> port_of_ifindex(std::uint32_t ifindex);

    CommandContext &ctx_;
    dataplane::FibBuilder &fib_;
    std::unique_ptr<ArsStateHost> ars_;
    RouteUpdater updater_;
    std::unique_ptr<fib::DragonflyGroups> policy_;
    FpmConfig config_;
    FpmPortMap ports_;
    std::map<std::uint32_t, std::optional<std::uint16_t>> ifindex_cache_;
    std::unique_ptr<fpm::ServerCounters> counters_;
    std::unique_ptr<fpm::Rib> rib_;
    int listen_fd_ = -1;
    int conn_fd_ = -1;
    std::string peer_;
    std::string inbuf_;
    std::size_t staged_messages_ = 0;  // applied since the last commit
    bool dirty_ = false;               // a sweep or a retry staged changes
    std::size_t neighbours_seen_ = 0;
    std::chrono::steady_clock::time_point next_retry_{};
};

// /weft/fpm (DPDK telemetry): the record `show fpm json` prints. register once; the control
// thread refreshes what the command answers (rate-limited; null: the server is gone).
bool register_fpm_telemetry();
void refresh_fpm_telemetry(const FpmServer *server);

}  // namespace weft::control
