// The per-worker ARS engine: the hot-path selection for next-hop groups and LAGs.
//
// Each dataplane worker lcore owns one Worker. It reads the shared immutable Config snapshot and
// the shared PortBoard, and owns everything it writes: its macro-flow tables, its counters and
// its random generator. Selection never allocates, locks or makes a virtual call.
//
//   Worker w(board, lcore_index);
//   w.adopt(snapshot);                       // at start and whenever a new snapshot is seen
//   Egress e = w.select_nhg(nhg, hash, now);  // per packet, or select_nhg_burst for 32 at once
//
// Flow state is indexed by the stable NHG/LAG/ARS object ids, so adopt() keeps every bucket
// whose group, ARS object and table size are unchanged, and remaps member indices when the
// member list changed (buckets of removed members move on their next packet).
//
// A choice costs the same whatever the group's size: bands and link states change only when the
// sampler or the link watcher publishes (the PortBoard's generation moves), so each group's
// eligible members, its best members under the path rule and its random candidates are derived
// once per generation, by the worker itself the first time it selects for the group after the
// change. A choice then draws among them with the seeded generator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "weft/ars/acl_policy.hpp"
#include "weft/ars/config.hpp"
#include "weft/ars/counters.hpp"
#include "weft/ars/flowlet.hpp"
#include "weft/ars/macro_flow_table.hpp"
#include "weft/ars/member_set.hpp"
#include "weft/ars/monitor.hpp"
#include "weft/ars/port_board.hpp"
#include "weft/ars/rng.hpp"
#include "weft/ars/types.hpp"

namespace weft::ars {

// Result of one selection.
struct Egress {
    static constexpr PortId kDropPort = 0xFFFF;
    static constexpr std::uint16_t kNoMember = 0xFFFF;

    PortId port = kDropPort;           // the egress port (a LAG member already resolved)
    std::uint16_t member = kNoMember;  // index of the chosen member in the group's member list

    bool dropped() const { return port == kDropPort; }
};

// One packet of a burst.
struct SelectRequest {
    std::uint32_t flow_hash = 0;
    NhgId nhg = 0;
    AclVerdict verdict;
};

inline constexpr std::size_t kBurstSize = 32;

// The largest group the flowlet burst path takes (its members' liveness fits one 64-bit mask).
inline constexpr std::size_t kFlowletBurstMembers = 64;

class Worker {
  public:
    Worker(const PortBoard &board, std::uint32_t worker_index);

    // Switch to a new snapshot (slow path: allocates tables for new groups, remaps members).
    // The board must cover every port and LAG id the snapshot uses; a member's remote slot
    // beyond the board counts as no news.
    void adopt(std::shared_ptr<const Config> config);
    const Config *config() const { return config_.get(); }

    // Hot path. The id must be configured in the adopted snapshot.
    Egress select_nhg(NhgId nhg, std::uint32_t flow_hash, Ticks now, AclVerdict verdict = {});
    Egress select_lag(LagId lag, std::uint32_t flow_hash, Ticks now, AclVerdict verdict = {});
    // Up to any number of packets; bucket loads are prefetched kBurstSize at a time. A run of
    // kBurstSize packets for one group without ACL verdicts reads the group once.
    void select_nhg_burst(std::span<const SelectRequest> requests, Ticks now, std::span<Egress> out);

    // The common burst, for a caller that decides packet by packet (the switch's worker decides
    // and sends each packet in one pass): packets all for one group, no ACL verdict, the group's
    // own ARS object in a flowlet mode. begin_flowlet_burst() reads the group, its members'
    // liveness and best members once for the burst (the board changes once per sampling
    // interval; a burst is a few microseconds); select_in_burst() decides one
    // packet, inline when it continues its flowlet; end_flowlet_burst() counts the decisions
    // and must follow every successful begin before any other selection or adopt() on this
    // worker (the burst points into the adopted snapshot's per-group state). The
    // choices, counters and monitoring events are those of select_nhg_burst.
    //   FlowletBurst b;
    //   if (w.begin_flowlet_burst(nhg, now, b)) {
    //       for (...) w.prefetch_in_burst(b, hash);      // optional, ahead of the decisions
    //       for (...) egress = w.select_in_burst(b, hash);
    //       w.end_flowlet_burst(b);
    //   }
    class FlowletBurst;
    bool begin_flowlet_burst(NhgId nhg, Ticks now, FlowletBurst &b);
    // The inline step alone, as a small value the caller keeps in registers (FlowletStep), for a
    // caller that sends a continuing packet itself: FlowletStep::continue_flowlet() answers the
    // member when the packet continues its flowlet on one of the `direct` members (live port
    // members, narrowed to `usable`, e.g. the members the caller can send to at once), having
    // refreshed the bucket; otherwise kNoMember, and the packet goes through select_in_burst()
    // like any other (which decides it in full: a member outside `usable` is still kept while
    // its flowlet continues). The caller reports the packets it continued with
    // count_continued() before end_flowlet_burst().
    // FlowletStep::decide() also starts new flowlets where it can answer them in full: when every
    // live member is a `direct` one, the group's members all have different targets and nobody
    // watches its reassignments. It draws from the worker's generator and tallies moves into the
    // burst exactly as select_in_burst() would, so the two may be mixed packet by packet; the
    // packets it decides are reported with count_continued() too.
    class FlowletStep;
    FlowletStep flowlet_step(FlowletBurst &b, std::uint64_t usable);
    // The port a live port member of the burst's group sends on, or Egress::kDropPort.
    PortId burst_port(const FlowletBurst &b, std::uint16_t member) const;
    void count_continued(FlowletBurst &b, std::uint64_t packets) const;
    void prefetch_in_burst(const FlowletBurst &b, std::uint32_t flow_hash) const;
    // The size of the burst's flow table: a small one stays in the L1 cache, prefetching its
    // buckets would only cost instructions.
    std::size_t burst_table_bytes(const FlowletBurst &b) const;
    Egress select_in_burst(FlowletBurst &b, std::uint32_t flow_hash);
    void end_flowlet_burst(FlowletBurst &b);

    void set_monitor_hook(MonitorHook hook) { monitor_ = hook; }

    // Counters of this worker; safe to call from any thread at any time.
    CounterValues nhg_counters(NhgId nhg) const;
    CounterValues lag_counters(LagId lag) const;

    // Inspection (tests, demo): the flow table a group uses with an ARS object, or nullptr.
    const MacroFlowTable *nhg_table(NhgId nhg, ArsObjectId object) const;
    const MacroFlowTable *lag_table(LagId lag, ArsObjectId object) const;

  private:
    struct ObjectTable {
        ArsObjectId object = kNoArsObject;
        MacroFlowTable table;
    };

    // The members a choice draws among, ascending, so a draw r picks what the r-th set bit of
    // the old per-choice scan picked.
    struct Candidates {
        std::uint8_t count = 0;
        bool draw = false;  // consult the generator: several candidates, or a random mode (always)
        std::uint8_t member[64];

        std::uint16_t pick(Rng &rng) const {
            return count == 0 ? Egress::kNoMember : member[draw ? rng.below(count) : 0];
        }
    };

    // What selection reads from the board for one group, derived from it once per board
    // generation (refresh()). Member indices fit a byte: at most 64 + 64 members.
    struct GroupView {
        static constexpr std::uint64_t kStale = ~std::uint64_t{0};  // no board generation is this
        std::uint64_t generation = kStale;
        MemberSet live;                   // eligible: usable and up (a LAG: one of its ports)
        std::uint64_t role_live[2] = {};  // the same per role, bit i = the role's member i
        // The best band's members of the role the path rule picks (ties broken by a draw).
        Candidates quality;
        // The live primaries, or the live alternates when no primary is live.
        Candidates random;

        const Candidates &candidates(Mode mode) const {
            return mode == Mode::kFlowletQuality || mode == Mode::kPerPacketQuality ? quality : random;
        }
    };

    struct GroupState {
        std::vector<ObjectTable> tables;        // own ARS object first, then ACL overrides
        std::vector<std::uint32_t> member_ids;  // as of the last adopt, to remap buckets
        std::unique_ptr<GroupView> view;        // present groups only
        std::vector<Egress> egress;             // per member: its port, for a port member
    };
    // Everything one selection needs, resolved before the bucket is touched (burst prefetch).
    struct Resolved {
        const SelectionGroup *group;  // nullptr: id not in the snapshot, drop
        SelectionCounters *counters;
        const ArsObjectRuntime *object;  // nullptr: static hash
        const GroupView *view;           // current for this selection
        std::uint16_t size;              // the group's member count
        bool every_move_changes_target;  // HotGroup's
        ArsObjectId object_id;
        MacroFlowTable::Bucket *bucket;  // flowlet modes only
        std::uint32_t bucket_index;
        bool is_lag;
        std::uint32_t group_id;
        bool monitored;
    };

    // Per group id, everything the common case (no ACL verdict) needs, precomputed by adopt()
    // so the hot path does one load instead of walking the snapshot.
    struct HotGroup {
        const SelectionGroup *group = nullptr;  // nullptr: id not in the snapshot
        SelectionCounters *counters = nullptr;
        const ArsObjectRuntime *object = nullptr;  // the group's own ARS object, if any
        MacroFlowTable *table = nullptr;           // its flow table
        GroupView *view = nullptr;
        const Egress *egress = nullptr;  // GroupState::egress
        MemberMask ports;                // members that are ports (of the first 64)
        std::uint16_t size = 0;
        // A LAG, or a group whose members all have different targets: a flow moved to another
        // member moved to another port or LAG (SAI counts those apart).
        bool every_move_changes_target = false;
        ArsObjectId object_id = kNoArsObject;
    };

    static constexpr std::uint16_t kRemovedMember = 0xFFFE;

    const GroupView &fresh(const HotGroup &h);
    void refresh(const SelectionGroup &g, GroupView &v, std::uint64_t generation) const;
    void resolve(bool is_lag, std::uint32_t id, std::uint32_t flow_hash, AclVerdict verdict, Resolved &r);
    void resolve_hot(const HotGroup &h, bool is_lag, std::uint32_t id, Resolved &r);
    bool select_one_group_burst(std::span<const SelectRequest> requests, Ticks now, std::span<Egress> out);
    void flowlet_burst(FlowletBurst &b, std::span<const SelectRequest> requests, std::span<Egress> out);
    bool lean_flowlet_burst(FlowletBurst &b, std::span<const SelectRequest> requests, std::span<Egress> out);
    void per_packet_burst(const HotGroup &h, NhgId id, std::span<const SelectRequest> requests, Ticks now,
                          std::span<Egress> out);
    Egress select_in_burst_slow(FlowletBurst &b, std::uint32_t flow_hash, std::uint32_t index);
    Egress decide(const Resolved &r, std::uint32_t flow_hash, Ticks now);
    // `rng` is the worker's generator or a burst's copy of it (kept in a register).
    template <class Members>
    std::uint16_t flowlet(const Resolved &r, MacroFlowTable::Bucket *bucket, std::uint32_t index,
                          const Members &eligible, const FlowletClock &clock, Ticks now, Reassignments &moved,
                          Rng &rng);
    std::uint16_t new_flowlet(const Resolved &r, MacroFlowTable::Bucket *bucket, std::uint32_t index,
                              std::uint16_t old, Ticks now, Reassignments &moved, Rng &rng);
    void report_move(const Resolved &r, std::uint32_t index, std::uint16_t old, std::uint16_t chosen,
                     Ticks now);
    Egress to_egress(const Resolved &r, std::uint16_t member, std::uint32_t flow_hash, Ticks now, Rng &rng);
    Egress via_lag(const Resolved &r, std::uint16_t member, std::uint32_t flow_hash, Ticks now);
    void build_hot(std::vector<HotGroup> &hot, const std::vector<SelectionGroup> &groups,
                   std::vector<GroupState> &states, SelectionCounters *counters);

    bool member_live(const GroupMember &m) const;
    bool lag_live(LagId lag) const;
    QualityBand member_quality(const GroupMember &m) const;
    static std::uint16_t choose_static(const SelectionGroup &g, const GroupView &v, std::uint32_t flow_hash);

    void sync_group(GroupState &state, const SelectionGroup &group);

    const PortBoard &board_;
    std::uint32_t worker_index_;
    std::shared_ptr<const Config> config_;
    Rng rng_;
    std::uint32_t seed_ = 0;
    bool seeded_ = false;
    MonitorHook monitor_;

    std::vector<GroupState> nhg_state_;
    std::vector<GroupState> lag_state_;
    std::vector<HotGroup> hot_nhgs_;
    std::vector<HotGroup> hot_lags_;
    // Fixed capacity, allocated once, so readers on other threads never see them move.
    std::unique_ptr<SelectionCounters[]> nhg_counters_;
    std::unique_ptr<SelectionCounters[]> lag_counters_;
};

// One flowlet burst's state, read once by begin_flowlet_burst() (engine-internal fields).
class Worker::FlowletBurst {
    friend class Worker;
    MacroFlowTable::Bucket *buckets_ = nullptr;
    std::uint32_t mask_ = 0;
    Ticks now_ = 0;
    FlowletClock clock_{0, 0};
    // Members that are live and a port: a packet continuing its flowlet on one of them is
    // answered from egress_ without looking at the group.
    MemberMask direct_;
    MemberMask live_;
    std::uint64_t decided_ = 0;
    Reassignments moved_;
    const Egress *egress_ = nullptr;
    Resolved r_{};
};

class Worker::FlowletStep {
  public:
    // The member the packet continues its flowlet on, or kNoMember.
    std::uint16_t continue_flowlet(std::uint32_t flow_hash) const {
        MacroFlowTable::Bucket *bucket = buckets_ + MacroFlowTable::index_in(flow_hash, mask_);
        const MacroFlowTable::Bucket current = *bucket;
        if (!flowlet_continues(current, direct_, clock_)) return Egress::kNoMember;
        *bucket = clock_.touch(current.member());
        return current.member();
    }

    // The member the packet continues on or starts a new flowlet on (always a `direct` one), or
    // kNoMember when select_in_burst() must decide it.
    std::uint16_t decide(std::uint32_t flow_hash) const {
        MacroFlowTable::Bucket *bucket = buckets_ + MacroFlowTable::index_in(flow_hash, mask_);
        const MacroFlowTable::Bucket current = *bucket;
        if (flowlet_continues(current, direct_, clock_)) {
            *bucket = clock_.touch(current.member());
            return current.member();
        }
        return can_start_ ? start(bucket, current.member()) : Egress::kNoMember;
    }

  private:
    friend class Worker;
    // new_flowlet() for a group whose live members are all direct, with distinct targets and
    // no monitoring: every move changes the target, and no report is due.
    std::uint16_t start(MacroFlowTable::Bucket *bucket, std::uint16_t old) const {
        const std::uint16_t chosen = candidates_->pick(*rng_);
        if (chosen == Egress::kNoMember) return chosen;
        *bucket = clock_.touch(chosen);
        const bool move = old != chosen && old != MacroFlowTable::kEmpty;
        const bool old_down = old < size_ && ((live_ >> old) & 1) == 0;
        moved_->next_hop += static_cast<std::uint64_t>(move);
        moved_->port += static_cast<std::uint64_t>(move);
        moved_->link_down += static_cast<std::uint64_t>(move && old_down);
        return chosen;
    }

    MacroFlowTable::Bucket *buckets_ = nullptr;
    MemberMask direct_;
    FlowletClock clock_{0, 0};
    std::uint32_t mask_ = 0;
    bool can_start_ = false;
    std::uint16_t size_ = 0;
    std::uint64_t live_ = 0;
    const Candidates *candidates_ = nullptr;
    Rng *rng_ = nullptr;
    Reassignments *moved_ = nullptr;
};

inline Worker::FlowletStep Worker::flowlet_step(FlowletBurst &b, std::uint64_t usable) {
    FlowletStep s;
    s.buckets_ = b.buckets_;
    s.direct_ = MemberMask{{b.direct_.word[0] & usable}};
    s.clock_ = b.clock_;
    s.mask_ = b.mask_;
    s.can_start_ = (b.live_.word[0] & ~s.direct_.word[0]) == 0 && b.r_.every_move_changes_target &&
                   !(b.r_.monitored && monitor_);
    s.size_ = b.r_.size;
    s.live_ = b.live_.word[0];
    s.candidates_ = &b.r_.view->candidates(b.r_.object->mode);
    s.rng_ = &rng_;
    s.moved_ = &b.moved_;
    return s;
}

inline PortId Worker::burst_port(const FlowletBurst &b, std::uint16_t member) const {
    return b.direct_.contains(member) ? b.egress_[member].port : Egress::kDropPort;
}

inline void Worker::count_continued(FlowletBurst &b, std::uint64_t packets) const {
    b.decided_ += packets;
}

inline void Worker::prefetch_in_burst(const FlowletBurst &b, std::uint32_t flow_hash) const {
#if defined(__GNUC__)
    __builtin_prefetch(b.buckets_ + MacroFlowTable::index_in(flow_hash, b.mask_), 1, 3);
#else
    (void)b;
    (void)flow_hash;
#endif
}

inline std::size_t Worker::burst_table_bytes(const FlowletBurst &b) const {
    return (std::size_t{b.mask_} + 1) * sizeof(MacroFlowTable::Bucket);
}

inline Egress Worker::select_in_burst(FlowletBurst &b, std::uint32_t flow_hash) {
    ++b.decided_;
    const std::uint32_t index = MacroFlowTable::index_in(flow_hash, b.mask_);
    MacroFlowTable::Bucket *bucket = b.buckets_ + index;
    const MacroFlowTable::Bucket current = *bucket;
    if (flowlet_continues(current, b.direct_, b.clock_)) {
        *bucket = b.clock_.touch(current.member());
        return b.egress_[current.member()];
    }
    return select_in_burst_slow(b, flow_hash, index);
}

// Counters of one group summed over workers (the value SAI's read-only attributes report).
CounterValues sum_nhg_counters(std::span<const Worker *const> workers, NhgId nhg);
CounterValues sum_lag_counters(std::span<const Worker *const> workers, LagId lag);

}  // namespace weft::ars
