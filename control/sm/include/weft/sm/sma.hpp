// The Subnet Management Agent of one node (a weft switch, or a CA end node): the node's
// management state (NodeInfo, NodeDescription, SwitchInfo, PortInfo per port, the linear and
// multicast forwarding tables, SL2VL per port pair) and the subnet management interface in front
// of it, which moves directed-route SMPs hop by hop (IBA 14.2.2) and LID-routed ones by the LFT.
//
// One SMP in, at most one SMP out: handle() takes what arrived on a port, originate() what the SM
// on this node sends; either answers with an SmaOutput — the bytes to send out of a port (a
// reply, or an SMP passed on), the bytes to hand to the local SM, or a drop with its reason. A
// Set changes the state and tells the SmaObserver what changed, so the switch can publish its
// dataplane tables. Link changes come from outside (set_link); they set SwitchInfo's
// PortStateChange and send trap 128 to the SM, repeated (poll) until the SM represses it.
//
// Pure C++20: no I/O, no clock. Time enters as a parameter (for the M_Key lease and trap
// repeats). Not thread-safe: one control thread owns it.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "weft/sm/ethernet_agent.hpp"
#include "weft/sm/linear_forwarding_table.hpp"
#include "weft/sm/multicast_forwarding_table.hpp"
#include "weft/sm/node_info.hpp"
#include "weft/sm/port_info.hpp"
#include "weft/sm/sl_to_vl_table.hpp"
#include "weft/sm/sma_counters.hpp"
#include "weft/sm/smp.hpp"
#include "weft/sm/switch_info.hpp"

namespace weft::sm {

using SmaTime = std::chrono::nanoseconds;  // any monotonic clock's count

struct SmaConfig {
    NodeType node_type = NodeType::kSwitch;  // switch or CA
    std::uint64_t node_guid = 0;
    std::uint64_t system_image_guid = 0;    // 0: the node GUID
    std::vector<std::uint64_t> port_guids;  // CA: index = port (1..num_ports); empty: node GUID + port
    PortNum num_ports = 1;
    std::string description;
    std::uint16_t device_id = 0;
    std::uint32_t vendor_id = 0;  // 24 bits
    std::uint32_t revision = 0;
    std::uint16_t partition_cap = 1;
    // Switches: table capacities (LinearFDBCap <= 49152 LIDs, MulticastFDBCap <= 16384 MLIDs).
    std::uint16_t linear_fdb_cap = 0xC000;
    std::uint16_t multicast_fdb_cap = 1024;
    // vLIDs (seed 002) the secondary LFT holds from kFirstVlid, a multiple of 64 up to 196608;
    // 0: a legacy switch, which answers WeftExtendedLids and vLID blocks "unsupported"/"invalid".
    std::uint32_t vlid_cap = 0;
    std::uint8_t life_time_value = 0x12;
    // Every port: what PortInfo says it can do.
    std::uint8_t link_width_supported = 2;  // 4x
    std::uint8_t link_speed_supported = 7;  // SDR, DDR, QDR
    std::uint8_t mtu_cap = 5;               // 4096
    std::uint8_t vl_cap = 4;                // VL0-7
    std::uint32_t capability_mask = 0;      // of the end ports (switch port 0, CA ports)
    // A trap not repressed is sent again every 4.096 us * 2^SubnetTimeOut (of the port the trap
    // leaves from), but never more often than this.
    SmaTime trap_repeat_floor = std::chrono::milliseconds(100);
};

// What a port's link runs at once up (PortInfo's active fields).
struct SmaLinkRate {
    std::uint8_t width_active = 2;      // 4x
    std::uint8_t speed_active = 4;      // QDR
    std::uint8_t speed_ext_active = 0;  // FDR and above
};

// LRH addresses of an SMP on the wire (a directed-route SMP in its directed part: permissive).
struct SmaLrh {
    Lid slid = kPermissiveLid;
    Lid dlid = kPermissiveLid;
};

enum class SmaAction : std::uint8_t {
    kDrop,      // nothing goes anywhere; `drop` says why
    kSend,      // `bytes` leave by `port`, with LRH `lrh`
    kToSm,      // `bytes` are for the SM on this node (a reply to it, a trap for it)
    kConsumed,  // taken here, nothing to send (a TrapRepress for this SMA's trap)
};

struct SmaOutput {
    SmaAction action = SmaAction::kDrop;
    SmaDrop drop = SmaDrop::kCount;  // kDrop only
    PortNum port = 0;                // kSend: the port out (0 never: see kToSm)
    SmaLrh lrh;                      // kSend: DLID routed (LID-routed), or permissive (directed)
    SmpBytes bytes{};                // kSend, kToSm: the 256-byte MAD

    bool dropped() const { return action == SmaAction::kDrop; }
};

// What a Set (or a link change) changed; called once per changed object, after the change.
class SmaObserver {
  public:
    virtual ~SmaObserver() = default;
    virtual void lft_block_changed(const LftBlock &) {}
    virtual void mft_block_changed(const MftBlock &) {}
    virtual void sl_to_vl_changed(PortNum /*in*/, PortNum /*out*/, const SlToVlTable &) {}
    // LID, LMC, SM LID, logical or physical state, OperationalVLs, MTU, M_Key fields...
    virtual void port_info_changed(PortNum /*port*/, const PortInfo &) {}
    virtual void switch_info_changed(const SwitchInfo &) {}
    // Ethernet mode: a Commit made this the switch's whole table (groups and routes), to be
    // published as one FIB snapshot.
    virtual void ethernet_table_committed(const EthernetTable &) {}
};

class Sma {
  public:
    explicit Sma(SmaConfig config, SmaObserver *observer = nullptr);

    // --- configuration from outside ---------------------------------------------------------
    // SMPs are taken only on fabric ports (none are, at first); others are dropped and counted.
    void set_fabric_port(PortNum port, bool fabric);
    bool fabric_port(PortNum port) const;
    // The cable of `port` came up or went down. Up: physically LinkUp, logically Init (the SM
    // arms and activates it). Down: Down/Polling. Either sets SwitchInfo.PortStateChange on a
    // switch and returns trap 128 to send (when the switch has a LID and knows its SM's).
    std::optional<SmaOutput> set_link(PortNum port, bool up, SmaTime now, SmaLinkRate rate = {});
    bool link_up(PortNum port) const;  // the cable is up and the port not disabled
    void set_observer(SmaObserver *observer) { observer_ = observer; }
    // Ethernet/RoCE mode (switches): answers weft's vendor attributes (VENDOR_ATTRIBUTES.md)
    // with these host subnets and limits; without it they are unsupported. Throws
    // std::invalid_argument on a CA or subnets EthernetAgent refuses.
    void enable_ethernet(EthernetAgentConfig config);
    EthernetAgent *ethernet() { return ethernet_ ? &*ethernet_ : nullptr; }
    const EthernetAgent *ethernet() const { return ethernet_ ? &*ethernet_ : nullptr; }

    // --- SMPs ---------------------------------------------------------------------------------
    // An SMP (the 256-byte MAD) that arrived on `in_port`.
    SmaOutput handle(PortNum in_port, std::span<const std::uint8_t> mad, SmaTime now, SmaLrh lrh = {});
    // An SMP the SM on this node sends, from its port `sm_port` (0 on a switch). Directed route:
    // out of the path's first port, or answered here when its hop count is 0. LID-routed: to
    // `dlid` (this node's own LID: answered here).
    SmaOutput originate(PortNum sm_port, std::span<const std::uint8_t> mad, SmaTime now,
                        Lid dlid = kPermissiveLid);
    // Time passing: a trap due again, an M_Key lease running out.
    std::optional<SmaOutput> poll(SmaTime now);
    std::optional<SmaTime> next_deadline() const;

    // --- state (what the SMA answers Gets with) -------------------------------------------------
    const SmaConfig &config() const { return config_; }
    bool is_switch() const { return config_.node_type == NodeType::kSwitch; }
    NodeInfo node_info(PortNum local_port) const;
    const PortInfo &port_info(PortNum port) const { return ports_.at(port); }
    const SwitchInfo &switch_info() const { return switch_info_; }
    Lid lid() const;                       // the node's base LID: switch port 0, a CA's first port with one
    PortNum lft(std::uint32_t lid) const;  // kNoPort past LinearFDBCap (or the vLID capacity)
    const std::vector<PortNum> &lft() const { return lft_; }
    std::uint16_t mft_mask(Lid mlid, unsigned position) const;  // 0 outside the table
    const SlToVlTable &sl_to_vl(PortNum in, PortNum out) const;
    bool trap_outstanding() const { return trap_.has_value(); }
    const SmaCounters &counters() const { return counters_; }

  private:
    struct Trap {
        Smp smp;
        SmaTime next{0};
    };
    // An SMP as taken in: decoded, with the status its reply must carry when only its class
    // version or method stopped it from decoding (answered, not dropped: IBA 13.4.7).
    struct Incoming {
        Smp smp;
        std::uint16_t odd_status = 0;
        SmpBytes raw{};  // as received: what is passed on, hop pointer and return path updated
    };

    std::optional<Incoming> take(std::span<const std::uint8_t> mad);
    SmaOutput drop(SmaDrop reason);
    SmaOutput send_lid_routed(const Smp &smp, const SmpBytes *raw, Lid slid, Lid dlid, PortNum ca_port);
    SmaOutput send_port(const Smp &smp, const SmpBytes *raw, PortNum port, SmaLrh lrh);
    SmaOutput to_sm(const Smp &smp);
    SmaOutput lid_routed(const Incoming &in, PortNum in_port, SmaTime now, SmaLrh lrh, bool from_sm);
    SmaOutput directed(Incoming in, PortNum in_port, SmaTime now, SmaLrh lrh, bool from_sm);
    std::optional<Smp> respond(const Incoming &in, PortNum in_port, SmaTime now);
    bool owns_lid(Lid lid, PortNum port) const;

    // Attributes (sma_attributes.cpp): fills `reply`'s data and status.
    void get_set(const Smp &request, Smp &reply, PortNum in_port, bool hide_m_key);
    void node_description(const Smp &request, Smp &reply);
    void switch_info_attr(const Smp &request, Smp &reply);
    void port_info_attr(const Smp &request, Smp &reply, PortNum in_port, bool hide_m_key);
    void lft_attr(const Smp &request, Smp &reply);
    void extended_lids_attr(const Smp &request, Smp &reply);
    void mft_attr(const Smp &request, Smp &reply);
    void sl_to_vl_attr(const Smp &request, Smp &reply, PortNum in_port);

    // Port states (sma_port_state.cpp).
    std::optional<SmpError> set_port_info(PortNum port, const PortInfo &want);
    void link_changed(PortNum port);
    void flag_port_state_change();
    void publish_port(PortNum port);

    // M_Key (sma_m_key.cpp): the port whose key guards this SMP, the verdict, the lease.
    enum class MKeyCheck : std::uint8_t { kPass, kPassHideKey, kFail };
    PortNum m_key_port(PortNum in_port) const;
    MKeyCheck check_m_key(const Smp &smp, PortNum in_port, SmaTime now);
    void expire_lease(SmaTime now);

    // Traps (sma_traps.cpp).
    std::optional<SmaOutput> raise_trap(SmaTime now);
    std::optional<SmaOutput> send_trap(SmaTime now, bool repeat);
    SmaTime trap_interval() const;

    SmaConfig config_;
    SmaObserver *observer_ = nullptr;
    std::vector<PortInfo> ports_;  // index = port (a CA's index 0 unused)
    std::vector<bool> fabric_, cable_up_;
    SwitchInfo switch_info_;
    std::vector<PortNum> lft_;
    std::vector<PortNum> vlft_;       // the secondary LFT: vLIDs from kFirstVlid
    std::vector<std::uint16_t> mft_;  // [mlid offset * positions + position]
    unsigned mft_positions_ = 0;
    std::vector<SlToVlTable> sl_to_vl_;  // [in * (num_ports + 1) + out]
    std::optional<Trap> trap_;
    bool trap_due_ = false;  // a port changed state inside a Set: trap 128 at the next poll()
    std::uint64_t trap_tid_ = 0;
    bool notice_toggle_ = false;
    std::optional<SmaTime> lease_ends_;  // the M_Key lease timer, when running
    std::optional<EthernetAgent> ethernet_;
    SmaCounters counters_;
};

}  // namespace weft::sm
