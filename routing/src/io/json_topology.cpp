// weft's JSON topology schema (documented in routing/README.md):
//
// { "weft_topology": 1,
//   "nodes": [ { "type": "switch"|"ca"|"router", "guid": "0x...", "ports": 36, "desc": "...",
//                "sysimgguid": "0x...", "lid": 1, "lmc": 0,
//                "port_info": [ { "port": 1, "guid": "0x...", "lid": 5, "lmc": 0 } ] } ],
//   "links": [ { "a": "0x<node guid>", "pa": 1, "b": "0x<node guid>", "pb": 3,
//                "width": "4x", "speed": "EDR" } ] }
//
// GUIDs are strings (JSON numbers cannot carry 64 bits exactly). Optional: sysimgguid (= guid),
// desc (""), lid/lmc (none), port_info (port GUID = node GUID + port), width (4x), speed (EDR).
#include <cstdio>
#include <iomanip>
#include <sstream>
#include <string>

#include "json_value.hpp"
#include "weft/routing/topology_io.hpp"

namespace weft::routing {
namespace {

using io::JsonValue;

struct Ctx {
    const std::string &file;
    [[noreturn]] void fail(const JsonValue &v, const std::string &expected,
                           const std::string &found = {}) const {
        throw ParseError(file, v.line, v.column, expected, found);
    }
    const JsonValue &member(const JsonValue &obj, std::string_view key, const std::string &where) const {
        const JsonValue *v = obj.find(key);
        if (!v) fail(obj, "member \"" + std::string(key) + "\" in " + where);
        return *v;
    }
    std::uint64_t uint(const JsonValue &v, const std::string &what, std::uint64_t max) const {
        if (v.kind != JsonValue::Kind::Number || v.text.empty() || v.text[0] == '-' ||
            v.text.find_first_not_of("0123456789") != std::string::npos)
            fail(v, what + " (a non-negative integer)", v.text);
        if (v.text.size() > 19) fail(v, what + " (at most " + std::to_string(max) + ")", v.text);
        const std::uint64_t x = std::stoull(v.text);
        if (x > max) fail(v, what + " (at most " + std::to_string(max) + ")", v.text);
        return x;
    }
    Guid guid(const JsonValue &v, const std::string &what) const {
        if (v.kind != JsonValue::Kind::String || v.text.size() < 3 || v.text.size() > 18 ||
            (v.text.substr(0, 2) != "0x" && v.text.substr(0, 2) != "0X") ||
            v.text.find_first_not_of("0123456789abcdefABCDEF", 2) != std::string::npos)
            fail(v, what + " as a string \"0x<hex>\"", v.text);
        return std::stoull(v.text.substr(2), nullptr, 16);
    }
    const std::string &str(const JsonValue &v, const std::string &what) const {
        if (v.kind != JsonValue::Kind::String) fail(v, what + " (a string)");
        return v.text;
    }
};

void quote(std::string &out, std::string_view s) {
    out += '"';
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", u);
            out += buf;
        } else {
            out += c;
        }
    }
    out += '"';
}

}  // namespace

Fabric read_topology_json(std::string_view text, const std::string &name) {
    const JsonValue doc = io::parse_json(text, name);
    Ctx c{name};
    if (doc.kind != JsonValue::Kind::Object) c.fail(doc, "a JSON object at the top level");
    const JsonValue &ver = c.member(doc, "weft_topology", "the top-level object");
    if (c.uint(ver, "schema version", 1000) != 1) c.fail(ver, "schema version 1", ver.text);
    const JsonValue &nodes = c.member(doc, "nodes", "the top-level object");
    if (nodes.kind != JsonValue::Kind::Array) c.fail(nodes, "\"nodes\" as an array");
    if (nodes.items.empty()) c.fail(nodes, "at least one node in \"nodes\"", "[]");
    Fabric f;
    for (const JsonValue &n : nodes.items) {
        if (n.kind != JsonValue::Kind::Object) c.fail(n, "a node object");
        const std::string &type = c.str(c.member(n, "type", "a node"), "the node type");
        NodeType t;
        if (type == "switch")
            t = NodeType::Switch;
        else if (type == "ca")
            t = NodeType::Ca;
        else if (type == "router")
            t = NodeType::Router;
        else
            c.fail(*n.find("type"), "node type \"switch\", \"ca\" or \"router\"", type);
        const JsonValue &gv = c.member(n, "guid", "a node");
        const Guid g = c.guid(gv, "the node GUID");
        if (f.find_guid(g)) c.fail(gv, "a unique node GUID", gv.text);
        const JsonValue &pv = c.member(n, "ports", "a node");
        const auto ports = static_cast<PortNum>(c.uint(pv, "the port count", 254));
        if (!ports) c.fail(pv, "a port count 1..254", "0");
        std::string desc;
        if (auto *d = n.find("desc")) desc = c.str(*d, "the node description");
        Guid sys = 0;
        if (auto *s = n.find("sysimgguid")) sys = c.guid(*s, "the system image GUID");
        const NodeIdx idx = f.add_node(t, g, ports, desc, sys);
        auto lid_of = [&](const JsonValue &obj, PortNum p) {
            const JsonValue *lv = obj.find("lid");
            if (!lv) return;
            const auto lid = static_cast<Lid>(c.uint(*lv, "a LID", kMaxExtendedLid));
            std::uint8_t lmc = 0;
            if (auto *m = obj.find("lmc")) lmc = static_cast<std::uint8_t>(c.uint(*m, "an LMC", 7));
            if (!lid) return;
            if (lid + (Lid{1} << lmc) - 1 > kMaxExtendedLid) c.fail(*lv, "a LID block inside the LID space");
            for (Lid l = lid; l < lid + (Lid{1} << lmc); ++l)
                if (f.lid_owner(l)) c.fail(*lv, "a LID not used by another port", std::to_string(l));
            f.set_lid(idx, p, lid, lmc);
        };
        if (t == NodeType::Switch) {
            lid_of(n, 0);
        } else {
            for (PortNum p = 1; p <= ports; ++p) f.set_port_guid(idx, p, g + p);
        }
        if (auto *pi = n.find("port_info")) {
            if (pi->kind != JsonValue::Kind::Array) c.fail(*pi, "\"port_info\" as an array");
            for (const JsonValue &e : pi->items) {
                if (e.kind != JsonValue::Kind::Object) c.fail(e, "a port_info object");
                const JsonValue &num = c.member(e, "port", "a port_info entry");
                const auto p = static_cast<PortNum>(c.uint(num, "a port number", 254));
                if (p == 0 || p > ports) c.fail(num, "a port number 1.." + std::to_string(ports), num.text);
                if (t == NodeType::Switch)
                    c.fail(e, "port_info only on CAs and routers (a switch has one LID)");
                if (auto *pg = e.find("guid")) {
                    const Guid x = c.guid(*pg, "the port GUID");
                    if (auto o = f.find_port_guid(x); o && !(o->node == idx && o->port == p))
                        c.fail(*pg, "a unique port GUID", pg->text);
                    f.set_port_guid(idx, p, x);
                }
                lid_of(e, p);
            }
        }
    }
    if (const JsonValue *links = doc.find("links")) {
        if (links->kind != JsonValue::Kind::Array) c.fail(*links, "\"links\" as an array");
        for (const JsonValue &l : links->items) {
            if (l.kind != JsonValue::Kind::Object) c.fail(l, "a link object");
            NodeIdx end[2];
            PortNum port[2];
            const char *keys[2][2] = {{"a", "pa"}, {"b", "pb"}};
            for (int k = 0; k < 2; ++k) {
                const JsonValue &gv = c.member(l, keys[k][0], "a link");
                const auto n = f.find_guid(c.guid(gv, "a node GUID"));
                if (!n) c.fail(gv, "the GUID of a node in \"nodes\"", gv.text);
                end[k] = *n;
                const JsonValue &pv = c.member(l, keys[k][1], "a link");
                port[k] = static_cast<PortNum>(c.uint(pv, "a port number", 254));
                if (port[k] == 0 || port[k] > f.node(*n).num_ports)
                    c.fail(pv, "a port number 1.." + std::to_string(f.node(*n).num_ports), pv.text);
                if (f.port(*n, port[k]).peer != kNoNode)
                    c.fail(pv, "a port not cabled by an earlier link", pv.text);
            }
            if (end[0] == end[1]) c.fail(l, "a link between two different nodes");
            LinkWidth w = LinkWidth::X4;
            LinkSpeed s = LinkSpeed::Edr;
            if (auto *wv = l.find("width")) {
                auto x = parse_width(c.str(*wv, "the link width"));
                if (!x) c.fail(*wv, "a link width 1x/2x/4x/8x/12x", wv->text);
                w = *x;
            }
            if (auto *sv = l.find("speed")) {
                auto x = parse_speed(c.str(*sv, "the link speed"));
                if (!x) c.fail(*sv, "a link speed SDR..XDR", sv->text);
                s = *x;
            }
            f.connect(end[0], port[0], end[1], port[1], w, s);
        }
    }
    return f;
}

std::string write_topology_json(const Fabric &f) {
    std::string out = "{\n  \"weft_topology\": 1,\n  \"nodes\": [\n";
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const Node &x = f.node(n);
        out += "    {\"type\": ";
        out += x.type == NodeType::Switch ? "\"switch\"" : x.type == NodeType::Ca ? "\"ca\"" : "\"router\"";
        out += ", \"guid\": \"" + guid_text(x.guid) + "\", \"ports\": " + std::to_string(x.num_ports) +
               ", \"desc\": ";
        quote(out, x.desc);
        if (x.sys_guid != x.guid) out += ", \"sysimgguid\": \"" + guid_text(x.sys_guid) + "\"";
        if (x.is_switch()) {
            const Port &p0 = f.port(n, 0);
            if (p0.lid)
                out += ", \"lid\": " + std::to_string(p0.lid) + ", \"lmc\": " + std::to_string(p0.lmc);
        } else {
            std::string info;
            for (PortNum p = 1; p <= x.num_ports; ++p) {
                const Port &pp = f.port(n, p);
                const bool odd_guid = pp.guid && pp.guid != x.guid + p;
                if (!odd_guid && !pp.lid) continue;
                if (!info.empty()) info += ", ";
                info += "{\"port\": " + std::to_string(p);
                if (odd_guid) info += ", \"guid\": \"" + guid_text(pp.guid) + "\"";
                if (pp.lid)
                    info += ", \"lid\": " + std::to_string(pp.lid) + ", \"lmc\": " + std::to_string(pp.lmc);
                info += "}";
            }
            if (!info.empty()) out += ", \"port_info\": [" + info + "]";
        }
        out += n + 1 < f.node_count() ? "},\n" : "}\n";
    }
    out += "  ],\n  \"links\": [\n";
    bool first = true;
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port &x = f.port(n, p);
            if (x.peer == kNoNode || x.peer < n || (x.peer == n && x.peer_port < p))
                continue;  // each cable once
            if (!first) out += ",\n";
            first = false;
            out += "    {\"a\": \"" + guid_text(f.node(n).guid) + "\", \"pa\": " + std::to_string(p) +
                   ", \"b\": \"" + guid_text(f.node(x.peer).guid) +
                   "\", \"pb\": " + std::to_string(x.peer_port) + ", \"width\": \"" +
                   std::string(width_name(x.width)) + "\", \"speed\": \"" + std::string(speed_name(x.speed)) +
                   "\"}";
        }
    }
    out += first ? "  ]\n}\n" : "\n  ]\n}\n";
    return out;
}

}  // namespace weft::routing
