#include "weft/ars/worker.hpp"

#include <algorithm>
#include <bit>
#include <unordered_map>
#include <utility>

#include "weft/ars/capabilities.hpp"

namespace weft::ars {

namespace {

constexpr std::uint16_t kNone = Egress::kNoMember;

// The r-th set bit of mask (r < popcount(mask)).
inline unsigned nth_set_bit(std::uint64_t mask, unsigned r) {
    for (; r > 0; --r) mask &= mask - 1;
    return static_cast<unsigned>(std::countr_zero(mask));
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
// loop. The rare paths (new flowlet, LAG nesting) stay out of line.
#if defined(__GNUC__)
#define WEFT_ARS_HOT [[gnu::always_inline]] inline
#define WEFT_ARS_COLD [[gnu::noinline]]
#else
#define WEFT_ARS_HOT inline
#define WEFT_ARS_COLD
#endif

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
        HotGroup &h = hot[id];
        h.group = &g;
        h.counters = &counters[id];
        h.object_id = g.ars_object;
        if (g.ars_object == kNoArsObject) continue;
        h.object = &config_->ars_objects()[g.ars_object];
        for (ObjectTable &t : states[id].tables)
            if (t.object == g.ars_object) h.table = &t.table;
    }
}

// ---------------------------------------------------------------------------------------------
// Member state, read from the shared board.

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
    return m.target.kind == EgressTarget::Kind::kPort ? board_.port_quality(m.target.id)
                                                      : board_.lag_quality(m.target.id);
}

// ---------------------------------------------------------------------------------------------
// Choosing a member.

Worker::QualityCandidates Worker::quality_candidates(const SelectionGroup &g) const {
    // Best band and the set of members holding it, for each role. Ties are counted as they are
    // found: std::popcount is a library call on a baseline x86-64 build.
    struct Best {
        int band = -1;
        std::uint64_t mask = 0;
        unsigned ties = 0;
    };
    auto scan = [&](std::uint16_t begin, std::uint16_t count) {
        Best best;
        for (std::uint16_t i = 0; i < count; ++i) {
            const GroupMember &m = g.members[begin + i];
            if (!member_live(m)) continue;
            const int q = member_quality(m);
            if (q > best.band) {
                best.band = q;
                best.mask = std::uint64_t{1} << i;
                best.ties = 1;
            } else if (q == best.band) {
                best.mask |= std::uint64_t{1} << i;
                ++best.ties;
            }
        }
        return best;
    };
    const Best primary = scan(0, g.primary_count);
    const Best alternate = g.alternate_count != 0 ? scan(g.primary_count, g.alternate_count) : Best{};
    const PathChoice choice = choose_path(
        primary.band >= 0, static_cast<QualityBand>(primary.band < 0 ? 0 : primary.band), alternate.band >= 0,
        static_cast<QualityBand>(alternate.band < 0 ? 0 : alternate.band), g.path_selection);
    QualityCandidates c;
    c.group = &g;
    if (choice == PathChoice::kNone) return c;
    const Best &set = choice == PathChoice::kPrimary ? primary : alternate;
    c.base = choice == PathChoice::kPrimary ? 0 : g.primary_count;
    c.mask = set.mask;
    c.ties = set.ties;
    return c;
}

std::uint16_t Worker::choose_by_quality(const SelectionGroup &g) {
    // Inside a flowlet burst the candidates are read once, at its first new flowlet.
    if (&g == burst_group_ && burst_candidates_.group != &g) burst_candidates_ = quality_candidates(g);
    const QualityCandidates c = burst_candidates_.group == &g ? burst_candidates_ : quality_candidates(g);
    if (c.ties == 0) return kNone;
    // Ties broken by the seeded generator.
    const unsigned pick = c.ties == 1 ? 0 : rng_.below(c.ties);
    return static_cast<std::uint16_t>(c.base + nth_set_bit(c.mask, pick));
}

std::uint16_t Worker::choose_at_random(const SelectionGroup &g) {
    // Random among live primaries; the alternates only when no primary is live.
    auto live_mask = [&](std::uint16_t begin, std::uint16_t count) {
        std::uint64_t mask = 0;
        for (std::uint16_t i = 0; i < count; ++i)
            if (member_live(g.members[begin + i])) mask |= std::uint64_t{1} << i;
        return mask;
    };
    std::uint16_t base = 0;
    std::uint64_t mask = live_mask(0, g.primary_count);
    if (mask == 0) {
        base = g.primary_count;
        mask = live_mask(g.primary_count, g.alternate_count);
        if (mask == 0) return kNone;
    }
    const unsigned pick = rng_.below(static_cast<std::uint32_t>(std::popcount(mask)));
    return static_cast<std::uint16_t>(base + nth_set_bit(mask, pick));
}

std::uint16_t Worker::choose_static(const SelectionGroup &g, std::uint32_t flow_hash) const {
    // Hash to a primary; a dead one passes to the next live one, so only its flows move.
    auto probe = [&](std::uint16_t begin, std::uint16_t count) -> std::uint16_t {
        if (count == 0) return kNone;
        std::uint32_t i = static_cast<std::uint32_t>((std::uint64_t{flow_hash} * count) >> 32);
        for (std::uint16_t n = 0; n < count; ++n) {
            if (member_live(g.members[begin + i])) return static_cast<std::uint16_t>(begin + i);
            if (++i == count) i = 0;
        }
        return kNone;
    };
    const std::uint16_t m = probe(0, g.primary_count);
    return m != kNone ? m : probe(g.primary_count, g.alternate_count);
}

// ---------------------------------------------------------------------------------------------
// The hot path.

WEFT_ARS_HOT void Worker::resolve(bool is_lag, std::uint32_t id, std::uint32_t flow_hash, AclVerdict verdict,
                                  Resolved &r) {
    // Filled in place: building a copy and moving it stalls on store forwarding.
    r.group = nullptr;
    r.object = nullptr;
    r.bucket = nullptr;
    r.monitored = false;
    r.is_lag = is_lag;
    r.group_id = id;
    // An id missing from the snapshot (a route racing a group removal) drops the packet.
    const std::vector<HotGroup> &hot = is_lag ? hot_lags_ : hot_nhgs_;
    if (id >= hot.size() || hot[id].group == nullptr) return;
    const HotGroup &h = hot[id];
    r.group = h.group;
    r.counters = h.counters;
    if (verdict.flags == 0) {
        // The common case: the group's own ARS object, everything precomputed.
        r.object_id = h.object_id;
        r.object = h.object;
        if (h.object != nullptr) {
            r.monitored = h.object->monitoring;
            if (h.table != nullptr) {
                r.bucket_index = h.table->index_of(flow_hash);
                r.bucket = h.table->bucket(r.bucket_index);
            }
        }
        return;
    }
    r.object_id = verdict.overrides_ars() ? verdict.ars_object : r.group->ars_object;
    const auto &objects = config_->ars_objects();
    if (verdict.disables_ars() || r.object_id >= objects.size() || !objects[r.object_id].present) return;

    r.object = &objects[r.object_id];
    r.monitored = (r.object->monitoring || (verdict.flags & AclVerdict::kMonitorOn) != 0) &&
                  (verdict.flags & AclVerdict::kMonitorOff) == 0;
    if (r.object->mode == Mode::kFlowletQuality || r.object->mode == Mode::kFlowletRandom) {
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

WEFT_ARS_HOT std::uint16_t Worker::flowlet(const Resolved &r, Ticks now) {
    const SelectionGroup &g = *r.group;
    const MacroFlowTable::Bucket current = *r.bucket;
    const std::uint16_t old = current.member();
    if (old < g.size() && current.idle_for(now) <= r.object->idle_ticks && member_live(g.members[old])) {
        // Same flowlet: stay, even if a better member exists (no reordering inside a flowlet).
        *r.bucket = MacroFlowTable::Bucket::make(old, now);
        return old;
    }
    return new_flowlet(r, now);
}

WEFT_ARS_COLD std::uint16_t Worker::new_flowlet(const Resolved &r, Ticks now) {
    const SelectionGroup &g = *r.group;
    const std::uint16_t old = r.bucket->member();
    const bool old_known = old < g.size();
    ReassignReason reason = ReassignReason::kFlowletExpired;
    if (old == kRemovedMember) {
        reason = ReassignReason::kMemberRemoved;
    } else if (old_known && !member_live(g.members[old])) {
        reason = ReassignReason::kLinkDown;
    }

    const std::uint16_t chosen =
        r.object->mode == Mode::kFlowletQuality ? choose_by_quality(g) : choose_at_random(g);
    if (chosen == kNone) return kNone;  // bucket kept: the flow returns to its member if it comes back

    if (old != MacroFlowTable::kEmpty && chosen != old) {
        const EgressTarget old_target = old_known ? g.members[old].target : EgressTarget{};
        const EgressTarget new_target = g.members[chosen].target;
        r.counters->count_reassignment(!old_known || old_target != new_target,
                                       reason == ReassignReason::kLinkDown, r.is_lag);
        if (r.monitored && monitor_) {
            ReassignEvent e;
            e.is_lag = r.is_lag;
            e.group_id = r.group_id;
            e.ars_object = r.object_id;
            e.bucket = r.bucket_index;
            e.old_member_id = old_known ? g.members[old].member_id : 0;
            e.new_member_id = g.members[chosen].member_id;
            e.old_target = old_target;
            e.new_target = new_target;
            e.reason = reason;
            e.now = now;
            monitor_(e);
        }
    }
    *r.bucket = MacroFlowTable::Bucket::make(chosen, now);
    return chosen;
}

WEFT_ARS_HOT Egress Worker::to_egress(const Resolved &r, std::uint16_t member, std::uint32_t flow_hash,
                                      Ticks now) {
    if (member == kNone) {
        r.counters->count_drop();
        return {};
    }
    const EgressTarget target = r.group->members[member].target;
    if (target.kind == EgressTarget::Kind::kPort) return {target.id, member};
    return via_lag(r, member, flow_hash, now);
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
        return to_egress(r, choose_static(*r.group, flow_hash), flow_hash, now);
    }
    r.counters->count_decision(r.object->mode);
    std::uint16_t member = kNone;
    switch (r.object->mode) {
        case Mode::kFlowletQuality:
        case Mode::kFlowletRandom:
            member = flowlet(r, now);
            break;
        case Mode::kPerPacketQuality:
            member = choose_by_quality(*r.group);
            break;
        case Mode::kPerPacketRandom:
            member = choose_at_random(*r.group);
            break;
        case Mode::kFixed:
            member = choose_static(*r.group, flow_hash);
            break;
    }
    return to_egress(r, member, flow_hash, now);
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
    if (h.table == nullptr) return false;  // no ARS object, or no table for it
    if (h.object->mode != Mode::kFlowletQuality && h.object->mode != Mode::kFlowletRandom) return false;
    const SelectionGroup &g = *h.group;
    if (g.size() > kFlowletBurstMembers) return false;

    b.buckets_ = h.table->buckets();
    b.mask_ = h.table->mask();
    b.now_ = now;
    b.idle_ = h.object->idle_ticks;
    b.live_ = 0;
    b.direct_ = 0;
    b.decided_ = 0;
    for (std::uint16_t m = 0; m < g.size(); ++m) {
        if (!member_live(g.members[m])) continue;
        b.live_ |= std::uint64_t{1} << m;
        const EgressTarget target = g.members[m].target;
        if (target.kind != EgressTarget::Kind::kPort) continue;
        b.direct_ |= std::uint64_t{1} << m;
        b.egress_[m] = Egress{target.id, m};
    }
    // The quality candidates are read at the burst's first new flowlet, if it has one (most
    // bursts only continue flowlets).
    if (h.object->mode == Mode::kFlowletQuality) burst_group_ = &g;
    Resolved &r = b.r_;
    r.group = &g;
    r.counters = h.counters;
    r.object = h.object;
    r.object_id = h.object_id;
    r.is_lag = false;
    r.group_id = id;
    r.monitored = h.object->monitoring;
    return true;
}

// A packet of a flowlet burst that does not continue its flowlet on a live port member: it
// continues on a live LAG member, or starts a new flowlet.
Egress Worker::select_in_burst_slow(FlowletBurst &b, std::uint32_t flow_hash, std::uint32_t index) {
    Resolved &r = b.r_;
    MacroFlowTable::Bucket *bucket = b.buckets_ + index;
    const MacroFlowTable::Bucket current = *bucket;
    std::uint16_t member = current.member();
    if (member < r.group->size() && current.idle_for(b.now_) <= b.idle_ && ((b.live_ >> member) & 1) != 0) {
        *bucket = MacroFlowTable::Bucket::make(member, b.now_);  // same flowlet: stay
    } else {
        r.bucket = bucket;
        r.bucket_index = index;
        member = new_flowlet(r, b.now_);
    }
    return to_egress(r, member, flow_hash, b.now_);
}

void Worker::end_flowlet_burst(FlowletBurst &b) {
    if (b.decided_ != 0) b.r_.counters->count_decision(b.r_.object->mode, b.decided_);
    burst_candidates_ = QualityCandidates{};
    burst_group_ = nullptr;
}

bool Worker::select_one_group_burst(std::span<const SelectRequest> requests, Ticks now,
                                    std::span<Egress> out) {
    const NhgId id = requests[0].nhg;
    for (const SelectRequest &q : requests)
        if (q.nhg != id || q.verdict.flags != 0) return false;
    FlowletBurst b;
    if (!begin_flowlet_burst(id, now, b)) return false;
    for (const SelectRequest &q : requests) prefetch_in_burst(b, q.flow_hash);
    for (std::size_t i = 0; i < requests.size(); ++i) out[i] = select_in_burst(b, requests[i].flow_hash);
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
            if (resolved[i].bucket != nullptr) prefetch(resolved[i].bucket);
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
