// The member choice from the best sets derived once per board generation, against the choice
// the engine made before: a scan of every member at every choice. On seeded traffic, with bands,
// links and time moving between bursts, every mode must pick the same member with the same
// generator draws, through the single-packet, the burst and the caller-driven flowlet APIs.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "rig.hpp"
#include "weft/ars/rng.hpp"

namespace weft::ars {
namespace {

constexpr std::uint16_t kNone = Egress::kNoMember;

// The reference: the per-choice scan of every member, as the engine did it before. It keeps its
// own flow tables and generator, seeded like worker 0's.
class ScanReference {
  public:
    ScanReference(const PortBoard &board, const Config &config)
        : board_(board), config_(config), rng_(config.profile().random_seed, 0) {}

    // The member index the group's own ARS object (or, without one, the static hash) picks.
    std::uint16_t select(NhgId id, std::uint32_t hash, Ticks now) {
        const SelectionGroup &g = config_.nhgs()[id];
        if (g.ars_object == kNoArsObject) return by_hash(g, hash);
        const ArsObjectRuntime &o = config_.ars_objects()[g.ars_object];
        switch (o.mode) {
            case Mode::kPerPacketQuality:
                return by_quality(g);
            case Mode::kPerPacketRandom:
                return at_random(g);
            case Mode::kFixed:
                return by_hash(g, hash);
            case Mode::kFlowletQuality:
            case Mode::kFlowletRandom:
                break;
        }
        std::vector<MacroFlowTable::Bucket> &table = tables_[id];
        if (table.empty()) table.assign(o.max_flows, MacroFlowTable::Bucket::make(MacroFlowTable::kEmpty, 0));
        MacroFlowTable::Bucket &bucket = table[MacroFlowTable::index_in(hash, o.max_flows - 1)];
        const std::uint16_t old = bucket.member();
        if (old < g.size() && bucket.idle_for(now) <= o.idle_ticks && live(g.members[old])) {
            bucket = MacroFlowTable::Bucket::make(old, now);
            return old;
        }
        const std::uint16_t chosen = o.mode == Mode::kFlowletQuality ? by_quality(g) : at_random(g);
        if (chosen != kNone) bucket = MacroFlowTable::Bucket::make(chosen, now);
        return chosen;
    }

  private:
    static unsigned nth_set_bit(std::uint64_t mask, unsigned r) {
        for (; r > 0; --r) mask &= mask - 1;
        return static_cast<unsigned>(std::countr_zero(mask));
    }
    bool live(const GroupMember &m) const {
        if (!m.usable) return false;
        if (m.target.kind == EgressTarget::Kind::kPort) return board_.link_up(m.target.id);
        for (const GroupMember &p : config_.lags()[m.target.id].members)
            if (p.usable && board_.link_up(p.target.id)) return true;
        return false;
    }
    QualityBand quality(const GroupMember &m) const {
        return m.target.kind == EgressTarget::Kind::kPort ? board_.port_quality(m.target.id)
                                                          : board_.lag_quality(m.target.id);
    }
    std::uint16_t by_quality(const SelectionGroup &g) {
        struct Best {
            int band = -1;
            std::uint64_t mask = 0;
        };
        auto scan = [&](std::uint16_t begin, std::uint16_t count) {
            Best best;
            for (std::uint16_t i = 0; i < count; ++i) {
                const GroupMember &m = g.members[begin + i];
                if (!live(m)) continue;
                const int q = quality(m);
                if (q > best.band) best = {q, 0};
                if (q == best.band) best.mask |= std::uint64_t{1} << i;
            }
            return best;
        };
        const Best p = scan(0, g.primary_count), a = scan(g.primary_count, g.alternate_count);
        const PathChoice c =
            choose_path(p.band >= 0, static_cast<QualityBand>(p.band < 0 ? 0 : p.band), a.band >= 0,
                        static_cast<QualityBand>(a.band < 0 ? 0 : a.band), g.path_selection);
        if (c == PathChoice::kNone) return kNone;
        const Best &set = c == PathChoice::kPrimary ? p : a;
        const auto ties = static_cast<unsigned>(std::popcount(set.mask));
        const unsigned pick = ties == 1 ? 0 : rng_.below(ties);
        return static_cast<std::uint16_t>((c == PathChoice::kPrimary ? 0 : g.primary_count) +
                                          nth_set_bit(set.mask, pick));
    }
    std::uint16_t at_random(const SelectionGroup &g) {
        auto live_mask = [&](std::uint16_t begin, std::uint16_t count) {
            std::uint64_t mask = 0;
            for (std::uint16_t i = 0; i < count; ++i)
                if (live(g.members[begin + i])) mask |= std::uint64_t{1} << i;
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
    std::uint16_t by_hash(const SelectionGroup &g, std::uint32_t hash) const {
        auto probe = [&](std::uint16_t begin, std::uint16_t count) -> std::uint16_t {
            if (count == 0) return kNone;
            std::uint32_t i = static_cast<std::uint32_t>((std::uint64_t{hash} * count) >> 32);
            for (std::uint16_t n = 0; n < count; ++n) {
                if (live(g.members[begin + i])) return static_cast<std::uint16_t>(begin + i);
                if (++i == count) i = 0;
            }
            return kNone;
        };
        const std::uint16_t m = probe(0, g.primary_count);
        return m != kNone ? m : probe(g.primary_count, g.alternate_count);
    }

    const PortBoard &board_;
    const Config &config_;
    Rng rng_;
    std::vector<std::vector<MacroFlowTable::Bucket>> tables_ =
        std::vector<std::vector<MacroFlowTable::Bucket>>(8);
};

constexpr std::size_t kPorts = 128;
constexpr std::size_t kLags = 4;
constexpr Ticks kTicksPerUs = 10;

struct Setup {
    std::shared_ptr<const Config> config;
    std::vector<NhgId> groups;
};

// Groups of every shape, each on ARS object 0 in `mode` (none: static hash): 3 primaries and
// 2 alternates with a LAG member and an admin-down member; 16 primaries; 64 primaries and 64
// alternates (beyond the flowlet burst's 64); 8 members sharing 4 ports.
Setup make_setup(bool with_object, Mode mode) {
    Profile profile;
    profile.random_seed = 0xC0FFEE;
    ConfigBuilder b(profile, kTicksPerUs);
    for (PortId p = 0; p < kPorts; ++p) b.add_port(PortConfig{p, true, 10, 100, 100});
    ArsObjectConfig o;
    o.id = 0;
    o.mode = mode;
    o.idle_time_us = 20;
    o.max_flows = 64;
    o.max_primary_members = 64;
    o.max_alternate_members = 64;
    b.add_ars_object(o);
    b.add_lag(LagConfig{1, kNoArsObject, {40, 41}});  // static: the LAG's port choice draws nothing

    const ArsObjectId object = with_object ? ArsObjectId{0} : kNoArsObject;
    NhgConfig small = test::nhg(1, object,
                                {test::primary(1, 0), test::primary(2, 1), test::primary(3, 2),
                                 test::alternate(4, 3), test::alternate(5, 4)});
    small.members[1].admin_up = false;
    small.members.push_back({6, EgressTarget::lag(1), MemberRole::kPrimary, true});
    small.path_selection.primary_quality_threshold = 6;
    small.path_selection.alternate_cost = 1;
    b.add_nhg(small);
    NhgConfig sixteen = test::nhg(2, object, {});
    for (std::uint32_t m = 0; m < 16; ++m)
        sixteen.members.push_back(test::primary(m, static_cast<PortId>(8 + m)));
    b.add_nhg(sixteen);
    NhgConfig wide = test::nhg(3, object, {});
    for (std::uint32_t m = 0; m < 64; ++m) {
        wide.members.push_back(test::primary(m, static_cast<PortId>(m)));
        wide.members.push_back(test::alternate(100 + m, static_cast<PortId>(127 - m)));
    }
    b.add_nhg(wide);
    NhgConfig shared = test::nhg(4, object, {});  // two members per port: some moves keep the port
    for (std::uint32_t m = 0; m < 8; ++m)
        shared.members.push_back(test::primary(m, static_cast<PortId>(30 + m / 2)));
    b.add_nhg(shared);
    Setup s;
    s.config = test::build(b);
    s.groups = {1, 2, 3, 4};
    return s;
}

// Moves the board: bands at random (often several ports at the best band, so there are ties),
// now and then a link down or back up.
void churn(PortBoard &board, Rng &rng) {
    for (int k = 0; k < 24; ++k) {
        const auto p = static_cast<PortId>(rng.below(kPorts));
        board.publish_port_quality(
            p, static_cast<QualityBand>(rng.below(3) == 0 ? rng.below(8) : 5 + rng.below(3)));
    }
    if (rng.below(2) == 0) board.set_link_up(static_cast<PortId>(rng.below(kPorts)), rng.below(3) != 0);
    if (rng.below(8) == 0) board.publish_lag_quality(1, static_cast<QualityBand>(rng.below(8)));
}

void compare(bool with_object, Mode mode) {
    const std::string what = with_object ? std::string(to_string(mode)) : "static hash";
    const Setup s = make_setup(with_object, mode);
    PortBoard board(kPorts, kLags);
    for (PortId p = 0; p < kPorts; ++p) board.set_link_up(p, true);
    Worker single(board, 0), burst(board, 0), driven(board, 0);
    for (Worker *w : {&single, &burst, &driven}) w->adopt(s.config);
    ScanReference reference(board, *s.config);
    const bool flowlet_mode = with_object && (mode == Mode::kFlowletQuality || mode == Mode::kFlowletRandom);

    Rng traffic(2024, 7);
    Ticks now = 0;
    std::uint64_t packets = 0, differed_from_first = 0;
    for (int round = 0; round < 400; ++round) {
        churn(board, traffic);
        now += kTicksPerUs * traffic.below(30);  // some flowlets outlive a gap, some do not
        for (NhgId id : s.groups) {
            std::vector<SelectRequest> requests(kBurstSize);
            for (SelectRequest &q : requests)
                q = {static_cast<std::uint32_t>(traffic.below(200) * 2654435761u), id, {}};
            std::vector<Egress> out(kBurstSize);
            burst.select_nhg_burst(requests, now, out);

            Worker::FlowletBurst fb;
            const bool began = driven.begin_flowlet_burst(id, now, fb);
            ASSERT_EQ(began, flowlet_mode && id != 3) << what;  // group 3 is wider than a burst

            for (std::size_t i = 0; i < kBurstSize; ++i) {
                const std::uint32_t h = requests[i].flow_hash;
                const std::uint16_t want = reference.select(id, h, now);
                const Egress one = single.select_nhg(id, h, now);
                const Egress in_burst = began ? driven.select_in_burst(fb, h) : driven.select_nhg(id, h, now);
                ASSERT_EQ(one.member, want)
                    << what << " round " << round << " group " << id << " packet " << i;
                ASSERT_EQ(out[i].member, want)
                    << what << " round " << round << " group " << id << " packet " << i;
                ASSERT_EQ(in_burst.member, want)
                    << what << " round " << round << " group " << id << " packet " << i;
                ASSERT_EQ(one.port, out[i].port);
                ASSERT_EQ(one.port, in_burst.port);
                ++packets;
                differed_from_first += want != kNone && want != out[0].member;
            }
            if (began) driven.end_flowlet_burst(fb);
        }
    }
    // The traffic was varied enough to mean something: many packets, not all to one member.
    EXPECT_EQ(packets, 400u * s.groups.size() * kBurstSize);
    EXPECT_GT(differed_from_first, packets / 10) << what;
    for (NhgId id : s.groups) {
        const CounterValues a = single.nhg_counters(id), b = burst.nhg_counters(id),
                            c = driven.nhg_counters(id);
        EXPECT_EQ(a.decisions, b.decisions) << what;
        EXPECT_EQ(a.decisions, c.decisions) << what;
        EXPECT_EQ(a.static_hash_decisions, b.static_hash_decisions) << what;
        EXPECT_EQ(a.packet_drops, b.packet_drops) << what;
        EXPECT_EQ(a.next_hop_reassignments, b.next_hop_reassignments) << what;
        EXPECT_EQ(a.next_hop_reassignments, c.next_hop_reassignments) << what;
        EXPECT_EQ(a.port_reassignments, b.port_reassignments) << what;
        EXPECT_EQ(a.port_reassignments, c.port_reassignments) << what;
        EXPECT_EQ(a.link_down_reassignments, b.link_down_reassignments) << what;
        EXPECT_EQ(a.link_down_reassignments, c.link_down_reassignments) << what;
    }
}

TEST(SelectionEquivalence, FlowletQuality) {
    compare(true, Mode::kFlowletQuality);
}
TEST(SelectionEquivalence, FlowletRandom) {
    compare(true, Mode::kFlowletRandom);
}
TEST(SelectionEquivalence, PerPacketQuality) {
    compare(true, Mode::kPerPacketQuality);
}
TEST(SelectionEquivalence, PerPacketRandom) {
    compare(true, Mode::kPerPacketRandom);
}
TEST(SelectionEquivalence, Fixed) {
    compare(true, Mode::kFixed);
}
TEST(SelectionEquivalence, StaticHash) {
    compare(false, Mode::kFlowletQuality);
}

// The board's generation moves on every change, and only on a change.
TEST(PortBoard, GenerationMovesOnChangeOnly) {
    PortBoard board(4, 2);
    const std::uint64_t g0 = board.generation();
    board.publish_port_quality(1, kBestQuality);  // already 7
    board.publish_lag_quality(0, kBestQuality);
    board.set_link_up(2, false);  // already down
    EXPECT_EQ(board.generation(), g0);
    board.publish_port_quality(1, 3);
    EXPECT_GT(board.generation(), g0);
    const std::uint64_t g1 = board.generation();
    board.publish_port_quality(1, 3);
    EXPECT_EQ(board.generation(), g1);
    board.set_link_up(2, true);
    EXPECT_GT(board.generation(), g1);
    const std::uint64_t g2 = board.generation();
    board.publish_lag_quality(1, 0);
    EXPECT_GT(board.generation(), g2);
}

// A change published between two choices is seen by the second (the derived sets follow it).
TEST(PortBoard, AChoiceSeesTheLatestPublication) {
    test::Rig rig;
    auto b = test::builder(Mode::kPerPacketQuality);
    b.add_nhg(test::nhg(1, 0, {test::primary(1, 0), test::primary(2, 1), test::primary(3, 2)}));
    rig.adopt(b);
    for (PortId best = 0; best < 3; ++best) {
        for (PortId p = 0; p < 3; ++p) rig.board.publish_port_quality(p, p == best ? 6 : 2);
        for (std::uint32_t h = 0; h < 20; ++h) EXPECT_EQ(rig.worker.select_nhg(1, h, 0).port, best);
        rig.board.set_link_up(best, false);
        for (std::uint32_t h = 0; h < 20; ++h) EXPECT_NE(rig.worker.select_nhg(1, h, 0).port, best);
        rig.board.set_link_up(best, true);
    }
}

}  // namespace
}  // namespace weft::ars
