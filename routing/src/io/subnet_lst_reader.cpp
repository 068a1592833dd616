// Reader for OpenSM's opensm-subnet.lst: one line per port of every link (so each cable twice),
//
//   { CA Ports:02 SystemGUID:... NodeGUID:... PortGUID:... VenID:... DevID:... Rev:... {desc}
//     LID:0002 PN:01 } { SW-SM Ports:08 ... {desc} LID:0001 PN:01 } PHY=4x LOG=ACT SPD=2.5
//
// Ports, LID and PN are hexadecimal. SPD is the lane rate in Gb/s (2.5, 5, 10, 14, 25, 50,
// 100, 200) or FDR10. A switch's LID is that of its port 0.
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "pending_fabric.hpp"
#include "text_lines.hpp"
#include "weft/routing/topology_io.hpp"

namespace weft::routing {
namespace {

using io::LineCursor;

struct End {
    NodeType type = NodeType::Ca;
    PortNum ports = 0;
    Guid sys = 0, node = 0, port_guid = 0;
    std::string desc;
    Lid lid = 0;
    PortNum pn = 0;
};

std::uint64_t field(LineCursor &c, std::string_view key, const char *what, std::uint64_t max) {
    c.skip_space();
    if (!c.accept(key)) c.fail(std::string(key) + " and " + what);
    return c.read_uint(what, true, max);
}

End read_end(LineCursor &c) {
    End e;
    c.skip_space();
    c.expect('{', "'{' opening a port description");
    c.skip_space();
    const std::size_t tcol = c.column();
    std::string_view type = c.read_word();
    if (type.size() > 3 && type.substr(type.size() - 3) == "-SM") type.remove_suffix(3);
    if (type == "CA")
        e.type = NodeType::Ca;
    else if (type == "SW")
        e.type = NodeType::Switch;
    else if (type == "RT" || type == "Rt")
        e.type = NodeType::Router;
    else
        c.fail_at(tcol, "a node type CA, SW or RT", type);
    const std::size_t pcol = c.column() + 1;
    e.ports = static_cast<PortNum>(field(c, "Ports:", "the port count in hex", 254));
    if (!e.ports) c.fail_at(pcol, "a port count 1..254", "0");
    e.sys = field(c, "SystemGUID:", "a hex GUID", ~0ull);
    e.node = field(c, "NodeGUID:", "a hex GUID", ~0ull);
    e.port_guid = field(c, "PortGUID:", "a hex GUID", ~0ull);
    field(c, "VenID:", "a hex vendor id", ~0ull);
    field(c, "DevID:", "a hex device id", ~0ull);
    field(c, "Rev:", "a hex revision", ~0ull);
    c.skip_space();
    c.expect('{', "'{' opening the node description");
    // The description runs to the "} LID:" that follows it (it may contain braces).
    const auto end = c.rest().find("} LID:");
    if (end == std::string_view::npos) c.fail("the node description followed by '} LID:'");
    e.desc = std::string(c.rest().substr(0, end));
    c.seek(c.pos() + end + 1);
    e.lid = static_cast<Lid>(field(c, "LID:", "the LID in hex", kMaxExtendedLid));
    const std::size_t ncol = c.column() + 1;
    e.pn = static_cast<PortNum>(field(c, "PN:", "the port number in hex", 254));
    if (e.pn == 0 || e.pn > e.ports)
        c.fail_at(ncol, "a port number 1.." + std::to_string(e.ports), std::to_string(e.pn));
    c.skip_space();
    c.expect('}', "'}' closing the port description");
    return e;
}

std::optional<LinkSpeed> speed_from_gbps(std::string_view s) {
    if (s == "2.5") return LinkSpeed::Sdr;
    if (s == "5") return LinkSpeed::Ddr;
    if (s == "10") return LinkSpeed::Qdr;
    if (s == "FDR10") return LinkSpeed::Fdr10;
    if (s == "14") return LinkSpeed::Fdr;
    if (s == "25") return LinkSpeed::Edr;
    if (s == "50") return LinkSpeed::Hdr;
    if (s == "100") return LinkSpeed::Ndr;
    if (s == "200") return LinkSpeed::Xdr;
    return std::nullopt;
}

}  // namespace

Fabric read_subnet_lst(std::string_view text, const std::string &name) {
    std::vector<io::PendingNode> nodes;
    std::unordered_map<Guid, std::size_t> by_guid;
    auto node_for = [&](const End &e, std::size_t line, LineCursor &c) -> std::size_t {
        auto it = by_guid.find(e.node);
        if (it == by_guid.end()) {
            io::PendingNode n;
            n.type = e.type;
            n.guid = e.node;
            n.sys_guid = e.sys;
            n.num_ports = e.ports;
            n.desc = e.desc;
            n.line = line;
            char id[20];
            std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(e.node));
            n.id = id;
            it = by_guid.emplace(e.node, nodes.size()).first;
            nodes.push_back(std::move(n));
        }
        io::PendingNode &n = nodes[it->second];
        if (n.type != e.type || n.num_ports != e.ports)
            c.fail_at(1, "the same type and port count as on line " + std::to_string(n.line), n.desc);
        if (n.type == NodeType::Switch) n.lid = e.lid;
        return it->second;
    };
    const auto lines = io::split_lines(text);
    for (const auto &l : lines) {
        LineCursor c(name, l);
        c.skip_space();
        if (c.at_end() || c.peek() == '#') continue;
        const End a = read_end(c);
        const End b = read_end(c);
        c.skip_space();
        if (!c.accept("PHY=")) c.fail("PHY=<width>");
        const std::size_t wcol = c.column();
        const auto w = parse_width(c.read_word());
        if (!w) c.fail_at(wcol, "a link width 1x/2x/4x/8x/12x", c.text().substr(wcol - 1));
        c.skip_space();
        if (!c.accept("LOG=")) c.fail("LOG=<state>");
        c.read_word();
        c.skip_space();
        if (!c.accept("SPD=")) c.fail("SPD=<lane rate>");
        const std::size_t scol = c.column();
        const std::string_view sw = c.read_word();
        const auto s = speed_from_gbps(sw);
        if (!s) c.fail_at(scol, "a lane rate 2.5/5/10/FDR10/14/25/50/100/200", sw);
        const std::size_t ia = node_for(a, l.number, c);
        const std::string bid = nodes[node_for(b, l.number, c)].id;
        io::PendingNode &na2 = nodes[ia];  // after both lookups: the vector may have grown
        bool seen = false;
        for (auto &p : na2.ports)
            if (p.port == a.pn) {
                if (p.remote_id != bid || p.remote_port != b.pn)
                    c.fail_at(1, "port " + std::to_string(a.pn) + " of " + na2.desc + " cabled once",
                              "a second cable");
                seen = true;
            }
        if (seen) continue;
        io::PendingPort p;
        p.port = a.pn;
        if (a.type != NodeType::Switch) {
            p.port_guid = a.port_guid;
            p.lid = a.lid;
        }
        p.remote_id = bid;
        p.remote_port = b.pn;
        p.width = w;
        p.speed = s;
        p.line = l.number;
        p.remote_column = 1;
        na2.ports.push_back(std::move(p));
    }
    io::LinkDefaults d;
    return io::build_fabric(name, nodes, d, lines.size() + 1);
}

}  // namespace weft::routing
