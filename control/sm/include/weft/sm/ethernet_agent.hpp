// The switch's side of weft's vendor attributes (VENDOR_ATTRIBUTES.md): an Ethernet/RoCE weft
// switch answers Gets of its host subnets and of its table, takes Sets of groups and routes into
// staging, and on a Commit that checks whole makes staging its active table in one step. Every
// refusal is answered "invalid field", counted by reason and keeps the last line; it never
// changes the active table. The Sma owns one when the switch is in Ethernet mode.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "weft/sm/ethernet_table.hpp"
#include "weft/sm/smp.hpp"
#include "weft/sm/vendor_host_subnets.hpp"

namespace weft::sm {

struct EthernetAgentConfig {
    std::vector<HostSubnet> host_subnets;  // `port P ip A/L` of the host ports
    std::uint32_t max_routes = 16384;
    std::uint16_t max_groups = 1024;
    std::uint8_t max_primaries = 16, max_alternates = 16;  // per group
};

struct EthernetAgentCounters {
    std::uint64_t gets = 0, sets = 0;
    std::uint64_t begins = 0, commits = 0;  // taken
    std::uint64_t block_sets = 0;           // group, route and ARN blocks taken into staging
    std::array<std::uint64_t, kEthernetRefusals> refused{};

    std::uint64_t refusals(EthernetRefusal why) const { return refused[static_cast<std::size_t>(why)]; }
    std::uint64_t refused_total() const;
};

class EthernetAgent {
  public:
    // Throws std::invalid_argument on subnets the attribute cannot carry (more than 65535, a port
    // outside 1..num_ports, an empty or malformed prefix).
    EthernetAgent(EthernetAgentConfig config, PortNum num_ports);

    // The host ports' subnets changed: WeftHostSubnets answers with these and a new version.
    void set_host_subnets(std::vector<HostSubnet> subnets);

    // A Get or Set of one of weft's attributes (is_weft_attribute): fills `reply`'s data and
    // status. True when a Commit made a new table active (then table() is it).
    bool handle(const Smp &request, Smp &reply);

    const EthernetTable &table() const { return table_; }
    bool staging_open() const { return staging_.has_value(); }
    FibState state() const;
    const std::vector<HostSubnet> &host_subnets() const { return config_.host_subnets; }
    const EthernetAgentCounters &counters() const { return counters_; }
    const std::string &last_refusal() const { return last_refusal_; }  // "bad-group-reference: ..."

  private:
    struct Staging {
        std::uint32_t generation = 0;
        EthernetBlocks blocks;
    };
    void refuse(Smp &reply, EthernetRefusal why, std::string what);
    void host_subnets_attr(const Smp &request, Smp &reply);
    bool fib_state_attr(const Smp &request, Smp &reply);
    void group_attr(const Smp &request, Smp &reply);
    void routes_attr(const Smp &request, Smp &reply);
    void arn_attr(const Smp &request, Smp &reply);
    const EthernetBlocks &readable() const { return staging_ ? staging_->blocks : active_; }
    EthernetLimits limits() const;

    EthernetAgentConfig config_;
    PortNum num_ports_;
    std::uint16_t subnets_version_ = 1;
    EthernetTable table_;
    EthernetBlocks active_;  // table_ as blocks: what Gets read outside staging
    std::optional<Staging> staging_;
    EthernetAgentCounters counters_;
    std::string last_refusal_;
};

}  // namespace weft::sm
