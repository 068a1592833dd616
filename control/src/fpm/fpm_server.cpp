#include "weft/control/fpm_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <variant>

#include "fpm_counters.hpp"
#include "fpm_rib.hpp"
#include "weft/control/ars_apply.hpp"
#include "weft/control/command_context.hpp"
#include "weft/control/fib/dragonfly_groups.hpp"
#include "weft/control/lcp/linux_cp.hpp"

namespace weft::control {

namespace dp = weft::dataplane;
using fpm::Rib;

namespace {

// Input taken per poll(): the control loop's other work waits no longer than this takes.
constexpr std::size_t kReadBudget = 1 << 20;
// Routes held for a port or a neighbour are tried again at least this often.
constexpr auto kRetryInterval = std::chrono::seconds(1);

bool is_loopback(const sockaddr_storage &ss) {
    if (ss.ss_family == AF_INET) {
        const auto *in = reinterpret_cast<const sockaddr_in *>(&ss);
        return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
    }
    if (ss.ss_family == AF_INET6) {
        const auto *in6 = reinterpret_cast<const sockaddr_in6 *>(&ss);
        if (IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr)) return true;
        return IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr) && in6->sin6_addr.s6_addr[12] == 127;
    }
    return false;
}

std::string address_text(const sockaddr_storage &ss) {
    char buf[INET6_ADDRSTRLEN] = "?";
    if (ss.ss_family == AF_INET) {
        const auto *in = reinterpret_cast<const sockaddr_in *>(&ss);
        inet_ntop(AF_INET, &in->sin_addr, buf, sizeof buf);
        return std::string(buf) + ":" + std::to_string(ntohs(in->sin_port));
    }
    const auto *in6 = reinterpret_cast<const sockaddr_in6 *>(&ss);
    inet_ntop(AF_INET6, &in6->sin6_addr, buf, sizeof buf);
    return "[" + std::string(buf) + "]:" + std::to_string(ntohs(in6->sin6_port));
}

// The command context's ARS state, for the policy's ARS groups.
class ContextArs final : public ArsStateHost {
  public:
    explicit ContextArs(CommandContext &ctx) : ctx_(ctx) {}
    const ArsState &ars_state() const override { return ctx_.ars; }
    std::optional<std::string> adopt_ars_state(const ArsState &next) override {
        return control::adopt_ars_state(ctx_, next);
    }

  private:
    CommandContext &ctx_;
};

}  // namespace

FpmServer::FpmServer(CommandContext &ctx, FpmConfig config)
    : ctx_(ctx),
      fib_(*ctx.fib),
      ars_(std::make_unique<ContextArs>(ctx)),
      updater_(*ctx.fib, ctx.dp->publisher(), ars_.get()),
      config_(std::move(config)),
      counters_(std::make_unique<fpm::ServerCounters>()) {
    rib_ = std::make_unique<Rib>(
        updater_,
        [this](const fpm::NlNextHop &h) -> fpm::Resolved {
            if (h.gateway) {
                // A link-local gateway is a neighbour of its interface's port only.
                dp::NeighbourKey key{*h.gateway};
                if (dp::is_link_local_v6(*h.gateway)) {
                    const auto port = port_of_ifindex(h.ifindex);
                    if (!port) return {std::nullopt, fpm::Hold::Port};
                    key = dp::NeighbourKey::of(*h.gateway, *port);
                }
                const auto n = fib_.neighbours().find(key);
                if (n == fib_.neighbours().end()) {
                    if (ctx_.lcp != nullptr) ctx_.lcp->resolve(*h.gateway, h.ifindex);
                    return {std::nullopt, fpm::Hold::Neighbour};
                }
                return {NextHop{n->second.port, *h.gateway, 1}, fpm::Hold::None};
            }
            const auto port = port_of_ifindex(h.ifindex);
            if (!port) return {std::nullopt, fpm::Hold::Port};
            return {NextHop{*port, std::nullopt, 1}, fpm::Hold::None};
        },
        config_.grace);
}

FpmServer::~FpmServer() {
    stop();
}

void FpmServer::set_policy(const std::optional<fib::DragonflyPolicy> &policy) {
    std::unique_ptr<fib::DragonflyGroups> next;
    if (policy) next = std::make_unique<fib::DragonflyGroups>(updater_, *policy);
    // The routes leave the old way (its removals staged first) and come back the new way.
    rib_->set_policy(next.get());
    policy_ = std::move(next);
    dirty_ = true;
}

dp::Status FpmServer::listen() {
    return listen(config_.address, config_.port);
}

dp::Status FpmServer::listen(const std::string &address, std::uint16_t port) {
    const auto addr = dp::IpAddr::parse(address);
    if (!addr) return dp::Status::error("fpm: bad address " + address);
    if (port == 0) return dp::Status::error("fpm: port 0");
    stop();
    sockaddr_storage ss{};
    socklen_t len;
    if (addr->v6) {
        auto *in6 = reinterpret_cast<sockaddr_in6 *>(&ss);
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons(port);
        std::memcpy(&in6->sin6_addr, addr->bytes.data(), 16);
        len = sizeof *in6;
    } else {
        auto *in = reinterpret_cast<sockaddr_in *>(&ss);
        in->sin_family = AF_INET;
        in->sin_port = htons(port);
        std::memcpy(&in->sin_addr, addr->bytes.data(), 4);
        len = sizeof *in;
    }
    const int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return dp::Status::error(std::string("fpm: socket: ") + std::strerror(errno));
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, reinterpret_cast<sockaddr *>(&ss), len) != 0 || ::listen(fd, 4) != 0) {
        const int e = errno;
        close(fd);
        return dp::Status::error("fpm: cannot listen on " + address + " port " + std::to_string(port) + ": " +
                                 std::strerror(e));
    }
    listen_fd_ = fd;
    config_.address = address;
    config_.port = port;
    return dp::Status::success();
}

void FpmServer::stop() {
    if (conn_fd_ >= 0) close_connection("fpm stop");
    if (listen_fd_ >= 0) close(listen_fd_);
    listen_fd_ = -1;
}

void FpmServer::set_grace(std::chrono::seconds grace) {
    config_.grace = grace;
    rib_->set_grace(grace);
}

void FpmServer::map_port(const std::string &ifname, std::optional<std::uint16_t> port) {
    if (port)
        ports_[ifname] = *port;
    else
        ports_.erase(ifname);
    ifindex_cache_.clear();
    next_retry_ = {};  // the held routes are tried at the next poll
}

std::optional<std::uint16_t> FpmServer::port_of_ifindex(std::uint32_t ifindex) {
    if (ifindex == 0) return std::nullopt;
    if (const auto it = ifindex_cache_.find(ifindex); it != ifindex_cache_.end()) return it->second;
    char name[IF_NAMESIZE] = {};
    std::optional<std::uint16_t> port;
    if (if_indextoname(ifindex, name) != nullptr)
        if (const auto it = ports_.find(name); it != ports_.end()) port = it->second;
    if (!port && ctx_.lcp != nullptr) port = ctx_.lcp->port_of(ifindex);  // the mirror's TAPs
    ifindex_cache_.emplace(ifindex, port);
    return port;
}

void FpmServer::close_connection(const char *why) {
    if (conn_fd_ < 0) return;
    close(conn_fd_);
    conn_fd_ = -1;
    if (!inbuf_.empty()) ++counters_->truncated_at_close;
    inbuf_.clear();
    ++counters_->disconnects;
    counters_->last_disconnect = why;
}

void FpmServer::accept_one() {
    for (;;) {
        sockaddr_storage ss{};
        socklen_t len = sizeof ss;
        const int fd =
            accept4(listen_fd_, reinterpret_cast<sockaddr *>(&ss), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) return;
        if (!config_.allow_remote && !is_loopback(ss)) {
            close(fd);
            ++counters_->refused_connections;
            continue;
        }
        // A zebra reconnecting may find its old connection still open here: the new one wins.
        close_connection("replaced by a new connection");
        conn_fd_ = fd;
        peer_ = address_text(ss);
        ++counters_->connections;
        rib_->new_session(std::chrono::steady_clock::now());
    }
}

void FpmServer::read_connection() {
    std::size_t taken = 0;
    std::vector<fpm::Decoded> decoded;
    char buf[65536];
    while (conn_fd_ >= 0 && taken < kReadBudget) {
        const ssize_t n = recv(conn_fd_, buf, sizeof buf, 0);
        if (n == 0) return close_connection("closed by the peer");
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) break;
            if (errno == EINTR) continue;
            return close_connection(std::strerror(errno));
        }
        taken += static_cast<std::size_t>(n);
        counters_->bytes += static_cast<std::uint64_t>(n);
        inbuf_.append(buf, static_cast<std::size_t>(n));
        const auto frames_taken =
            fpm::split_frames({reinterpret_cast<const std::uint8_t *>(inbuf_.data()), inbuf_.size()},
                              [&](const fpm::FrameHeader &, std::span<const std::uint8_t> payload,
                                  std::optional<fpm::Error> bad) {
                                  ++counters_->frames;
                                  if (bad) {
                                      ++counters_->errors[static_cast<std::size_t>(*bad)];
                                      return;
                                  }
                                  decoded.clear();
                                  fpm::decode_netlink(payload, decoded);
                                  for (const fpm::Decoded &d : decoded) apply(d);
                              });
        if (!frames_taken) {
            ++counters_->errors[static_cast<std::size_t>(fpm::Error::BadFrameLength)];
            inbuf_.clear();  // the framing is lost: nothing after this header can be trusted
            return close_connection("bad FPM frame length");
        }
        inbuf_.erase(0, *frames_taken);
    }
}

void FpmServer::apply(const fpm::Decoded &d) {
    ++counters_->messages[static_cast<std::size_t>(fpm::msg_kind(d.nl_type))];
    ++staged_messages_;
    std::visit(
        [&](const auto &m) {
            using T = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<T, fpm::Error>) {
                ++counters_->errors[static_cast<std::size_t>(m)];
            } else if constexpr (std::is_same_v<T, fpm::Ignored>) {
                ++counters_->ignored[static_cast<std::size_t>(m)];
            } else if constexpr (std::is_same_v<T, fpm::RouteMsg>) {
                if (!rib_->takes(m.table))
                    ++counters_->ignored[static_cast<std::size_t>(fpm::Ignored::OtherTable)];
                else if (!config_.kernel_routes && m.protocol == RTPROT_KERNEL)
                    ++counters_->ignored[static_cast<std::size_t>(fpm::Ignored::KernelRoute)];
                else
                    rib_->apply(m);
            } else {
                rib_->apply(m);
            }
        },
        d.what);
}

void FpmServer::commit_if_staged() {
    if (staged_messages_ == 0 && fib_.staged_routes() == 0 && !dirty_) return;
    const auto start = std::chrono::steady_clock::now();
    if (policy_) policy_->flush();
    const RouteUpdater::CommitResult r = updater_.commit();
    ++counters_->commits;
    if (!r.published) {
        ++counters_->commit_failures;
        counters_->last_commit_error = r.error;
    }
    counters_->last_commit_messages = staged_messages_;
    counters_->last_commit_prefixes = r.prefixes;
    counters_->last_commit_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    counters_->last_commit_at = std::chrono::system_clock::now();
    staged_messages_ = 0;
    dirty_ = false;
}

void FpmServer::watched_fds(std::vector<int> &out) const {
    if (listen_fd_ >= 0) out.push_back(listen_fd_);
    if (conn_fd_ >= 0) out.push_back(conn_fd_);
}

void FpmServer::poll() {
    if (listen_fd_ >= 0) accept_one();
    if (conn_fd_ >= 0) read_connection();
    const auto now = std::chrono::steady_clock::now();
    if (rib_->sweep_due(now)) {
        rib_->sweep();
        dirty_ = true;
    }
    if (rib_->unresolved() != 0 && (fib_.neighbours().size() != neighbours_seen_ || now >= next_retry_)) {
        neighbours_seen_ = fib_.neighbours().size();
        next_retry_ = now + kRetryInterval;
        ifindex_cache_.clear();  // interfaces made since are looked up again
        if (rib_->retry_held() != 0) dirty_ = true;
    }
    commit_if_staged();
}

}  // namespace weft::control
