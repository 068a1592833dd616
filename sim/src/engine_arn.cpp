// ARN in the simulated fabric, with arn/'s own detector, codec, best-path table, remote-quality
// publisher and prefix-multicast tables: each switch's detector watches its global ports from its
// ARS sampler's loads; a message leaves as a high-priority frame (the control queue) by the
// group's flood table, every switch on the way passes it on by its own row, and the switches that
// take it apply it to their best-path table, whose bands land in the ARS board's remote slots.
//
// Groups are the dragonfly's: a switch's group is its description up to the first '-' (the
// dragonfly generator names routers gN-rX). Local links join switches of one group, global links
// switches of two.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "engine.hpp"
#include "weft/arn/frame.hpp"
#include "weft/arn/prefix_graph.hpp"
#include "weft/arn/prefix_labels.hpp"
#include "weft/routing/parse_error.hpp"

namespace weft::sim {
namespace {

// Severity levels: utilization evenly from the "on" threshold up to the line rate, queue depth
// doubling from its "on" threshold (the detector's defaults are 85 % and 64 KB so spaced).
arn::DetectorConfig detector_config(const ArnSettings &a) {
    arn::DetectorConfig c;
    for (std::size_t i = 0; i < arn::kMaxSeverity; ++i) {
        c.util_levels[i] = a.util_on + (100 - std::min<std::uint32_t>(a.util_on, 100)) *
                                           static_cast<std::uint32_t>(i) /
                                           static_cast<std::uint32_t>(arn::kMaxSeverity - 1);
        c.queue_levels[i] = a.queue_on << i;
    }
    c.util_off_percent = a.util_off;
    c.queue_off_bytes = a.queue_off;
    c.repeat_interval_us = a.repeat_interval_us;
    c.min_gap_us = a.min_gap_us;
    c.budget_burst = a.budget_burst;
    c.budget_refill_us = a.budget_refill_us;
    c.hold_intervals = a.hold_intervals;
    return c;
}

arn::MacAddr mac_of(arn::SwitchId id) {
    arn::MacAddr m{};
    m[0] = 0x02;  // locally administered
    for (int i = 1; i < 6; ++i) m[i] = static_cast<std::uint8_t>(id >> (8 * (5 - i)));
    return m;
}

}  // namespace

void Engine::build_arn() {
    const routing::Fabric &f = fabric_;
    const std::size_t S = f.switch_count();
    arn_.resize(S);
    // Groups by name, numbered in the order of their first switch.
    std::vector<std::string> names;
    for (routing::SwitchIdx s = 0; s < S; ++s) {
        const std::string &desc = f.node(f.switch_node(s)).desc;
        const std::size_t dash = desc.find('-');
        if (dash == std::string::npos || dash == 0)
            throw routing::ParseError(s_.file, s_.arn.line, 0,
                                      "switches named group-rest for ARN's dragonfly groups (the dragonfly "
                                      "generator's gN-rX), not '" +
                                          desc + "'");
        const std::string g = desc.substr(0, dash);
        auto it = std::find(names.begin(), names.end(), g);
        if (it == names.end()) {
            if (names.size() >= 0xFFFF) throw std::runtime_error("ARN: more groups than 16-bit ids");
            names.push_back(g);
            it = names.end() - 1;
        }
        arn_[s].group = static_cast<std::uint32_t>(it - names.begin());
        arn_[s].id = f.node(f.switch_node(s)).guid;
    }
    arn_groups_.assign(names.size(), {});
    for (routing::SwitchIdx s = 0; s < S; ++s) {
        ArnGroup &g = arn_groups_[arn_[s].group];
        arn_[s].node = static_cast<arn::NodeIndex>(g.switches.size());
        g.switches.push_back(static_cast<std::uint32_t>(s));
    }
    auto peer_switch = [&](routing::SwitchIdx s, routing::PortNum p) -> routing::SwitchIdx {
        const routing::Port &x = f.port(f.switch_node(s), p);
        if (!x.linked() || !f.node(x.peer).is_switch()) return routing::kNoSwitch;
        return f.node(x.peer).sw;
    };
    // Each group's prefix multicast over its local links: the breadth-first tree from its first
    // switch, every switch's row of the flood tables.
    for (ArnGroup &g : arn_groups_) {
        arn::PrefixGraph pg(g.switches.size());
        for (const std::uint32_t s : g.switches)
            for (routing::PortNum p = 1; p <= f.node(f.switch_node(s)).num_ports; ++p) {
                const routing::SwitchIdx t = peer_switch(s, p);
                if (t == routing::kNoSwitch || t < s || arn_[t].group != arn_[s].group) continue;
                pg.connect(arn_[s].node, p, arn_[t].node, f.port(f.switch_node(s), p).peer_port);
            }
        const arn::PrefixLabels labels = arn::PrefixLabels::minimum(pg, 0);
        std::vector<std::vector<arn::PrefixMcastEntry>> tables = arn::flood_tables(labels);
        for (std::size_t n = 0; n < g.switches.size(); ++n) arn_[g.switches[n]].flood = std::move(tables[n]);
    }
    arn::BptConfig bc;
    bc.action = s_.arn.action == ArnAction::kRemove ? arn::CongestionAction::kRemove
                                                    : arn::CongestionAction::kPenalize;
    bc.penalty_per_severity = s_.arn.penalty;
    const arn::DetectorConfig dc = detector_config(s_.arn);
    const auto speed = static_cast<std::uint64_t>(s_.fabric.fabric_rate.bps() / 1e6);
    const std::size_t G = arn_groups_.size();
    for (routing::SwitchIdx s = 0; s < S; ++s) {
        ArnSwitch &a = arn_[s];
        const routing::PortNum ports = f.node(f.switch_node(s)).num_ports;
        // Its global ports (watched), and the global ports of its group peers behind each local port.
        std::vector<arn::WatchedPort> watched;
        std::vector<std::pair<routing::PortNum, routing::SwitchIdx>> locals;
        for (routing::PortNum p = 1; p <= ports; ++p) {
            const routing::SwitchIdx t = peer_switch(s, p);
            if (t == routing::kNoSwitch) continue;
            if (arn_[t].group == a.group) {
                locals.emplace_back(p, t);
                continue;
            }
            arn::WatchedPort w;
            w.port = p;
            w.speed_mbps = std::max<std::uint64_t>(1, speed);
            w.peer_group = static_cast<arn::GroupId>(arn_[t].group);
            watched.push_back(w);
        }
        auto globals_of = [&](routing::SwitchIdx x) {
            std::vector<std::pair<routing::PortNum, std::uint32_t>> out;  // (port, peer group)
            for (routing::PortNum p = 1; p <= f.node(f.switch_node(x)).num_ports; ++p) {
                const routing::SwitchIdx t = peer_switch(x, p);
                if (t != routing::kNoSwitch && arn_[t].group != arn_[x].group)
                    out.emplace_back(p, arn_[t].group);
            }
            return out;
        };
        // Candidate paths per destination group: the direct global links, a group peer's global
        // link behind a local port, and every other global link of its own (an intermediate
        // group). Only the links the group reports on are named.
        a.bpt = std::make_unique<arn::BestPathTable>(bc, kArsTicksPerUs);
        const auto own = globals_of(s);
        for (std::uint32_t B = 0; B < G; ++B) {
            if (B == a.group) continue;
            std::vector<arn::CandidatePath> paths;
            for (const auto &[p, to] : own)
                if (to == B) paths.push_back({arn::PathKind::kDirect, p, 1, {{a.id, p}}});
            for (const auto &[q, t] : locals)
                for (const auto &[p, to] : globals_of(t))
                    if (to == B)
                        paths.push_back({arn::PathKind::kViaPeer, q, 2, {{a.id, q}, {arn_[t].id, p}}});
            for (const auto &[p, to] : own)
                if (to != B) paths.push_back({arn::PathKind::kViaGroup, p, 3, {{a.id, p}}});
            if (!paths.empty()) a.bpt->set_destination(static_cast<arn::GroupId>(B), std::move(paths));
        }
        std::vector<arn::RemoteSlotAssignment> slots = arn::assign_remote_slots(*a.bpt);
        a.slot.assign(G * (std::size_t{ports} + 1), ars::kNoRemoteSlot);
        for (const arn::RemoteSlotAssignment &r : slots)
            a.slot[std::size_t{r.group} * (ports + 1) + r.port] = r.slot;
        counters_.arn.remote_slots += slots.size();
        counters_.arn.watched_ports += watched.size();
        a.publisher = std::make_unique<arn::RemoteQualityPublisher>(std::move(slots));
        a.observed.resize(watched.size());
        a.detector = std::make_unique<arn::Detector>(a.id, dc, std::move(watched), kArsTicksPerUs);
    }
}

std::size_t Engine::arn_remote_slots(std::uint32_t sw) const {
    return arn_.empty() ? 0 : arn_[sw].publisher->slots().size();
}

ars::RemoteSlot Engine::arn_slot(std::uint32_t sw, std::uint32_t dest_switch, ars::PortId port) const {
    if (arn_.empty()) return ars::kNoRemoteSlot;
    const ArnSwitch &a = arn_[sw];
    const std::uint32_t B = arn_[dest_switch].group;
    if (B == a.group) return ars::kNoRemoteSlot;
    const std::size_t ports = switches_[sw].ports + 1;
    return port < ports ? a.slot[B * ports + port] : ars::kNoRemoteSlot;
}

void Engine::arn_sample(std::uint32_t sw) {
    ArnSwitch &a = arn_[sw];
    SwitchNode &node = switches_[sw];
    const auto &watched = a.detector->ports();
    for (std::size_t i = 0; i < watched.size(); ++i) {
        const ars::PortId p = watched[i].port;
        a.observed[i] = arn::observe(node.sampler->port_load(p), node.samples[p], node.board->link_up(p));
    }
    const arn::Ticks t = ars_ticks(now_);
    arn_out_.clear();
    a.detector->sample(t, a.observed, arn_out_);
    const arn::ArnFrameHeaders h{arn::kArnDstMac, mac_of(a.id), arn::vlan_tci(arn::kArnPcp, 0)};
    const arn::PrefixMcastEntry *start = arn::find_entry(a.flood, a.node, arn::kLocalPort);
    for (const arn::ArnMessage &m : arn_out_) {
        const auto trace = static_cast<std::uint32_t>(arn_traces_.size());
        ArnTrace &tr = arn_traces_.emplace_back();
        tr.frame = arn::encode_arn_frame(h, m);
        tr.detected = now_;
        tr.expected = start ? static_cast<std::uint32_t>(arn_groups_[a.group].switches.size() - 1) : 0;
        // Not applied to its own table: the link it names is its own port, whose band ARS counts
        // already, and held news would keep that port's members down after it recovered.
        if (start)
            for (const arn::PortNumber p : start->out_ports) arn_send(sw, p, trace);
    }
    const arn::BptChange expired = a.bpt->expire(t);
    if (!expired.touched.empty()) a.publisher->publish(*a.bpt, *node.board, expired.touched);
}

void Engine::arn_apply(std::uint32_t sw, const arn::ArnMessage &m) {
    ArnSwitch &a = arn_[sw];
    const arn::BptChange c = a.bpt->apply(m, ars_ticks(now_));
    if (!c.touched.empty()) a.publisher->publish(*a.bpt, *switches_[sw].board, c.touched);
}

// A copy onto a local link, ahead of data (the control queue), behind the frame being sent.
void Engine::arn_send(std::uint32_t sw, ars::PortId port, std::uint32_t trace) {
    const PortIdx out = switches_[sw].first_port + port - 1;
    Port &p = ports_[out];
    if (!p.up) {
        ++counters_.arn.lost;
        return;
    }
    const PacketId id = pool_.get();
    Packet &k = pool_[id];
    k.type = PacketType::kArn;
    k.flow = trace;
    k.size = static_cast<std::uint32_t>(arn_traces_[trace].frame.size()) + 4;  // and the FCS
    k.seq = 0;
    k.dst = 0;
    k.hash = 0;
    p.ctrl.push(pool_, id);
    p.ctrl_bytes += k.size;
    ++counters_.arn.frames;
    kick(out);
}

void Engine::arn_receive(std::uint32_t sw, PortIdx in, PacketId id) {
    const std::uint32_t trace = pool_[id].flow;
    pool_.put(id);
    const arn::ArnFrameDecode d = arn::decode_arn_frame(arn_traces_[trace].frame);
    if (!d.ok()) {
        ++counters_.arn.refused;
        return;
    }
    ArnSwitch &a = arn_[sw];
    const std::vector<std::uint32_t> &members = arn_groups_[a.group].switches;
    const auto origin = std::find_if(members.begin(), members.end(),
                                     [&](std::uint32_t x) { return arn_[x].id == d.message.reporter; });
    const auto in_port = static_cast<arn::PortNumber>(in - switches_[sw].first_port + 1);
    const arn::PrefixMcastEntry *e =
        origin == members.end()
            ? nullptr
            : arn::find_entry(a.flood, static_cast<arn::NodeIndex>(origin - members.begin()), in_port);
    if (e == nullptr) {
        ++counters_.arn.refused;
        return;
    }
    for (const arn::PortNumber p : e->out_ports) arn_send(sw, p, trace);
    if (!e->deliver) return;
    arn_apply(sw, d.message);
    ++counters_.arn.delivered;
    ArnTrace &tr = arn_traces_[trace];
    tr.last = now_;
    if (++tr.delivered == tr.expected) {
        ++counters_.arn.complete;
        const Time l = now_ - tr.detected;
        counters_.arn.latency_sum += l;
        counters_.arn.latency_max = std::max(counters_.arn.latency_max, l);
    }
}

void Engine::arn_collect(RunCounters &c) const {
    for (const ArnSwitch &a : arn_) {
        const arn::DetectorCounters &d = a.detector->counters();
        for (const std::uint64_t n : d.sent) c.arn.messages += n;
        c.arn.repeats += d.repeats;
        c.arn.deferred += d.deferred_gap + d.deferred_budget;
        const arn::BptCounters &b = a.bpt->counters();
        c.arn.stale += b.stale;
        c.arn.expired += b.expired;
        c.arn.rechosen += b.rechosen;
    }
    for (const ArnTrace &t : arn_traces_)
        if (t.expected != 0 && t.delivered < t.expected) ++c.arn.incomplete;
}

}  // namespace weft::sim
