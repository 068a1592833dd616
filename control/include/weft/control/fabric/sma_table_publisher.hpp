// What the SM sets in the switch's SMA, made the dataplane's: the SmaObserver of the switch's
// Sma. Changes are only noted as they come (an SM writes many blocks in a row); publish() turns
// everything noted since the last one into FibBuilder changes and one FIB snapshot, read from
// the Sma's state as it is then:
//   - LFT blocks: LID -> dataplane port (IB port p is dataplane port p - 1); port 0 (the switch
//     itself) and 255 (none) leave the LID without an entry: frames for the switch's own LIDs
//     on VL15 are punted before the LFT, other traffic to it has nowhere to go.
//   - MFT blocks: the port masks of all positions, port 0 left out (no local delivery).
//   - SL2VL: the dataplane keeps one SL->VL map per output port, the SMA one per (in, out) pair.
//     The output port's map is the one the SM set for the lowest input port other than itself
//     (input port 1, or 2 for output port 1); pairs whose maps differ from it are counted as
//     conflicts (a configuration such as a dateline VL change needs the in-port dimension weft's
//     dataplane does not have). VL 15 (drop) has no data VL: that SL keeps its previous VL and is
//     counted.
//   - PortInfo of port 0: the switch's LID and LMC (FibBuilder::set_switch_lid).
//   - A committed Ethernet table: groups and routes (EthernetFib); the connected routes of the
//     host addresses (`port N ip`).
// A refused change is logged and counted and the rest goes on; a snapshot that cannot be built
// leaves the published tables as they were (FibBuilder rolls back), logged and counted too.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "weft/control/command_context.hpp"
#include "weft/control/fabric/ethernet_fib.hpp"
#include "weft/sm/sma.hpp"

namespace weft::control::fabric {

struct TablePublisherCounters {
    std::uint64_t publications = 0;      // snapshots published for the SM's changes
    std::uint64_t publish_failures = 0;  // snapshots that could not be built (old tables kept)
    std::uint64_t refused = 0;           // single changes the FibBuilder refused
    std::uint64_t lft_blocks = 0, mft_blocks = 0, sl2vl_tables = 0, lid_changes = 0;
    std::uint64_t sl2vl_in_port_conflicts = 0;  // (in, out) maps that differ from the one used
    std::uint64_t sl2vl_drop_entries = 0;       // SL -> VL 15 entries left out
    std::uint64_t ethernet_commits = 0;         // committed Ethernet tables applied
    std::uint64_t ethernet_failures = 0;        // ... refused (the previous one kept)
    std::uint64_t connected_failures = 0;       // connected routes refused (the previous ones kept)
};

class SmaTablePublisher final : public sm::SmaObserver {
  public:
    explicit SmaTablePublisher(CommandContext &ctx) : ctx_(ctx) {}
    // The Sma whose state publish() reads (set once the Sma exists).
    void attach(const sm::Sma &sma) { sma_ = &sma; }

    void lft_block_changed(const sm::LftBlock &b) override { lft_blocks_.insert(b.block); }
    void mft_block_changed(const sm::MftBlock &b) override { mft_blocks_.insert(b.block); }
    void sl_to_vl_changed(sm::PortNum, sm::PortNum out, const sm::SlToVlTable &) override {
        sl2vl_out_.insert(out);
    }
    void port_info_changed(sm::PortNum port, const sm::PortInfo &) override { lid_dirty_ |= port == 0; }
    void ethernet_table_committed(const sm::EthernetTable &t) override { ethernet_ = t; }
    // The host addresses the switch has now; their connected routes go with the next publish().
    void host_addresses_changed(std::vector<HostAddress> a) { connected_ = std::move(a); }

    bool pending() const;
    // Everything noted since the last call, as one snapshot; false when it could not be published.
    bool publish();

    const TablePublisherCounters &counters() const { return counters_; }
    const std::string &last_error() const { return last_error_; }
    const EthernetFib &ethernet() const { return ethernet_fib_; }

  private:
    void refused(const std::string &what);
    // ARN's dragonfly group from the table's WeftArnGroup entries (none: the configured group).
    void apply_arn_group(const sm::EthernetTable &table);
    void write_lft_block(std::uint16_t block);
    void write_mft_block(std::uint16_t block);
    void write_sl2vl(sm::PortNum out);

    CommandContext &ctx_;
    const sm::Sma *sma_ = nullptr;
    std::set<std::uint16_t> lft_blocks_, mft_blocks_;
    std::set<sm::PortNum> sl2vl_out_;
    bool lid_dirty_ = false;
    std::optional<sm::EthernetTable> ethernet_;
    std::optional<std::vector<HostAddress>> connected_;
    EthernetFib ethernet_fib_;
    TablePublisherCounters counters_;
    std::string last_error_;
};

}  // namespace weft::control::fabric
