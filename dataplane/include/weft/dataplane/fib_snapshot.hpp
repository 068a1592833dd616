// A complete set of forwarding tables. Workers read it through a pointer that the publisher
// swaps. Everything in it is immutable but the IPv4/IPv6 LPM tables, which every snapshot of a
// builder shares and the builder changes in place (each entry atomically; see fib_builder.hpp).
#pragma once

#include <rte_ether.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "weft/ars/config.hpp"
#include "weft/dataplane/ip_addr.hpp"
#include "weft/dataplane/limits.hpp"
#include "weft/dataplane/port_mask.hpp"

namespace weft::dataplane {

// Local: the switch's own (its addresses, link-local multicast): frames routed to such a group
// go to the control thread, which hands them to the port's kernel interface (linux-cp); the
// group's members are not used. Drop: a blackhole (no members): frames routed to it are dropped
// and counted (DropReason::Blackhole).
enum class NhgMode : std::uint8_t { Ecmp = 0, Ars = 1, Local = 2, Drop = 3 };
inline const char *nhg_mode_name(NhgMode m) noexcept {
    return m == NhgMode::Ars ? "ars" : m == NhgMode::Local ? "local" : m == NhgMode::Drop ? "drop" : "ecmp";
}

// One NHG member as the hot path needs it: where to send, and to which MAC.
struct ResolvedMember {
    std::uint16_t port = 0;
    bool resolved = false;  // a neighbour gave dst_mac; unresolved members are never chosen
    rte_ether_addr dst_mac{};
};

struct NhgEntry {
    std::uint32_t id = 0;            // the operator's NHG id
    std::uint32_t first_member = 0;  // into the snapshot's member array
    // Members, then, for a weighted group, extra slots repeating members, so that hash ECMP over
    // all of them gives each member its weight's share. 0: the index is unused.
    std::uint16_t member_count = 0;
    NhgMode mode = NhgMode::Ecmp;
    // Set by the snapshot: an ARS-mode group its ARS configuration knows, so it selects through
    // ARS (the hot path tests this flag instead of looking the id up in the configuration).
    bool ars_selectable = false;
};

// LFT entry for one unicast LID.
struct LftTarget {
    enum class Kind : std::uint8_t { None = 0, Port = 1, Nhg = 2 };
    Kind kind = Kind::None;
    std::uint32_t value = 0;  // port number, or NHG index (not id) in the snapshot
};

// This switch's own LIDs: its base LID and LMC (as the subnet manager assigned them to port 0),
// LIDs base .. base + 2^lmc - 1. Subnet-management frames addressed to them go to the control
// thread. base 0: no LID yet.
struct SwitchLid {
    std::uint16_t base = 0;
    std::uint8_t lmc = 0;
    bool owns(std::uint32_t lid) const noexcept { return base != 0 && ((lid - base) >> lmc) == 0; }
};

// A route: its prefix and its NHG id.
struct RouteEntry {
    IpPrefix prefix;
    std::uint32_t nhg_id;
};

// At most this many routes travel in a snapshot for telemetry (DPDK telemetry's array limit).
inline constexpr std::size_t kRouteSample = 512;

// Tables shared between snapshots; owned through shared_ptr on the control side only (workers
// never touch the counts).
class Fib4Table;
class Fib6Table;
struct LidTables;

class FibSnapshot {
  public:
    FibSnapshot(std::uint64_t generation, std::shared_ptr<const Fib4Table> fib4,
                std::shared_ptr<const Fib6Table> fib6,
                std::shared_ptr<const std::vector<RouteEntry>> route_sample, std::size_t route_count,
                std::vector<NhgEntry> nhgs, std::vector<ResolvedMember> members,
                std::shared_ptr<const LidTables> lids,
                std::array<std::array<std::uint8_t, kNumSl>, kMaxPorts> sl2vl,
                std::shared_ptr<const ars::Config> ars = nullptr, SwitchLid switch_lid = {});
    ~FibSnapshot();
    FibSnapshot(const FibSnapshot &) = delete;
    FibSnapshot &operator=(const FibSnapshot &) = delete;

    std::uint64_t generation() const noexcept { return generation_; }

    // Longest-prefix match; each result is an NHG index or kNoRoute. `ips` in host order.
    void lookup4(std::uint32_t *ips, std::uint64_t *nhg_index, unsigned n) const noexcept;
    void lookup6(std::uint8_t (*ips)[16], std::uint64_t *nhg_index, unsigned n) const noexcept;

    const NhgEntry *nhg(std::uint32_t index) const noexcept {
        // A Drop group has no members (an unused index has none either, and mode Ecmp).
        return index < nhg_count_ && (nhgs_[index].member_count != 0 || nhgs_[index].mode == NhgMode::Drop)
                   ? &nhgs_[index]
                   : nullptr;
    }
    std::span<const ResolvedMember> members(const NhgEntry &e) const noexcept {
        return {members_.data() + e.first_member, e.member_count};
    }
    std::size_t nhg_slots() const noexcept { return nhgs_.size(); }

    // A pLID's entry (1..0xBFFF; anything else: none).
    LftTarget lft(std::uint32_t lid) const noexcept;
    // A unicast DLID's entry as the worker forwards by it: a pLID's from the LFT, a vLID's from
    // the secondary LFT (anything else: none). A pLID costs what lft() does.
    LftTarget unicast(std::uint32_t lid) const noexcept;
    // A vLID's, from the secondary LFT (kFirstVlid..kMaxVlid; anything else: none).
    LftTarget vlft(std::uint32_t lid) const noexcept {
        const std::uint32_t i = lid - kFirstVlid;  // a pLID wraps past the table's size
        if (i >= vlft_size_) return {};
        const std::uint32_t w = vlft_raw_[i];
        return {static_cast<LftTarget::Kind>(w >> 30), w & 0x3FFFFFFFu};
    }
    // One past the highest vLID the secondary LFT can hold (kFirstVlid: none).
    std::uint32_t vlft_end() const noexcept { return kFirstVlid + vlft_size_; }
    // Every set entry of both LFTs, pLIDs then vLIDs (for the control side: show, telemetry).
    struct LftEntry {
        std::uint32_t lid;
        LftTarget target;
    };
    std::vector<LftEntry> lft_entries() const;
    // The ports of a multicast LID (0xC000..0xFFFE); none when unset.
    const PortMask &mft(std::uint16_t mlid) const noexcept;
    std::uint8_t sl2vl(std::uint16_t port, std::uint8_t sl) const noexcept {
        return port < kMaxPorts ? sl2vl_[port][sl & 0x0F] : 0;
    }

    // Up to kRouteSample of the routes, in prefix order (all of them when there are no more); the
    // whole table is the builder's.
    const std::vector<RouteEntry> &route_sample() const noexcept { return *route_sample_; }
    std::size_t route_count() const noexcept { return route_count_; }
    const SwitchLid &switch_lid() const noexcept { return switch_lid_; }

    // The ARS configuration published with these tables (null: no ARS). An ARS-mode NHG selects
    // through it by its operator id (NhgEntry::id == ars::NhgId); ARS port ids are ethdev ports.
    // Workers adopt it when the pointer differs from the one they adopted last.
    const std::shared_ptr<const ars::Config> &ars() const noexcept { return ars_; }

  private:
    std::uint64_t generation_;
    std::shared_ptr<const Fib4Table> fib4_;
    std::shared_ptr<const Fib6Table> fib6_;
    std::shared_ptr<const std::vector<RouteEntry>> route_sample_;
    std::size_t route_count_;
    const Fib4Table *fib4_raw_;
    const Fib6Table *fib6_raw_;
    std::vector<NhgEntry> nhgs_;  // indexed by NHG index
    std::uint32_t nhg_count_;     // nhgs_.size(), without the division by sizeof(NhgEntry) per frame
    std::vector<ResolvedMember> members_;
    std::shared_ptr<const LidTables> lids_;
    const std::uint32_t *lft_raw_;
    const std::uint32_t *vlft_raw_;
    std::uint32_t vlft_size_;
    const PortMask *mft_raw_;
    std::array<std::array<std::uint8_t, kNumSl>, kMaxPorts> sl2vl_;
    std::shared_ptr<const ars::Config> ars_;
    SwitchLid switch_lid_;
};

}  // namespace weft::dataplane
