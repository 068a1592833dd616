#include "ars_json.hpp"

#include <nlohmann/json.hpp>

namespace weft::routing::tools {
namespace {

using nlohmann::json;

json node_ref(const Fabric &f, NodeIdx n) {
    return {{"guid", guid_text(f.node(n).guid)}, {"name", f.node(n).desc}};
}

json ports(std::span<const PortNum> p) {
    json a = json::array();
    for (PortNum x : p) a.push_back(x);
    return a;
}

}  // namespace

void write_ars_groups_json(std::ostream &out, const Fabric &f, const std::string &engine, const ArsGroups &g,
                           const ArsCompileReport &r, const CreditLoopReport &union_check) {
    json dests = json::array();
    for (const ArsDestination &d : g.destinations) {
        const NodeIdx n = f.switch_node(d.sw);
        json j = node_ref(f, n);
        j["lid"] = d.lid;
        json lids = json::array();
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port &x = f.port(n, p);
            if (x.linked() && !f.node(x.peer).is_switch())
                lids.push_back({{"port", p}, {"lid", f.port(x.peer, x.peer_port).lid}});
        }
        j["host_ports"] = std::move(lids);
        dests.push_back(std::move(j));
    }
    json left = json::object();
    for (std::size_t i = 0; i < kArsLeftOutReasons; ++i) {
        const ArsLeftOutCount &c = r.left_out[i];
        json e = {{"count", c.count}};
        if (c.count) {
            json ex = node_ref(f, f.switch_node(c.example.sw));
            ex["port"] = c.example.port;
            ex["destination"] = c.example.dest;
            e["example"] = std::move(ex);
        }
        left[ars_left_out_name(static_cast<ArsLeftOut>(i))] = std::move(e);
    }
    const json summary = {
        {"destinations", g.destinations.size()},
        {"groups", r.groups},
        {"unrouted", r.unrouted},
        {"primaries", r.primaries},
        {"alternates", r.alternates},
        {"left_out_total", r.left_out_total()},
        {"left_out", std::move(left)},
        {"engine_credit_loop", r.engine_cycle.has_cycle},
        {"distance", ars_distance_name(r.distance)},
        {"union_check",
         {{"credit_loop", union_check.has_cycle},
          {"vls", union_check.vls},
          {"dependencies", union_check.dependencies}}},
    };
    out << "{\"weft_ars_groups\": 1,\n\"engine\": " << json(engine).dump()
        << ",\n\"summary\": " << summary.dump() << ",\n\"destinations\": " << dests.dump()
        << ",\n\"switches\": [";
    for (SwitchIdx s = 0; s < g.switches; ++s) {
        json sw = node_ref(f, f.switch_node(s));
        json groups = json::array();
        for (std::size_t d = 0; d < g.destinations.size(); ++d) {
            const ArsGroup grp = g.group(d, s);
            if (grp.fixed == kNoPort) continue;
            groups.push_back({{"destination", d},
                              {"fixed", grp.fixed},
                              {"primary", ports(grp.primary)},
                              {"alternate", ports(grp.alternate)}});
        }
        sw["groups"] = std::move(groups);
        out << (s ? ",\n" : "\n") << sw.dump();
    }
    out << "\n]}\n";
}

}  // namespace weft::routing::tools
