// SwitchAgent: the switch's SMA on its punt path and control TX, wired to its tables.
#include "weft/control/fabric/switch_agent.hpp"

#include <unistd.h>

#include <algorithm>
#include <stdexcept>

namespace weft::control::fabric {

namespace {

sm::EthernetAgentConfig ethernet_config() {
    sm::EthernetAgentConfig c;
    c.max_groups = static_cast<std::uint16_t>(kSmNhgs);  // the NHG ids kept for the SM's groups
    return c;
}

std::string host_name() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "weft";
    return name;
}

}  // namespace

std::uint64_t guid_from_mac(const std::array<std::uint8_t, 6> &mac) {
    const std::array<std::uint8_t, 8> b{
        static_cast<std::uint8_t>(mac[0] ^ 0x02), mac[1], mac[2], 0xFF, 0xFE, mac[3], mac[4], mac[5]};
    std::uint64_t g = 0;
    for (std::uint8_t x : b) g = g << 8 | x;
    return g;
}

sm::SmaConfig SwitchAgent::sma_config(const dataplane::Dataplane &dp, const SwitchAgentConfig &c) {
    if (dp.num_ports() == 0 || dp.num_ports() > sm::kMaxPortNum)
        throw std::invalid_argument("the SMA takes 1.." + std::to_string(sm::kMaxPortNum) + " ports");
    sm::SmaConfig s;
    s.node_type = sm::NodeType::kSwitch;
    s.num_ports = static_cast<sm::PortNum>(dp.num_ports());
    if (c.node_guid != 0) {
        s.node_guid = c.node_guid;
    } else {
        const rte_ether_addr a = dp.port_status(0).mac;
        std::array<std::uint8_t, 6> mac{};
        std::copy(std::begin(a.addr_bytes), std::end(a.addr_bytes), mac.begin());
        s.node_guid = guid_from_mac(mac);
    }
    s.description = c.description.empty() ? host_name() : c.description;
    if (s.description.size() > 64) s.description.resize(64);
    // The dataplane's tables: unicast LIDs up to 0xBFFF, multicast from 0xC000 (whole blocks).
    s.linear_fdb_cap = 0xC000;
    s.multicast_fdb_cap = 0x3FE0;                                  // whole blocks of 32
    s.vlid_cap = dataplane::kMaxVlid - dataplane::kFirstVlid + 1;  // every vLID, in the secondary LFT
    return s;
}

SwitchAgent::SwitchAgent(CommandContext &ctx, SwitchAgentConfig config)
    : ctx_(ctx),
      config_(std::move(config)),
      publisher_(ctx),
      sma_(sma_config(*ctx.dp, config_), &publisher_),
      ports_(*ctx.dp),
      agent_(sma_, ports_, sm::IboeFrameConfig{config_.iboe_ethertype, true}) {
    publisher_.attach(sma_);
    for (std::uint16_t p : config_.fabric_ports) {
        if (p >= ctx.dp->num_ports())
            throw std::invalid_argument("fabric port " + std::to_string(p) + ": no such port");
        sma_.set_fabric_port(static_cast<sm::PortNum>(p + 1), true);
    }
    if (config_.ethernet) sma_.enable_ethernet(ethernet_config());
}

SwitchAgent::~SwitchAgent() = default;

sm::SmaTime SwitchAgent::now() {
    return std::chrono::steady_clock::now().time_since_epoch();
}

void SwitchAgent::to_sm(std::optional<sm::SmpForSm> s) {
    if (!s) return;
    if (sm_sink_)
        sm_sink_(*s);
    else
        ++counters_.to_sm_dropped;
}

void SwitchAgent::check_links(sm::SmaTime t) {
    for (std::uint16_t p = 0; p < ctx_.dp->num_ports(); ++p) {
        const bool up = ctx_.dp->links().usable(p);
        const auto ib = static_cast<sm::PortNum>(p + 1);
        if (up == sma_.link_up(ib)) continue;
        ++counters_.link_changes;
        to_sm(agent_.set_link(ib, up, t));
    }
}

void SwitchAgent::poll() {
    check_links(now());
    // Every frame the workers punted since the last round, without waiting for more.
    while (std::optional<sm::ReceivedFrame> f = ports_.receive(std::chrono::milliseconds(0))) {
        ++counters_.frames;
        if (frame_handler_)
            frame_handler_(f->port, f->bytes);
        else
            to_sm(agent_.on_frame(f->port, f->bytes, now()));
    }
    to_sm(agent_.poll(now()));
    publisher_.publish();
}

void SwitchAgent::set_fabric_port(std::uint16_t port, bool fabric) {
    if (port < ctx_.dp->num_ports()) sma_.set_fabric_port(static_cast<sm::PortNum>(port + 1), fabric);
}

bool SwitchAgent::fabric_port(std::uint16_t port) const {
    return port < ctx_.dp->num_ports() && sma_.fabric_port(static_cast<sm::PortNum>(port + 1));
}

std::optional<std::string> SwitchAgent::set_subnets(const std::vector<HostAddress> &addresses) {
    std::vector<sm::HostSubnet> subnets;
    for (const HostAddress &a : addresses) {
        sm::HostSubnet s;
        s.port = static_cast<sm::PortNum>(a.port + 1);
        if (a.addr.v6) {
            s.prefix = sm::IpPrefix::v6(a.addr.bytes, a.len);
        } else {
            s.prefix = sm::IpPrefix::v4(a.addr.v4_host_order(), a.len);
        }
        if (std::find(subnets.begin(), subnets.end(), s) == subnets.end()) subnets.push_back(s);
    }
    std::sort(subnets.begin(), subnets.end());
    try {
        if (sma_.ethernet() == nullptr) sma_.enable_ethernet(ethernet_config());
        sma_.ethernet()->set_host_subnets(std::move(subnets));
    } catch (const std::invalid_argument &e) {
        return e.what();
    }
    return std::nullopt;
}

void SwitchAgent::leave_connected_routes_to_kernel() {
    connected_by_kernel_ = true;
    publisher_.host_addresses_changed({});  // any written before go
}

std::optional<std::string> SwitchAgent::add_host_address(const HostAddress &a) {
    if (a.port >= ctx_.dp->num_ports()) return "no port " + std::to_string(a.port);
    if (fabric_port(a.port)) return "port " + std::to_string(a.port) + " is a fabric port, not a host port";
    if (std::find(host_addresses_.begin(), host_addresses_.end(), a) != host_addresses_.end())
        return std::nullopt;
    std::vector<HostAddress> next = host_addresses_;
    next.push_back(a);
    std::sort(next.begin(), next.end());
    if (auto why = set_subnets(next)) return why;
    host_addresses_ = std::move(next);
    if (!connected_by_kernel_) publisher_.host_addresses_changed(host_addresses_);
    return std::nullopt;
}

std::optional<std::string> SwitchAgent::del_host_address(const HostAddress &a) {
    const auto it = std::find(host_addresses_.begin(), host_addresses_.end(), a);
    if (it == host_addresses_.end()) return "no such address on port " + std::to_string(a.port);
    std::vector<HostAddress> next = host_addresses_;
    next.erase(next.begin() + (it - host_addresses_.begin()));
    if (auto why = set_subnets(next)) return why;
    host_addresses_ = std::move(next);
    if (!connected_by_kernel_) publisher_.host_addresses_changed(host_addresses_);
    return std::nullopt;
}

}  // namespace weft::control::fabric
