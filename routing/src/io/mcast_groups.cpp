#include "weft/routing/mcast_groups.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <set>

#include "text_lines.hpp"

namespace weft::routing {

std::vector<McastGroupSpec> read_mcast_groups(std::string_view text, const std::string &name) {
    std::vector<McastGroupSpec> out;
    std::set<Lid> seen;
    for (const auto &l : io::split_lines(text)) {
        io::LineCursor c(name, l);
        c.skip_space();
        if (c.at_end() || c.peek() == '#') continue;
        McastGroupSpec g;
        g.line = l.number;
        const std::size_t mcol = c.column();
        const auto mlid = c.read_uint("a multicast LID (0xC000..0xFFFE)", false, 0xFFFF);
        if (mlid < kFirstMlid || mlid > kLastMlid)
            c.fail_at(mcol, "a multicast LID (0xC000..0xFFFE)", std::to_string(mlid));
        g.mlid = static_cast<Lid>(mlid);
        if (!seen.insert(g.mlid).second) c.fail_at(mcol, "an MLID not listed before", std::to_string(mlid));
        for (;;) {
            c.skip_space();
            if (c.at_end() || c.peek() == '#') break;
            const std::size_t at = c.pos();
            std::string_view word = c.read_word();
            if (const auto hash = word.find('#'); hash != std::string_view::npos) {
                word = word.substr(0, hash);
                c.seek(at + hash);
            }
            if (word == "all") {
                g.all_end_ports = true;
            } else if (word == "switches") {
                g.all_switches = true;
            } else {
                c.seek(at);
                g.port_guids.push_back(c.read_uint("a member: all, switches or a port GUID (0x<hex>)"));
                if (!c.at_end() && !io::is_space(c.peek()) && c.peek() != '#')
                    c.fail("a blank between members");
            }
        }
        if (!g.all_end_ports && !g.all_switches && g.port_guids.empty())
            c.fail("at least one member after the MLID");
        out.push_back(std::move(g));
    }
    return out;
}

namespace {

std::string hex(Guid g) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%016" PRIx64, static_cast<std::uint64_t>(g));
    return buf;
}

std::string mlid_text(Lid mlid) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%04x", static_cast<unsigned>(mlid));
    return buf;
}

}  // namespace

ResolvedMcastGroups resolve_mcast_groups(const std::vector<McastGroupSpec> &specs, const Fabric &f) {
    ResolvedMcastGroups r;
    for (const McastGroupSpec &s : specs) {
        McastGroup g;
        g.mlid = s.mlid;
        const std::string where =
            "group " + mlid_text(s.mlid) + " (line " + std::to_string(s.line) + "): port GUID ";
        for (NodeIdx n = 0; n < f.node_count(); ++n) {
            const Node &node = f.node(n);
            if (node.is_switch()) {
                if (s.all_switches) g.members.push_back({n, 0});
                continue;
            }
            if (!s.all_end_ports) continue;
            for (PortNum p = 1; p <= node.num_ports; ++p)
                if (f.port(n, p).peer != kNoNode) g.members.push_back({n, p});
        }
        for (Guid guid : s.port_guids) {
            std::optional<LidOwner> o = f.find_port_guid(guid);
            if (!o) {
                if (auto n = f.find_guid(guid); n && f.node(*n).is_switch()) o = LidOwner{*n, 0};
            }
            if (!o) {
                r.warnings.push_back(where + hex(guid) + " is not in the fabric; left out");
                continue;
            }
            if (o->port != 0 && f.port(o->node, o->port).peer == kNoNode) {
                r.warnings.push_back(where + hex(guid) + " has no link; left out");
                continue;
            }
            g.members.push_back(*o);
        }
        std::sort(g.members.begin(), g.members.end(), [](const LidOwner &a, const LidOwner &b) {
            return a.node != b.node ? a.node < b.node : a.port < b.port;
        });
        g.members.erase(std::unique(g.members.begin(), g.members.end(),
                                    [](const LidOwner &a, const LidOwner &b) {
                                        return a.node == b.node && a.port == b.port;
                                    }),
                        g.members.end());
        r.groups.push_back(std::move(g));
    }
    return r;
}

std::string write_mft_listing(const Fabric &f, const std::vector<McastTree> &trees) {
    std::vector<const McastTree *> order;
    for (const McastTree &t : trees) order.push_back(&t);
    std::stable_sort(order.begin(), order.end(), [](auto *a, auto *b) { return a->mlid < b->mlid; });
    std::vector<NodeIdx> switches;
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        if (f.node(n).is_switch()) switches.push_back(n);
    std::sort(switches.begin(), switches.end(),
              [&](NodeIdx a, NodeIdx b) { return f.node(a).guid < f.node(b).guid; });
    std::string out;
    for (const McastTree *t : order)
        for (NodeIdx n : switches) {
            const SwitchIdx sw = f.node(n).sw;
            if (sw >= t->ports.size() || t->ports[sw].empty()) continue;
            out += mlid_text(t->mlid) + " " + hex(f.node(n).guid) + " ";
            for (std::size_t i = 0; i < t->ports[sw].size(); ++i)
                out += (i ? "," : "") + std::to_string(t->ports[sw][i]);
            out += " # '" + f.node(n).desc + "'\n";
        }
    return out;
}

}  // namespace weft::routing
