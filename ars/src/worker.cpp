#include "weft/ars/worker.hpp"

#include <algorithm>
#include <bit>
#include <unordered_map>
#include <utility>

#include "weft/ars/capabilities.hpp"

namespace weft::ars {

namespace {

constexpr std::uint16_t kNone = Egress::kNoMember;

// A bucket's member changed from `old` to `chosen` (counted unless it was empty or is the same):
// tallied without a branch, since under churn whether a new flowlet moves is a coin toss.
inline bool tally_move(Reassignments &moved, std::uint16_t old, std::uint16_t chosen, bool old_down,
                       bool is_lag, bool other_target) {
    const bool move = old != chosen && old != MacroFlowTable::kEmpty;
    moved.next_hop += static_cast<std::uint64_t>(move && !is_lag);
    moved.port += static_cast<std::uint64_t>(move && other_target);
    moved.link_down += static_cast<std::uint64_t>(move && old_down);
    return move;
}

bool distinct_targets(const SelectionGroup &g) {
    for (std::size_t i = 0; i < g.members.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (g.members[i].target == g.members[j].target) return false;
    return true;
}

// A LAG inside a next-hop group hashes on a remixed value, so its port choice is not correlated
// with the group's member choice (no polarisation).
inline std::uint32_t remix(std::uint32_t h) {
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return h;
}

// The per-packet steps are small and called once per packet: have them inlined into the burst
// loop. The rare paths (deriving a group's view, LAG nesting, monitoring) stay out of line.
#if defined(__GNUC__)
#define WEFT_ARS_HOT [[gnu::always_inline]] inline
#define WEFT_ARS_COLD [[gnu::noinline]]
#else
#define WEFT_ARS_HOT inline
#define WEFT_ARS_COLD
#endif

// The flowlet burst's bucket prefetch: how far ahead, and from which table size on.
constexpr std::size_t kLookAhead = 16;
constexpr std::size_t kL1TableBytes = 16 * 1024;

constexpr bool is_flowlet(Mode mode) {
    return mode == Mode::kFlowletQuality || mode == Mode::kFlowletRandom;
}

inline void prefetch(const void *p) {
#if defined(__GNUC__)
    __builtin_prefetch(p, 1, 3);
#else
    (void)p;
#endif
}

}  // namespace

Worker::Worker(const PortBoard &board, std::uint32_t worker_index)
    : board_(board),
      worker_index_(worker_index),
      rng_(0, worker_index),
      nhg_counters_(new SelectionCounters[capabilities().max_ecmp_groups]),
      lag_counters_(new SelectionCounters[capabilities().max_lag_groups]) {}

// ---------------------------------------------------------------------------------------------
// Snapshot adoption (slow path).

void Worker::sync_group(GroupState &state, const SelectionGroup &group) {
    // Which ARS objects this group may run under: its own, and every ACL override target.
    std::vector<ArsObjectId> wanted;
    if (group.ars_object != kNoArsObject) wanted.push_back(group.ars_object);
    for (ArsObjectId o : config_->acl_override_objects())
        if (o != group.ars_object) wanted.push_back(o);

    std::vector<ObjectTable> tables;
    tables.reserve(wanted.size());
    for (ArsObjectId o : wanted) {
        const std::uint32_t size = config_->ars_objects()[o].max_flows;
        auto old = std::find_if(state.tables.begin(), state.tables.end(), [&](const ObjectTable &t) {
            return t.object == o && t.table.size() == size;
        });
        if (old != state.tables.end()) {
            tables.push_back(std::move(*old));
        } else {
            tables.push_back({o, MacroFlowTable(size)});
        }
    }
    state.tables = std::move(tables);

    // Member indices move when the member list changes: translate every bucket by member id.
    std::vector<std::uint32_t> ids;
    for (const GroupMember &m : group.members) ids.push_back(m.member_id);
    if (ids != state.member_ids && !state.member_ids.empty()) {
        std::unordered_map<std::uint32_t, std::uint16_t> now_at;
        for (std::size_t i = 0; i < ids.size(); ++i) now_at[ids[i]] = static_cast<std::uint16_t>(i);
        std::vector<std::uint16_t> translate(state.member_ids.size(), kRemovedMember);
        for (std::size_t i = 0; i < state.member_ids.size(); ++i) {
            auto it = now_at.find(state.member_ids[i]);
            if (it != now_at.end()) translate[i] = it->second;
        }
        for (ObjectTable &t : state.tables) {
            for (std::uint32_t b = 0; b < t.table.size(); ++b) {
                MacroFlowTable::Bucket *bucket = t.table.bucket(b);
                const std::uint16_t m = bucket->member();
                if (m == MacroFlowTable::kEmpty) continue;
                const std::uint16_t to = m < translate.size() ? translate[m] : kRemovedMember;
                *bucket = MacroFlowTable::Bucket::make(to, bucket->last_seen());
            }
        }
    }
    state.member_ids = std::move(ids);
}

void Worker::adopt(std::shared_ptr<const Config> config) {
    config_ = std::move(config);
    const std::uint32_t seed = config_->profile().random_seed;
    if (!seeded_ || seed != seed_) {
        rng_ = Rng(seed, worker_index_);
        seed_ = seed;
        seeded_ = true;
    }
    auto sync_all = [&](std::vector<GroupState> &states, const std::vector<SelectionGroup> &groups,
                        SelectionCounters *counters) {
        // Groups that vanished lose their state and counters.
        for (std::size_t id = 0; id < states.size(); ++id) {
            if (id >= groups.size() || !groups[id].present) {
                if (!states[id].member_ids.empty() || !states[id].tables.empty()) counters[id].reset();
                states[id] = GroupState{};
            }
        }
        states.resize(groups.size());
        for (std::size_t id = 0; id < groups.size(); ++id) {
            if (groups[id].present) sync_group(states[id], groups[id]);
        }
    };
    sync_all(lag_state_, config_->lags(), lag_counters_.get());
    sync_all(nhg_state_, config_->nhgs(), nhg_counters_.get());
    build_hot(hot_lags_, config_->lags(), lag_state_, lag_counters_.get());
    build_hot(hot_nhgs_, config_->nhgs(), nhg_state_, nhg_counters_.get());
}

void Worker::build_hot(std::vector<HotGroup> &hot, const std::vector<SelectionGroup> &groups,
                       std::vector<GroupState> &states, SelectionCounters *counters) {
    hot.assign(groups.size(), HotGroup{});
    for (std::size_t id = 0; id < groups.size(); ++id) {
        const SelectionGroup &g = groups[id];
        if (!g.present) continue;
        GroupState &state = states[id];
        // The members' usability may have changed with the snapshot: derive the view anew.
        state.view = std::make_unique<GroupView>();
        state.egress.assign(g.size(), Egress{});
        HotGroup &h = hot[id];
        for (std::uint16_t m = 0; m < g.size(); ++m) {
            const EgressTarget target = g.members[m].target;
            if (target.kind != EgressTarget::Kind::kPort) continue;
            state.egress[m] = Egress{target.id, m};
            if (m < kFlowletBurstMembers) h.ports.insert(m);
        }
        h.group = &g;
        h.size = g.size();
        h.every_move_changes_target = &groups == &config_->lags() || distinct_targets(g);
        h.counters = &counters[id];
        h.view = state.view.get();
        h.egress = state.egress.data();
        h.object_id = g.ars_object;
        if (g.ars_object == kNoArsObject) continue;
        h.object = &config_->ars_objects()[g.ars_object];
        for (ObjectTable &t : state.tables)
            if (t.object == g.ars_object) h.table = &t.table;
    }
}

// ---------------------------------------------------------------------------------------------
// Member state, read from the shared board once per board generation.

bool Worker::lag_live(LagId lag) const {
    for (const GroupMember &p : config_->lags()[lag].members)
        if (p.usable && board_.link_up(p.target.id)) return true;
    return false;
}

WEFT_ARS_HOT bool Worker::member_live(const GroupMember &m) const {
    if (!m.usable) return false;
    return m.target.kind == EgressTarget::Kind::kPort ? board_.link_up(m.target.id) : lag_live(m.target.id);
}

WEFT_ARS_HOT QualityBand Worker::member_quality(const GroupMember &m) const {
    const QualityBand local = m.target.kind == EgressTarget::Kind::kPort ? board_.port_quality(m.target.id)
                                                                         : board_.lag_quality(m.target.id);
    // ARN's news of the path beyond the port: the member counts with the lower of the two bands.
    // A slot the board does not have counts as no news.
    if (m.remote_slot >= board_.remote_slot_count()) return local;
    return std::min(local, board_.remote_quality(m.remote_slot));
}

WEFT_ARS_HOT const Worker::GroupView &Worker::fresh(const HotGroup &h) {
    // The generation is read before the board's bytes (refresh), so a view is never older than
    // the generation it is kept with.
    const std::uint64_t generation = board_.generation();
    if (h.view->generation != generation) refresh(*h.group, *h.view, generation);
    return *h.view;
}

// Once per board generation per group: the scan every choice used to make. Built in locals and
// stored at the end (the view's byte lists would otherwise alias every load of the loop).
WEFT_ARS_COLD void Worker::refresh(const SelectionGroup &g, GroupView &v, std::uint64_t generation) const {
    MemberSet live;
    std::uint64_t role_live[2] = {0, 0};
    // Best band and the members holding it, per role (bit i: the role's member i).
    int band[2] = {-1, -1};
    std::uint64_t best[2] = {0, 0};
    const GroupMember *const members = g.members.data();
    const std::uint16_t size = g.size();
    const std::uint16_t primaries = g.primary_count;
    for (std::uint16_t m = 0; m < size; ++m) {
        const int role = m < primaries ? 0 : 1;
        const std::uint64_t bit = std::uint64_t{1} << (role == 0 ? m : m - primaries);
        if (!member_live(members[m])) continue;
        live.insert(m);
        role_live[role] |= bit;
        // Without branches: the bands are as good as random to a branch predictor.
        const int q = member_quality(members[m]);
        const int b = band[role];
        best[role] = q > b ? bit : q == b ? best[role] | bit : best[role];
        band[role] = q > b ? q : b;
    }
    v.generation = generation;
    v.live = live;
    v.role_live[0] = role_live[0];
    v.role_live[1] = role_live[1];

    // The members of a role's mask as member indices, ascending.
    auto list = [&](int role, std::uint64_t mask, std::uint8_t *out) {
        const unsigned base = role == 0 ? 0u : g.primary_count;
        std::uint8_t n = 0;
        for (; mask != 0; mask &= mask - 1)
            out[n++] = static_cast<std::uint8_t>(base + static_cast<unsigned>(std::countr_zero(mask)));
        return n;
    };
    const PathChoice choice =
        choose_path(band[0] >= 0, static_cast<QualityBand>(band[0] < 0 ? 0 : band[0]), band[1] >= 0,
                    static_cast<QualityBand>(band[1] < 0 ? 0 : band[1]), g.path_selection);
    v.quality = Candidates{};
    if (choice != PathChoice::kNone) {
        const int role = choice == PathChoice::kPrimary ? 0 : 1;
        v.quality.count = list(role, best[role], v.quality.member);
    }
    v.quality.draw = v.quality.count > 1;  // no draw when there is no tie
    const int random_role = role_live[0] != 0 ? 0 : 1;
    v.random.count = list(random_role, role_live[random_role], v.random.member);
    v.random.draw = true;
}

// Hash to a primary; a dead one passes to the next live one (cyclically), so only its flows move.
WEFT_ARS_HOT std::uint16_t Worker::choose_static(const SelectionGroup &g, const GroupView &v,
                                                 std::uint32_t flow_hash) {
    auto probe = [&](std::uint16_t begin, std::uint16_t count, std::uint64_t live) -> std::uint16_t {
        if (live == 0) return kNone;
        const auto i = static_cast<unsigned>((std::uint64_t{flow_hash} * count) >> 32);  // i < count <= 64
        const std::uint64_t from_i = live >> i;
        const unsigned at = from_i != 0 ? i + static_cast<unsigned>(std::countr_zero(from_i))
                                        : static_cast<unsigned>(std::countr_zero(live));
        return static_cast<std::uint16_t>(begin + at);
    };
    const std::uint16_t m = probe(0, g.primary_count, v.role_live[0]);
    return m != kNone ? m : probe(g.primary_count, g.alternate_count, v.role_live[1]);
}

// ---------------------------------------------------------------------------------------------
// The hot path.

WEFT_ARS_HOT void Worker::resolve_hot(const HotGroup &h, bool is_lag, std::uint32_t id, Resolved &r) {
    r.group = h.group;
    r.counters = h.counters;
    r.view = &fresh(h);
    r.size = h.size;
    r.every_move_changes_target = h.every_move_changes_target;
    r.object_id = h.object_id;
    r.object = h.object;
    r.bucket = nullptr;
    r.monitored = h.object != nullptr && h.object->monitoring;
    r.is_lag = is_lag;
    r.group_id = id;
}

WEFT_ARS_HOT void Worker::resolve(bool is_lag, std::uint32_t id, std::uint32_t flow_hash, AclVerdict verdict,
                                  Resolved &r) {
    // Filled in place: building a copy and moving it stalls on store forwarding.
    // An id missing from the snapshot (a route racing a group removal) drops the packet.
    const std::vector<HotGroup> &hot = is_lag ? hot_lags_ : hot_nhgs_;
    if (id >= hot.size() || hot[id].group == nullptr) {
        r.group = nullptr;
        return;
    }
    const HotGroup &h = hot[id];
    resolve_hot(h, is_lag, id, r);
    if (verdict.flags == 0) {
        // The common case: the group's own ARS object, everything precomputed.
        if (h.table != nullptr && is_flowlet(h.object->mode)) {
            r.bucket_index = h.table->index_of(flow_hash);
            r.bucket = h.table->bucket(r.bucket_index);
        }
        return;
    }
    r.object = nullptr;
    r.monitored = false;
    r.object_id = verdict.overrides_ars() ? verdict.ars_object : r.group->ars_object;
    const auto &objects = config_->ars_objects();
    if (verdict.disables_ars() || r.object_id >= objects.size() || !objects[r.object_id].present) return;

    r.object = &objects[r.object_id];
    r.monitored = (r.object->monitoring || (verdict.flags & AclVerdict::kMonitorOn) != 0) &&
                  (verdict.flags & AclVerdict::kMonitorOff) == 0;
    if (is_flowlet(r.object->mode)) {
        // adopt() made one table per reachable object, the group's own first.
        for (ObjectTable &t : (is_lag ? lag_state_[id] : nhg_state_[id]).tables) {
            if (t.object != r.object_id) continue;
            r.bucket_index = t.table.index_of(flow_hash);
            r.bucket = t.table.bucket(r.bucket_index);
            return;
        }
        r.object = nullptr;  // no table for this object in this snapshot: static hash
    }
}

template <class Members>
WEFT_ARS_HOT std::uint16_t Worker::flowlet(const Resolved &r, MacroFlowTable::Bucket *bucket,
                                           std::uint32_t index, const Members &eligible,
                                           const FlowletClock &clock, Ticks now, Reassignments &moved,
                                           Rng &rng) {
    const MacroFlowTable::Bucket current = *bucket;
    if (flowlet_continues(current, eligible, clock)) {
        *bucket = clock.touch(current.member());
        return current.member();
    }
    return new_flowlet(r, bucket, index, current.member(), now, moved, rng);
}

// A flowlet starts: choose, tally a move, and report it when monitored.
WEFT_ARS_HOT std::uint16_t Worker::new_flowlet(const Resolved &r, MacroFlowTable::Bucket *bucket,
                                               std::uint32_t index, std::uint16_t old, Ticks now,
                                               Reassignments &moved, Rng &rng) {
    const std::uint16_t chosen = r.view->candidates(r.object->mode).pick(rng);
    if (chosen == kNone) return kNone;  // bucket kept: the flow returns to its member if it comes back
    *bucket = MacroFlowTable::Bucket::make(chosen, now);

    const bool old_known = old < r.size;
    const bool move = tally_move(moved, old, chosen, old_known && !r.view->live.contains(old), r.is_lag,
                                 r.every_move_changes_target || !old_known ||
                                     r.group->members[old].target != r.group->members[chosen].target);
    if (r.monitored && move && monitor_) report_move(r, index, old, chosen, now);
    return chosen;
}

WEFT_ARS_COLD void Worker::report_move(const Resolved &r, std::uint32_t index, std::uint16_t old,
                                       std::uint16_t chosen, Ticks now) {
    const SelectionGroup &g = *r.group;
    const bool old_known = old < g.size();
    ReassignEvent e;
    e.is_lag = r.is_lag;
    e.group_id = r.group_id;
    e.ars_object = r.object_id;
    e.bucket = index;
    e.old_member_id = old_known ? g.members[old].member_id : 0;
    e.new_member_id = g.members[chosen].member_id;
    e.old_target = old_known ? g.members[old].target : EgressTarget{};
    e.new_target = g.members[chosen].target;
    e.reason = old == kRemovedMember                      ? ReassignReason::kMemberRemoved
               : old_known && !r.view->live.contains(old) ? ReassignReason::kLinkDown
                                                          : ReassignReason::kFlowletExpired;
    e.now = now;
    monitor_(e);
}

WEFT_ARS_HOT Egress Worker::to_egress(const Resolved &r, std::uint16_t member, std::uint32_t flow_hash,
                                      Ticks now, Rng &rng) {
    if (member == kNone) {
        r.counters->count_drop();
        return {};
    }
    const EgressTarget target = r.group->members[member].target;
    if (target.kind == EgressTarget::Kind::kPort) return {target.id, member};
    // The LAG decides with the worker's generator: hand it over and take it back.
    rng_ = rng;
    const Egress e = via_lag(r, member, flow_hash, now);
    rng = rng_;
    return e;
}

WEFT_ARS_COLD Egress Worker::via_lag(const Resolved &r, std::uint16_t member, std::uint32_t flow_hash,
                                     Ticks now) {
    // A LAG member: the LAG picks its port with its own ARS object (monitoring carried over).
    const EgressTarget target = r.group->members[member].target;
    AclVerdict inner;
    if (r.monitored) inner.flags = AclVerdict::kMonitorOn;
    Resolved lag;
    resolve(true, target.id, remix(flow_hash), inner, lag);
    const Egress e = decide(lag, remix(flow_hash), now);
    return e.dropped() ? e : Egress{e.port, member};
}

WEFT_ARS_HOT Egress Worker::decide(const Resolved &r, std::uint32_t flow_hash, Ticks now) {
    if (r.group == nullptr) return {};
    if (r.object == nullptr) {
        r.counters->count_static_hash();
        return to_egress(r, choose_static(*r.group, *r.view, flow_hash), flow_hash, now, rng_);
    }
    r.counters->count_decision(r.object->mode);
    std::uint16_t member = kNone;
    switch (r.object->mode) {
        case Mode::kFlowletQuality:
        case Mode::kFlowletRandom: {
            Reassignments moved;
            member = flowlet(r, r.bucket, r.bucket_index, r.view->live,
                             FlowletClock(now, r.object->idle_ticks), now, moved, rng_);
            r.counters->count_reassignments(moved);
            break;
        }
        case Mode::kPerPacketQuality:
        case Mode::kPerPacketRandom:
            member = r.view->candidates(r.object->mode).pick(rng_);
            break;
        case Mode::kFixed:
            member = choose_static(*r.group, *r.view, flow_hash);
            break;
    }
    return to_egress(r, member, flow_hash, now, rng_);
}

Egress Worker::select_nhg(NhgId nhg, std::uint32_t flow_hash, Ticks now, AclVerdict verdict) {
    Resolved r;
    resolve(false, nhg, flow_hash, verdict, r);
    return decide(r, flow_hash, now);
}

Egress Worker::select_lag(LagId lag, std::uint32_t flow_hash, Ticks now, AclVerdict verdict) {
    Resolved r;
    resolve(true, lag, flow_hash, verdict, r);
    return decide(r, flow_hash, now);
}

// The common burst: every packet for one group, no ACL verdict, the group's own ARS object in a
// flowlet mode. The group is looked up and its members' liveness read once for the burst
// instead of per packet, and a packet that continues its flowlet takes a short path (inline,
// select_in_burst). A packet that starts a new flowlet goes through the same new_flowlet() as
// every other path. Returns false, having done nothing, when the group is not of this kind.
bool Worker::begin_flowlet_burst(NhgId id, Ticks now, FlowletBurst &b) {
    if (id >= hot_nhgs_.size()) return false;
    const HotGroup &h = hot_nhgs_[id];
    if (h.table == nullptr || !is_flowlet(h.object->mode)) return false;  // no flowlet ARS object
    if (h.group->size() > kFlowletBurstMembers) return false;

    resolve_hot(h, false, id, b.r_);
    b.buckets_ = h.table->buckets();
    b.mask_ = h.table->mask();
    b.now_ = now;
    b.clock_ = FlowletClock(now, h.object->idle_ticks);
    b.live_ = MemberMask{{b.r_.view->live.word[0]}};
    b.direct_ = MemberMask{{b.live_.word[0] & h.ports.word[0]}};
    b.egress_ = h.egress;
    b.decided_ = 0;
    b.moved_ = Reassignments{};
    return true;
}

// A packet of a flowlet burst that does not continue its flowlet on a live port member: it
// continues on a live LAG member, or starts a new flowlet.
Egress Worker::select_in_burst_slow(FlowletBurst &b, std::uint32_t flow_hash, std::uint32_t index) {
    const std::uint16_t member =
        flowlet(b.r_, b.buckets_ + index, index, b.live_, b.clock_, b.now_, b.moved_, rng_);
    if (b.direct_.contains(member)) return b.egress_[member];
    return to_egress(b.r_, member, flow_hash, b.now_, rng_);
}

void Worker::end_flowlet_burst(FlowletBurst &b) {
    if (b.decided_ != 0) b.r_.counters->count_decision(b.r_.object->mode, b.decided_);
    b.r_.counters->count_reassignments(b.moved_);
}

// select_nhg_burst's flowlet burst. When the table is beyond the L1 cache, each bucket starts
// loading kLookAhead packets before its decision, so the decisions overlap the loads instead of
// waiting for all of them.
void Worker::flowlet_burst(FlowletBurst &b, std::span<const SelectRequest> requests, std::span<Egress> out) {
    if (lean_flowlet_burst(b, requests, out)) return;
    const std::size_t n = requests.size();
    const std::size_t ahead = burst_table_bytes(b) > kL1TableBytes ? std::min(n, kLookAhead) : 0;
    for (std::size_t i = 0; i < ahead; ++i) prefetch_in_burst(b, requests[i].flow_hash);
    for (std::size_t i = 0; i < n; ++i) {
        if (i + ahead < n && ahead != 0) prefetch_in_burst(b, requests[i + ahead].flow_hash);
        out[i] = select_in_burst(b, requests[i].flow_hash);
    }
}

// The flowlet burst of the common group: every live member a port, no monitoring, every move a
// change of port. Each packet goes through the caller's step (FlowletStep::decide: it continues
// its flowlet or draws a new member). Returns false, having done nothing, for other groups.
bool Worker::lean_flowlet_burst(FlowletBurst &b, std::span<const SelectRequest> requests,
                                std::span<Egress> out) {
    const FlowletStep step = flowlet_step(b, ~std::uint64_t{0});
    if (!step.can_start_ || step.candidates_->count == 0) return false;
    const Egress *const egress = b.egress_;
    const std::size_t n = requests.size();
    const std::size_t ahead = burst_table_bytes(b) > kL1TableBytes ? std::min(n, kLookAhead) : 0;
    for (std::size_t i = 0; i < ahead; ++i) prefetch_in_burst(b, requests[i].flow_hash);
    for (std::size_t i = 0; i < n; ++i) {
        if (i + ahead < n && ahead != 0) prefetch_in_burst(b, requests[i + ahead].flow_hash);
        out[i] = egress[step.decide(requests[i].flow_hash)];
    }
    b.decided_ += n;
    return true;
}

// A run of packets for one group in a mode without flow state (per-packet, fixed, static hash):
// the group is resolved once and each packet only draws.
void Worker::per_packet_burst(const HotGroup &h, NhgId id, std::span<const SelectRequest> requests, Ticks now,
                              std::span<Egress> out) {
    Resolved r;
    resolve_hot(h, false, id, r);
    const GroupView &v = *r.view;
    const std::size_t n = requests.size();
    Rng rng = rng_;
    auto each = [&](auto choose) {
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t hash = requests[i].flow_hash;
            out[i] = to_egress(r, choose(hash), hash, now, rng);
        }
    };
    if (h.object == nullptr) {
        h.counters->count_static_hash(n);
        each([&](std::uint32_t hash) { return choose_static(*h.group, v, hash); });
    } else {
        h.counters->count_decision(h.object->mode, n);
        if (h.object->mode == Mode::kFixed) {
            each([&](std::uint32_t hash) { return choose_static(*h.group, v, hash); });
        } else {  // per-packet modes (flowlet modes take the flowlet burst)
            const Candidates &c = v.candidates(h.object->mode);
            each([&](std::uint32_t) { return c.pick(rng); });
        }
    }
    rng_ = rng;
}

bool Worker::select_one_group_burst(std::span<const SelectRequest> requests, Ticks now,
                                    std::span<Egress> out) {
    const NhgId id = requests[0].nhg;
    if (id >= hot_nhgs_.size() || hot_nhgs_[id].group == nullptr) return false;
    for (const SelectRequest &q : requests)
        if (q.nhg != id || q.verdict.flags != 0) return false;
    const HotGroup &h = hot_nhgs_[id];
    if (h.object == nullptr || !is_flowlet(h.object->mode)) {
        per_packet_burst(h, id, requests, now, out);
        return true;
    }
    FlowletBurst b;
    if (!begin_flowlet_burst(id, now, b)) return false;  // a group too wide for the burst
    flowlet_burst(b, requests, out);
    end_flowlet_burst(b);
    return true;
}

void Worker::select_nhg_burst(std::span<const SelectRequest> requests, Ticks now, std::span<Egress> out) {
    Resolved resolved[kBurstSize];
    for (std::size_t base = 0; base < requests.size(); base += kBurstSize) {
        const std::size_t n = std::min(kBurstSize, requests.size() - base);
        if (select_one_group_burst(requests.subspan(base, n), now, out.subspan(base, n))) continue;
        // Pass 1: find every bucket and start its cache line loading.
        for (std::size_t i = 0; i < n; ++i) {
            const SelectRequest &q = requests[base + i];
            resolve(false, q.nhg, q.flow_hash, q.verdict, resolved[i]);
            if (resolved[i].group != nullptr && resolved[i].bucket != nullptr) prefetch(resolved[i].bucket);
        }
        // Pass 2: decide, in packet order (the generator sequence stays deterministic).
        for (std::size_t i = 0; i < n; ++i)
            out[base + i] = decide(resolved[i], requests[base + i].flow_hash, now);
    }
}

// ---------------------------------------------------------------------------------------------
// Reading.

CounterValues Worker::nhg_counters(NhgId nhg) const {
    return nhg < capabilities().max_ecmp_groups ? nhg_counters_[nhg].read() : CounterValues{};
}

CounterValues Worker::lag_counters(LagId lag) const {
    return lag < capabilities().max_lag_groups ? lag_counters_[lag].read() : CounterValues{};
}

const MacroFlowTable *Worker::nhg_table(NhgId nhg, ArsObjectId object) const {
    if (nhg >= nhg_state_.size()) return nullptr;
    for (const ObjectTable &t : nhg_state_[nhg].tables)
        if (t.object == object) return &t.table;
    return nullptr;
}

const MacroFlowTable *Worker::lag_table(LagId lag, ArsObjectId object) const {
    if (lag >= lag_state_.size()) return nullptr;
    for (const ObjectTable &t : lag_state_[lag].tables)
        if (t.object == object) return &t.table;
    return nullptr;
}

CounterValues sum_nhg_counters(std::span<const Worker *const> workers, NhgId nhg) {
    CounterValues total;
    for (const Worker *w : workers) total += w->nhg_counters(nhg);
    return total;
}

CounterValues sum_lag_counters(std::span<const Worker *const> workers, LagId lag) {
    CounterValues total;
    for (const Worker *w : workers) total += w->lag_counters(lag);
    return total;
}

}  // namespace weft::ars
