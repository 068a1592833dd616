// NHG member selection: which member of a next-hop group carries a flow now. Hash ECMP for
// NhgMode::Ecmp groups; the SAI ARS engine, through ArsSelector, for NhgMode::Ars groups. A
// worker owns one selector (ARS keeps per-worker macro-flow tables, so it holds state).
#pragma once

#include <cstdint>
#include <span>

#include "weft/ars/acl_policy.hpp"
#include "weft/ars/port_board.hpp"
#include "weft/ars/worker.hpp"
#include "weft/dataplane/drop_reason.hpp"
#include "weft/dataplane/fib_snapshot.hpp"
#include "weft/dataplane/link_state.hpp"

namespace weft::dataplane {

struct MemberChoice {
    const ResolvedMember *member = nullptr;  // null: drop for `reason`
    DropReason reason = DropReason::None;
};

// What a selection may depend on: the group and its members in the current snapshot, the flow
// hash, the time (TSC ticks, for flowlet gaps and quality sampling) and which ports are usable.
struct SelectionRequest {
    std::uint32_t nhg_index;
    const NhgEntry *nhg;
    std::uint32_t flow_hash;
    std::uint64_t now_tsc;
    bool need_mac;              // IP forwarding needs a resolved neighbour MAC; IBoE LFT groups do not
    ars::AclVerdict verdict{};  // the ACL stage's decision for this packet (ARS groups only)
};

// Hash ECMP's member for a flow hash among `count` members: the hash scaled onto [0, count),
// without the bias and the division of a modulo.
inline unsigned ecmp_member(std::uint32_t hash, unsigned count) noexcept {
    return static_cast<unsigned>((static_cast<std::uint64_t>(hash) * count) >> 32);
}

// Hash ECMP with minimal disruption: a flow keeps its member while that member is usable; flows
// of an unusable member are spread over the usable ones.
class EcmpSelector {
  public:
    explicit EcmpSelector(const LinkState &links) noexcept : links_(&links) {}
    MemberChoice select(const FibSnapshot &fib, const SelectionRequest &req) noexcept;

  private:
    const LinkState *links_;
};

// NHGs in NhgMode::Ars go through the worker's own ars::Worker (its macro-flow tables, counters
// and generator), every other NHG through EcmpSelector. The ARS configuration travels inside
// the FIB snapshot; sync() adopts a new one once per loop iteration, off the per-packet path.
//
// Id mapping: an ARS NHG id is the operator's NHG id (NhgEntry::id), an ARS port id is the
// ethdev port id. The ARS engine returns a port; the dataplane member with that port supplies
// the neighbour MAC. A group the ARS snapshot does not know, or a choice the dataplane cannot
// send on (unresolved neighbour), falls back to hash ECMP.
class ArsSelector {
  public:
    ArsSelector(const LinkState &links, const ars::PortBoard &board, unsigned worker_index);
    ArsSelector(const ArsSelector &) = delete;  // the ARS engine's hook points at this selector
    ArsSelector &operator=(const ArsSelector &) = delete;

    // Once per loop iteration, with the snapshot of that iteration.
    void sync(const FibSnapshot &fib);
    // `reassigned` (capture only; null otherwise): set when a monitored ARS group moved this
    // flow to another member with this packet.
    MemberChoice select(const FibSnapshot &fib, const SelectionRequest &req,
                        bool *reassigned = nullptr) noexcept;

    // Whether `nhg` (of the snapshot last given to sync()) selects through ARS with the adopted
    // configuration, which is that snapshot's.
    bool is_ars(const NhgEntry &nhg) const noexcept { return nhg.ars_selectable && adopted_ != nullptr; }
    // The ACL policy of the adopted configuration, or null when there is none (or no rules).
    const ars::AclPolicy *acl() const noexcept {
        return adopted_ != nullptr && !adopted_->acl().empty() ? &adopted_->acl() : nullptr;
    }
    // The worker's burst form: requests already in the engine's shape, all for is_ars() groups of
    // the adopted configuration, no capture. Then member_for() maps each answer to its member.
    void select_ars_requests(std::span<const ars::SelectRequest> reqs, std::uint64_t now_tsc,
                             std::span<ars::Egress> out) noexcept {
        ars_.select_nhg_burst(reqs, now_tsc, out);
    }
    // The dataplane member for the engine's answer `e` for a packet of group `nhg` (index
    // `nhg_index`): the dataplane members of an ARS group are built in ARS member order, so the
    // index usually names the member directly. Anything else (a LAG member, which resolves to
    // one of its ports; a member that cannot send) takes the out-of-line path.
    [[gnu::always_inline]] MemberChoice member_for(const FibSnapshot &fib, std::uint32_t nhg_index,
                                                   const NhgEntry &nhg, std::uint32_t flow_hash,
                                                   std::uint64_t now_tsc, ars::Egress e) noexcept {
        if (e.member < nhg.member_count) {
            const ResolvedMember &m = fib.members(nhg)[e.member];
            if (m.port == e.port && m.resolved && links_->usable(e.port)) return {&m, DropReason::None};
        }
        return member_for_slow(fib, SelectionRequest{nhg_index, &nhg, flow_hash, now_tsc, true}, e);
    }

    const ars::Worker &engine() const noexcept { return ars_; }
    // The worker's flowlet bursts (ars::Worker::begin_flowlet_burst) go to the engine directly.
    ars::Worker &engine() noexcept { return ars_; }
    // Monitoring events go to `hook`; the selector sees them first (for select()'s `reassigned`).
    void set_monitor_hook(ars::MonitorHook hook) noexcept;

  private:
    MemberChoice map_egress(const FibSnapshot &fib, const SelectionRequest &req, ars::Egress e) noexcept;
    [[gnu::noinline]] MemberChoice member_for_slow(const FibSnapshot &fib, const SelectionRequest &req,
                                                   ars::Egress e) noexcept;
    static void on_reassign(void *self, const ars::ReassignEvent &e);

    EcmpSelector ecmp_;
    const LinkState *links_;
    ars::Worker ars_;
    const ars::Config *adopted_ = nullptr;
    ars::MonitorHook user_hook_;
    bool *reassigned_ = nullptr;  // the packet being selected, while capturing
};

}  // namespace weft::dataplane
