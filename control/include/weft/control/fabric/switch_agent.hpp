// The weft switch as a managed switch: its SMA (an sm::Sma of node type switch, one IB port per
// dataplane port, IB port p = dataplane port p - 1), the SmaFrameAgent that runs it on
// IB-over-Ethernet frames, the DataplaneFramePorts under it (punt rings in, control TX out) and
// the SmaTablePublisher that makes what the SM sets the dataplane's tables.
//
// The control loop calls poll() once per round: every punted frame goes to the agent (or to the
// frame handler an SM on this switch installs), the Sma's timers run, link changes become
// set_link (trap 128), and what the SM changed is published as one snapshot.
//
// An SM inside this switch (FrameSmpTransport) shares agent() and ports(): it installs its
// on_frame as the frame handler (push mode) and receives what the Sma hands to the local SM from
// link changes and timers through the SM sink.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "weft/control/command_context.hpp"
#include "weft/control/fabric/dataplane_frame_ports.hpp"
#include "weft/control/fabric/sma_table_publisher.hpp"
#include "weft/sm/sma.hpp"
#include "weft/sm/sma_frame_agent.hpp"
#include "weft/sm/vendor_host_subnets.hpp"

namespace weft::control::fabric {

struct SwitchAgentConfig {
    std::uint64_t node_guid = 0;              // 0: from the first port's MAC (EUI-64)
    std::string description;                  // empty: the host name
    std::vector<std::uint16_t> fabric_ports;  // dataplane ports that take SMPs
    bool ethernet = false;                    // answer weft's vendor attributes from the start
    std::uint16_t iboe_ethertype = 0x88B5;
};

struct SwitchAgentCounters {
    std::uint64_t frames = 0;         // punted frames taken
    std::uint64_t to_sm_dropped = 0;  // SMPs the Sma handed to a local SM while none listened
    std::uint64_t link_changes = 0;   // set_link calls (a port's cable up or down)
};

class SwitchAgent {
  public:
    using FrameHandler = std::function<void(sm::PortNum in_port, std::span<const std::uint8_t> frame)>;
    using SmSink = std::function<void(const sm::SmpForSm &)>;

    // The dataplane's ports are configured (their MACs known). Throws std::invalid_argument for
    // a fabric port the dataplane does not have.
    SwitchAgent(CommandContext &ctx, SwitchAgentConfig config);
    ~SwitchAgent();
    SwitchAgent(const SwitchAgent &) = delete;
    SwitchAgent &operator=(const SwitchAgent &) = delete;

    // One control-loop round (see above).
    void poll();
    // Publishes what the SM changed since the last publication (poll() does it too).
    bool publish() { return publisher_.publish(); }

    // Fabric ports (dataplane numbering).
    void set_fabric_port(std::uint16_t port, bool fabric);
    bool fabric_port(std::uint16_t port) const;

    // Host subnets (the `port N ip` addresses): the Sma answers WeftHostSubnets with their
    // prefixes. The first one turns Ethernet mode on. False (and why) when refused.
    std::optional<std::string> add_host_address(const HostAddress &a);
    std::optional<std::string> del_host_address(const HostAddress &a);
    const std::vector<HostAddress> &host_addresses() const { return host_addresses_; }
    // With the kernel mirror, the kernel reaches the host subnets (it resolves their hosts and
    // their host routes follow), so the agent writes no connected routes of its own.
    void leave_connected_routes_to_kernel();
    bool ethernet_mode() const { return sma_.ethernet() != nullptr; }

    // For an SM on this switch.
    void set_frame_handler(FrameHandler h) { frame_handler_ = std::move(h); }
    void set_sm_sink(SmSink s) { sm_sink_ = std::move(s); }
    sm::SmaFrameAgent &agent() { return agent_; }
    DataplaneFramePorts &ports() { return ports_; }
    sm::Sma &sma() { return sma_; }
    const sm::Sma &sma() const { return sma_; }
    const sm::SmaFrameAgent &agent() const { return agent_; }
    const DataplaneFramePorts &ports() const { return ports_; }
    const SmaTablePublisher &publisher() const { return publisher_; }
    const SwitchAgentConfig &config() const { return config_; }
    const SwitchAgentCounters &counters() const { return counters_; }
    // The time the Sma sees (steady clock).
    static sm::SmaTime now();

  private:
    static sm::SmaConfig sma_config(const dataplane::Dataplane &dp, const SwitchAgentConfig &c);
    void to_sm(std::optional<sm::SmpForSm> s);
    void check_links(sm::SmaTime now);
    std::optional<std::string> set_subnets(const std::vector<HostAddress> &addresses);

    CommandContext &ctx_;
    SwitchAgentConfig config_;
    SmaTablePublisher publisher_;
    sm::Sma sma_;
    DataplaneFramePorts ports_;
    sm::SmaFrameAgent agent_;
    FrameHandler frame_handler_;
    SmSink sm_sink_;
    std::vector<HostAddress> host_addresses_;
    bool connected_by_kernel_ = false;
    SwitchAgentCounters counters_;
};

// The node GUID weft derives from a port MAC: EUI-64 (the universal/local bit flipped, FF:FE in
// the middle), as IPv6 does.
std::uint64_t guid_from_mac(const std::array<std::uint8_t, 6> &mac);

}  // namespace weft::control::fabric
