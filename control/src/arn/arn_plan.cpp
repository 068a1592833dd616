// plan_arn: the configured group into flood tables, watched ports, candidate paths and slots.
#include <algorithm>
#include <cstdio>
#include <set>
#include <stdexcept>

#include "weft/arn/prefix_labels.hpp"
#include "weft/arn/prefix_routing.hpp"
#include "weft/arn/remote_quality.hpp"
#include "weft/control/arn_state.hpp"

namespace weft::control {

namespace {

arn::PortNumber arn_port(std::uint16_t p) {
    return static_cast<arn::PortNumber>(p + 1);
}

std::string hex(arn::SwitchId id) {
    char s[24];
    std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(id));
    return s;
}

}  // namespace

ArnPlanResult plan_arn(const ArnState &state, const ArnInputs &in) {
    ArnPlanResult r;
    ArnPlan plan;
    const arn::SwitchId self = in.self;
    const std::vector<ArnLocalLink> &links = state.uses_sm() ? state.from_sm->links : state.links;
    const std::vector<ArnGlobalLink> &globals = state.uses_sm() ? state.from_sm->globals : state.globals;
    const std::map<std::uint32_t, arn::GroupId> &nhgs = state.uses_sm() ? state.from_sm->nhgs : state.nhgs;
    std::set<arn::SwitchId> ids{self};
    for (const ArnLocalLink &l : links) ids.insert({l.a, l.b});
    for (const ArnGlobalLink &g : globals) ids.insert(g.owner);
    plan.switches.assign(ids.begin(), ids.end());
    auto node_of = [&](arn::SwitchId id) {
        return static_cast<arn::NodeIndex>(std::lower_bound(plan.switches.begin(), plan.switches.end(), id) -
                                           plan.switches.begin());
    };
    for (const ArnLocalLink &l : links)
        if ((l.a == self && l.port_a >= in.num_ports) || (l.b == self && l.port_b >= in.num_ports)) {
            r.error = "this switch has no port " + std::to_string(l.a == self ? l.port_a : l.port_b);
            return r;
        }
    for (const ArnGlobalLink &g : globals)
        if (g.owner == self && g.port >= in.num_ports) {
            r.error = "this switch has no port " + std::to_string(g.port);
            return r;
        }

    arn::PrefixGraph graph(plan.switches.size());
    try {
        for (const ArnLocalLink &l : links)
            graph.connect(node_of(l.a), arn_port(l.port_a), node_of(l.b), arn_port(l.port_b));
    } catch (const std::invalid_argument &e) {
        r.error = std::string("local links: ") + e.what();
        return r;
    }
    const arn::PrefixLabels labels = arn::PrefixLabels::minimum(graph, 0);
    if (labels.roots().size() != 1) {
        r.error = "the group's local links leave switch " + hex(plan.switches[labels.roots()[1]]) +
                  " apart from " + hex(plan.switches[0]);
        return r;
    }
    for (std::size_t n = 0; n < labels.size(); ++n) plan.labels.push_back(arn::label_text(labels.label(n)));

    // This switch's part of the flood tables.
    auto tables = std::make_shared<dataplane::ArnTables>();
    tables->enabled = state.enabled;
    tables->self = self;
    tables->ethertype = state.ethertype;
    tables->encapsulation = state.encapsulation;
    tables->udp_port = state.udp_port;
    tables->fabric_ports = in.fabric_ports;
    tables->rx_burst = std::max<std::uint32_t>(1, state.rx_burst);
    tables->rx_interval_tsc = state.rx_pps == 0 ? 0 : in.ticks_per_us * 1000000u / state.rx_pps;
    tables->reporters = plan.switches;
    tables->entries.assign(plan.switches.size() * dataplane::kArnSlots, {});
    const auto flood = arn::flood_tables(labels);
    for (const arn::PrefixMcastEntry &e : flood[node_of(self)]) {
        if (e.in_port >= dataplane::kArnSlots) continue;
        dataplane::ArnFloodEntry &t = tables->entries[e.origin * dataplane::kArnSlots + e.in_port];
        t.valid = true;
        t.deliver = e.deliver;
        for (arn::PortNumber p : e.out_ports)
            if (p >= 1 && p <= 64) t.out_ports |= std::uint64_t{1} << (p - 1);
    }

    // The ports whose news matter to the group: this switch's global and local links.
    auto setup = std::make_shared<dataplane::ArnSetup>();
    setup->detector = state.detector;
    setup->bpt = state.bpt;
    auto speed = [&](std::uint16_t p) -> std::uint64_t {
        if (const auto it = state.speeds.find(p); it != state.speeds.end()) return it->second;
        if (p < in.port_speeds.size() && in.port_speeds[p] != 0) return in.port_speeds[p];
        return kArnDefaultSpeedMbps;
    };
    std::map<std::uint16_t, arn::WatchedPort> watched;
    for (const ArnGlobalLink &g : globals)
        if (g.owner == self)
            watched[g.port] = arn::WatchedPort{arn_port(g.port), speed(g.port), g.peer_group, {}};
    for (const ArnLocalLink &l : links) {
        if (l.a == self && !watched.count(l.port_a))
            watched[l.port_a] = arn::WatchedPort{arn_port(l.port_a), speed(l.port_a), {}, {}};
        if (l.b == self && !watched.count(l.port_b))
            watched[l.port_b] = arn::WatchedPort{arn_port(l.port_b), speed(l.port_b), {}, {}};
    }
    for (const auto &entry : watched) setup->watched.push_back(entry.second);

    // Candidate paths per destination group: this switch's own global links to it (cost 1), then
    // each group peer's, over the local link to that peer (cost 2).
    for (const ArnGlobalLink &g : globals) {
        std::vector<arn::CandidatePath> &paths = setup->destinations[g.peer_group];
        if (g.owner == self) {
            paths.push_back({arn::PathKind::kDirect, arn_port(g.port), 1, {{self, arn_port(g.port)}}});
            continue;
        }
        for (const ArnLocalLink &l : links) {
            const bool a_side = l.a == self && l.b == g.owner;
            if (!a_side && !(l.b == self && l.a == g.owner)) continue;
            const arn::PortNumber out = arn_port(a_side ? l.port_a : l.port_b);
            paths.push_back({arn::PathKind::kViaPeer, out, 2, {{self, out}, {g.owner, arn_port(g.port)}}});
        }
    }
    for (auto &entry : setup->destinations)
        std::stable_sort(
            entry.second.begin(), entry.second.end(),
            [](const arn::CandidatePath &x, const arn::CandidatePath &y) { return x.cost < y.cost; });
    {
        arn::BestPathTable bpt(setup->bpt, 1);
        for (const auto &[g, paths] : setup->destinations) bpt.set_destination(g, paths);
        setup->slots = arn::assign_remote_slots(bpt);
    }
    for (const arn::RemoteSlotAssignment &a : setup->slots)
        for (const auto &[nhg, group] : nhgs)
            if (group == a.group) plan.member_slots[{nhg, static_cast<std::uint16_t>(a.port - 1)}] = a.slot;
    if (setup->slots.size() > dataplane::kArnRemoteSlots) {
        r.error = std::to_string(setup->slots.size()) + " remote slots, more than the board's " +
                  std::to_string(dataplane::kArnRemoteSlots);
        return r;
    }
    setup->tables = tables;
    plan.tables = std::move(tables);
    plan.setup = std::move(setup);
    r.plan = std::move(plan);
    return r;
}

}  // namespace weft::control
