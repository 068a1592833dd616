// The kernel mirror's control-thread work: punted frames to TAPs, TAP frames to the ports'
// control TX queues, carrier from link state, and rtnetlink news into the FIB builder.
#include "weft/control/lcp/linux_cp.hpp"

#include <fcntl.h>
#include <libmnl/libmnl.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <poll.h>
#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "weft/control/cli.hpp"
#include "weft/control/fabric/switch_agent.hpp"

namespace weft::control::lcp {

namespace dp = weft::dataplane;

namespace {

// Frames a TAP may hand over per round, so one busy interface cannot hold the control loop.
constexpr unsigned kFromKernelPerRound = 256;
constexpr std::size_t kMaxFrame = 16384;
constexpr auto kCarrierEvery = std::chrono::milliseconds(50);
// A next hop asked for is asked for again after this (the kernel retries a managed entry itself).
constexpr auto kAskAgainEvery = std::chrono::seconds(3);
constexpr std::size_t kNetlinkBuffer = 1 << 16;

// The prefixes the kernel takes whatever its addresses: link-local multicast (OSPF, VRRP, ND's
// solicited-node groups, RAs) and IPv6 link-local unicast (BGP unnumbered; never routed).
std::vector<dp::IpPrefix> always_local() {
    std::vector<dp::IpPrefix> v;
    for (const char *p : {"224.0.0.0/24", "ff02::/16", "fe80::/10"}) v.push_back(*dp::IpPrefix::parse(p));
    return v;
}

std::uint16_t ether_type(const rte_mbuf *m) {
    if (m->data_len < RTE_ETHER_HDR_LEN) return 0;
    const auto *f = rte_pktmbuf_mtod(m, const std::uint8_t *);
    std::uint16_t t = static_cast<std::uint16_t>((f[12] << 8) | f[13]);
    if (t == RTE_ETHER_TYPE_VLAN && m->data_len >= RTE_ETHER_HDR_LEN + 4)
        t = static_cast<std::uint16_t>((f[16] << 8) | f[17]);
    return t;
}

// The port a neighbour key names for del_neighbour (none: an address that is one neighbour).
std::optional<std::uint16_t> scope_of(const dp::NeighbourKey &key) {
    return key.port == dp::NeighbourKey::kAnyPort ? std::nullopt : std::optional<std::uint16_t>(key.port);
}

}  // namespace

LinuxCp::LinuxCp(CommandContext &ctx, LinuxCpConfig config)
    : ctx_(ctx), config_(std::move(config)), rx_(kNetlinkBuffer) {
    if (ctx_.sma == nullptr) throw std::runtime_error("linux-cp: the switch agent is not running");
    for (std::uint16_t p = 0; p < ctx_.dp->num_ports(); ++p) {
        const std::string name = p < config_.names.size() && !config_.names[p].empty()
                                     ? config_.names[p]
                                     : config_.prefix + std::to_string(p);
        std::array<std::uint8_t, 6> mac;
        const rte_ether_addr a = ctx_.dp->port_status(p).mac;
        std::memcpy(mac.data(), a.addr_bytes, mac.size());
        taps_.push_back(std::make_unique<Tap>(name, mac));
        LinuxCpPort lp;
        lp.port = p;
        lp.name = name;
        lp.ifindex = taps_.back()->ifindex();
        ports_.push_back(std::move(lp));
    }
    nl_ = mnl_socket_open(NETLINK_ROUTE);
    if (nl_ == nullptr)
        throw std::runtime_error(std::string("linux-cp: netlink socket: ") + std::strerror(errno));
    const unsigned groups = RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_NEIGH;
    if (mnl_socket_bind(nl_, groups, MNL_SOCKET_AUTOPID) < 0) {
        const int e = errno;
        mnl_socket_close(nl_);
        throw std::runtime_error(std::string("linux-cp: netlink bind: ") + std::strerror(e));
    }
    const int fd = mnl_socket_get_fd(nl_);
    int size = 4 << 20;  // a burst of neighbour news (a whole subnet resolving) must not overrun it
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);

    std::vector<dp::NhgMemberSpec> any_port{dp::NhgMemberSpec{0, std::nullopt, 1}};
    count_fib(ctx_.fib->set_nhg(kLocalNhg, any_port, dp::NhgMode::Local));
    for (const dp::IpPrefix &p : always_local()) local_route(p, true);
    ctx_.sma->ports().set_divert([this](rte_mbuf *m) { return take_punted(m); });
    ctx_.sma->leave_connected_routes_to_kernel();
    dump(RTM_GETADDR);
    dump(RTM_GETNEIGH);
    sync_carrier();
    publish();
}

LinuxCp::~LinuxCp() {
    if (ctx_.sma != nullptr) ctx_.sma->ports().set_divert(nullptr);
    if (nl_ != nullptr) mnl_socket_close(nl_);
}

bool LinuxCp::take_punted(rte_mbuf *m) {
    if (ether_type(m) == config_.iboe_ethertype) return false;
    const std::uint16_t p = m->port;
    if (p >= taps_.size()) {
        ++drops_.to_kernel_no_tap;
        rte_pktmbuf_free(m);
        return true;
    }
    const std::uint32_t len = rte_pktmbuf_pkt_len(m);
    std::uint8_t copy[kMaxFrame];
    const void *bytes = len <= kMaxFrame ? rte_pktmbuf_read(m, 0, len, copy) : nullptr;
    if (bytes != nullptr && taps_[p]->write({static_cast<const std::uint8_t *>(bytes), len})) {
        ++ports_[p].to_kernel;
        ports_[p].to_kernel_bytes += len;
    } else {
        ++drops_.to_kernel_write_failed;
    }
    rte_pktmbuf_free(m);
    return true;
}

void LinuxCp::poll() {
    forward_from_kernel();
    if (const auto now = std::chrono::steady_clock::now(); now - last_carrier_ >= kCarrierEvery) {
        last_carrier_ = now;
        sync_carrier();
    }
    read_netlink();
    publish();
}

void LinuxCp::publish() {
    if (dirty_) commit(ctx_, nullptr);
    dirty_ = false;
    if (neigh_retry_.empty()) return;
    for (const dp::NeighbourKey &key : neigh_retry_) {
        if (neigh_.contains(key) || !ctx_.fib->neighbours().contains(key)) continue;  // back, or gone
        if (ctx_.fib->del_neighbour(key.ip, scope_of(key)).ok())
            dirty_ = true;
        else
            ++drops_.neigh_in_use;  // another group takes its MAC: the last one stays
    }
    neigh_retry_.clear();
    if (dirty_) commit(ctx_, nullptr);
    dirty_ = false;
}

void LinuxCp::forward_from_kernel() {
    std::uint8_t buf[kMaxFrame];
    for (std::uint16_t p = 0; p < taps_.size(); ++p) {
        for (unsigned k = 0; k < kFromKernelPerRound; ++k) {
            const long n = taps_[p]->read(buf);
            if (n == 0) break;
            if (n < 0) {
                ++drops_.from_kernel_read_failed;
                break;
            }
            rte_mbuf *m = ctx_.dp->alloc_control_mbuf();
            char *data = m != nullptr ? rte_pktmbuf_append(m, static_cast<std::uint16_t>(n)) : nullptr;
            if (data == nullptr) {
                if (m != nullptr) rte_pktmbuf_free(m);
                ++drops_.from_kernel_no_mbuf;
                continue;
            }
            std::memcpy(data, buf, static_cast<std::size_t>(n));
            if (!ctx_.dp->send_from_control(p, m)) {  // it took m either way
                ++drops_.from_kernel_tx_failed;
                continue;
            }
            ++ports_[p].from_kernel;
            ports_[p].from_kernel_bytes += static_cast<std::uint64_t>(n);
        }
    }
}

void LinuxCp::sync_carrier() {
    for (LinuxCpPort &lp : ports_) {
        const dp::PortStatus s = ctx_.dp->port_status(lp.port);
        const bool up = s.started && s.admin_up && s.link_up;  // what the workers send on
        if (up != lp.carrier && taps_[lp.port]->set_carrier(up)) lp.carrier = up;
    }
}

// A dump request and its reply, read to its end (news that arrives meanwhile is taken too).
void LinuxCp::dump(std::uint16_t type) {
    alignas(nlmsghdr) char buf[256];  // a dump request is a header and an rtgenmsg
    nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
    nlh->nlmsg_type = type;
    nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    nlh->nlmsg_seq = ++dump_seq_;
    auto *gen = static_cast<rtgenmsg *>(mnl_nlmsg_put_extra_header(nlh, sizeof(rtgenmsg)));
    gen->rtgen_family = AF_UNSPEC;
    if (mnl_socket_sendto(nl_, nlh, nlh->nlmsg_len) < 0)
        throw std::runtime_error(std::string("linux-cp: netlink dump: ") + std::strerror(errno));
    const int fd = mnl_socket_get_fd(nl_);
    for (;;) {
        pollfd pfd{fd, POLLIN, 0};
        if (::poll(&pfd, 1, 2000) <= 0) throw std::runtime_error("linux-cp: netlink dump: no reply");
        const ssize_t n = mnl_socket_recvfrom(nl_, rx_.data(), rx_.size());
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR) continue;
            if (errno == ENOBUFS) {
                ++drops_.netlink_overrun;
                continue;
            }
            throw std::runtime_error(std::string("linux-cp: netlink dump: ") + std::strerror(errno));
        }
        NetlinkParse p;
        parse_netlink({rx_.data(), static_cast<std::size_t>(n)}, p);
        apply(p);
        if (p.done) return;
    }
}

void LinuxCp::read_netlink() {
    for (;;) {
        const ssize_t n = mnl_socket_recvfrom(nl_, rx_.data(), rx_.size());
        if (n < 0) {
            if (errno == ENOBUFS) {  // news was lost: learn everything again
                ++drops_.netlink_overrun;
                dump(RTM_GETADDR);
                dump(RTM_GETNEIGH);
                continue;
            }
            return;  // EAGAIN: nothing more
        }
        NetlinkParse p;
        parse_netlink({rx_.data(), static_cast<std::size_t>(n)}, p);
        apply(p);
    }
}

void LinuxCp::apply(const NetlinkParse &p) {
    netlink_messages_ += p.messages;
    for (std::size_t k = 0; k < kNetlinkErrorCount; ++k) drops_.netlink_errors[k] += p.errors[k];
    for (const AddrEvent &e : p.addrs) on_addr(e);
    for (const NeighEvent &e : p.neighs) on_neigh(e);
}

void LinuxCp::watched_fds(std::vector<int> &out) const {
    for (const auto &t : taps_) out.push_back(t->fd());
    out.push_back(mnl_socket_get_fd(nl_));
}

bool LinuxCp::resolve(const dp::IpAddr &ip, std::uint32_t ifindex) {
    if (!port_of(ifindex)) return false;
    const auto now = std::chrono::steady_clock::now();
    auto [it, fresh] = asked_.try_emplace({ip, ifindex}, now);
    if (!fresh) {
        if (now - it->second < kAskAgainEvery) return true;
        it->second = now;
    }
    alignas(nlmsghdr) char buf[128];
    nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
    nlh->nlmsg_type = RTM_NEWNEIGH;
    // No acknowledgement: a refusal comes back as an error message, counted as a kernel error.
    nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_REPLACE;
    auto *nd = static_cast<ndmsg *>(mnl_nlmsg_put_extra_header(nlh, sizeof(ndmsg)));
    nd->ndm_family = ip.v6 ? AF_INET6 : AF_INET;
    nd->ndm_ifindex = static_cast<int>(ifindex);
    nd->ndm_state = NUD_NONE;
    mnl_attr_put(nlh, NDA_DST, ip.v6 ? 16 : 4, ip.bytes.data());
    mnl_attr_put_u32(nlh, NDA_FLAGS_EXT, NTF_EXT_MANAGED);
    if (mnl_socket_sendto(nl_, nlh, nlh->nlmsg_len) < 0)
        ++drops_.netlink_errors[static_cast<std::size_t>(NetlinkError::KernelError)];
    else
        ++resolutions_asked_;
    return true;
}

std::optional<std::uint16_t> LinuxCp::port_of(std::uint32_t ifindex) const {
    for (const LinuxCpPort &lp : ports_)
        if (lp.ifindex == ifindex) return lp.port;
    return std::nullopt;
}

void LinuxCp::count_fib(const dp::Status &s) {
    if (!s.ok()) ++drops_.fib_refused;
    dirty_ = true;
}

// The address itself and its subnet (for the kernel to resolve the subnet's hosts until their
// host routes exist) go to the kernel.
void LinuxCp::on_addr(const AddrEvent &e) {
    const std::optional<std::uint16_t> p = port_of(e.ifindex);
    if (!p) return;
    auto &addrs = ports_[*p].addresses;
    const dp::IpPrefix as_given{e.addr, e.prefix_len};
    if (e.add ? !addrs.insert(as_given).second : addrs.erase(as_given) == 0) return;
    const auto host = dp::IpPrefix::make(e.addr, e.addr.v6 ? 128 : 32);
    const auto subnet = dp::IpPrefix::make(e.addr, e.prefix_len);
    if (host) local_route(*host, e.add);
    if (subnet && subnet->len < host->len) local_route(*subnet, e.add);
    sync_host_addresses(*p);
}

void LinuxCp::sync_host_addresses(std::uint16_t port) {
    fabric::SwitchAgent *sma = ctx_.sma;
    if (sma == nullptr || port >= ports_.size()) return;
    std::set<fabric::HostAddress> want;
    if (!sma->fabric_port(port))
        for (const dp::IpPrefix &a : ports_[port].addresses)
            if (!dp::is_link_local_v6(a.addr)) want.insert(fabric::HostAddress{port, a.addr, a.len});
    std::vector<fabric::HostAddress> gone;
    for (const fabric::HostAddress &h : sma->host_addresses())
        if (h.port == port && !want.erase(h)) gone.push_back(h);
    for (const fabric::HostAddress &h : gone) (void)sma->del_host_address(h);  // it has it: cannot fail
    for (const fabric::HostAddress &h : want)
        if (const auto why = sma->add_host_address(h)) {
            ++drops_.host_address_refused;
            std::fprintf(stderr, "weft: linux-cp: %s/%u on %s is no host address: %s\n",
                         h.addr.to_string().c_str(), unsigned{h.len}, ports_[port].name.c_str(),
                         why->c_str());
        }
}

std::optional<std::string> LinuxCp::request_address(std::uint16_t port, const dp::IpAddr &addr,
                                                    std::uint8_t len, bool add) {
    if (port >= ports_.size() || ports_[port].ifindex == 0)
        return "port " + std::to_string(port) + " has no mirror";
    // Its own socket: the answer is read here, not among the news the event socket carries.
    mnl_socket *nl = mnl_socket_open(NETLINK_ROUTE);
    if (nl == nullptr) return std::string("netlink: ") + std::strerror(errno);
    std::optional<std::string> why;
    alignas(nlmsghdr) char buf[8192];  // one request, one acknowledgement
    nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
    nlh->nlmsg_type = add ? RTM_NEWADDR : RTM_DELADDR;
    nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (add ? NLM_F_CREATE | NLM_F_EXCL : 0);
    nlh->nlmsg_seq = 1;
    auto *ifa = static_cast<ifaddrmsg *>(mnl_nlmsg_put_extra_header(nlh, sizeof(ifaddrmsg)));
    ifa->ifa_family = addr.v6 ? AF_INET6 : AF_INET;
    ifa->ifa_prefixlen = len;
    ifa->ifa_index = ports_[port].ifindex;
    const unsigned bytes = addr.v6 ? 16 : 4;
    mnl_attr_put(nlh, IFA_LOCAL, bytes, addr.bytes.data());
    mnl_attr_put(nlh, IFA_ADDRESS, bytes, addr.bytes.data());
    if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 || mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
        why = std::string("netlink: ") + std::strerror(errno);
    } else {
        const ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof buf);
        if (n < 0 ||
            mnl_cb_run(buf, static_cast<std::size_t>(n), 1, mnl_socket_get_portid(nl), nullptr, nullptr) < 0)
            why = "the kernel refused it: " + std::string(std::strerror(errno));
    }
    mnl_socket_close(nl);
    return why;
}

// Counts `prefix` in or out of the Local group's routes; the route follows the count. A route
// someone else has put on the prefix since is left alone.
bool LinuxCp::local_route(const dp::IpPrefix &prefix, bool add) {
    if (add) {
        if (local_[prefix]++ != 0) return true;
        count_fib(ctx_.fib->add_route(prefix, kLocalNhg));
        return true;
    }
    const auto it = local_.find(prefix);
    if (it == local_.end()) return false;
    if (--it->second != 0) return true;
    local_.erase(it);
    if (routed_to(prefix, kLocalNhg)) count_fib(ctx_.fib->del_route(prefix));
    return true;
}

bool LinuxCp::routed_to(const dp::IpPrefix &prefix, std::uint32_t nhg) const {
    const auto r = ctx_.fib->routes().find(prefix);
    return r != ctx_.fib->routes().end() && r->second == nhg;
}

std::uint32_t LinuxCp::neighbour_nhg() {
    if (!free_nhgs_.empty()) {
        const std::uint32_t id = *free_nhgs_.begin();
        free_nhgs_.erase(free_nhgs_.begin());
        return id;
    }
    return next_nhg_++;
}

// A resolved neighbour: its MAC for every group member through it, and a host route to it (not
// for IPv6 link-local neighbours, whose traffic is the kernel's). A lost one: both gone, unless
// another group still takes its MAC (then the last MAC stays, counted).
void LinuxCp::on_neigh(const NeighEvent &e) {
    const std::optional<std::uint16_t> p = port_of(e.ifindex);
    if (!p) return;
    rte_ether_addr mac;
    std::memcpy(mac.addr_bytes, e.mac.data(), e.mac.size());
    // A link-local address is a neighbour per port (the same fe80:: may be on several links).
    const dp::NeighbourKey key = dp::NeighbourKey::of(e.ip, *p);
    const auto it = neigh_.find(key);
    const bool same = it != neigh_.end() && it->second.port == *p && it->second.mac == e.mac;
    if (e.add && same) {
        it->second.state = e.state;
        return;
    }
    if (e.add && (rte_is_multicast_ether_addr(&mac) || rte_is_zero_ether_addr(&mac))) return;
    const auto host = dp::IpPrefix::make(e.ip, e.ip.v6 ? 128 : 32);
    if (it != neigh_.end()) {  // gone, or moved to another MAC or port: out first
        if (const std::uint32_t g = it->second.nhg; g != 0) {  // 0: a link-local one, no route
            if (routed_to(*host, g)) count_fib(ctx_.fib->del_route(*host));
            if (ctx_.fib->nhgs().contains(g)) count_fib(ctx_.fib->del_nhg(g));
            free_nhgs_.insert(g);
        }
        if (!e.add || it->second.port != *p) {
            // Refused while a group (its own host route's, leaving in this batch) names it:
            // tried again once the batch is published.
            if (!ctx_.fib->del_neighbour(e.ip, scope_of(key)).ok()) neigh_retry_.push_back(key);
            dirty_ = true;
        }
        neigh_.erase(it);
    }
    if (!e.add) return;
    const dp::Status s = ctx_.fib->set_neighbour(e.ip, mac, *p);
    count_fib(s);
    if (!s.ok()) return;
    LearnedNeighbour n{*p, e.mac, e.state, 0};
    if (!dp::is_link_local_v6(e.ip)) {
        n.nhg = neighbour_nhg();
        const dp::Status g = ctx_.fib->set_nhg(n.nhg, {dp::NhgMemberSpec{*p, e.ip, 1}});
        count_fib(g);
        if (g.ok())
            count_fib(ctx_.fib->add_route(*host, n.nhg));
        else
            free_nhgs_.insert(std::exchange(n.nhg, 0));
    }
    neigh_.emplace(key, n);
}

}  // namespace weft::control::lcp
