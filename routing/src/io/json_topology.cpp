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
//
// Virtualized fabrics (seed 002): a CA with "vfs": N is a hypervisor whose HCA is a vSwitch with
// N VFs ("vf_lids": [LID or 0, ...] gives them LIDs); "vswitch": {"lid_scheme": "prepopulated" |
// "dynamic", "vlids": "legacy" | "extended"} at the top level; "vms": [{"name": "vm1",
// "hypervisor": "0x<node guid>", "vf": 0, "lid": 17}] (vf: the lowest free one; lid: the VF's).
#include <algorithm>
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
    if (const JsonValue *vs = doc.find("vswitch")) {
        if (vs->kind != JsonValue::Kind::Object) c.fail(*vs, "\"vswitch\" as an object");
        if (auto *ls = vs->find("lid_scheme")) {
            const std::string &v = c.str(*ls, "the LID scheme");
            if (v == "dynamic")
                f.vf_lid_scheme = VfLidScheme::Dynamic;
            else if (v != "prepopulated")
                c.fail(*ls, "lid_scheme \"prepopulated\" or \"dynamic\"", v);
        }
        if (auto *vl = vs->find("vlids")) {
            const std::string &v = c.str(*vl, "the VF LID space");
            if (v == "extended")
                f.extended_vlids = true;
            else if (v != "legacy")
                c.fail(*vl, "vlids \"legacy\" or \"extended\"", v);
        }
    }
    // A VF's LID in the space the fabric gives VFs: unicast LIDs, or vLIDs when extended.
    auto vf_lid = [&](const JsonValue &lv) {
        const auto lid = static_cast<Lid>(c.uint(lv, "a VF LID", kMaxExtendedLid));
        if (lid == 0) return lid;
        if (f.extended_vlids ? lid < kFirstVlid : lid > kMaxUnicastLid)
            c.fail(lv,
                   f.extended_vlids ? "a vLID 65536..262143 (0x10000-0x3FFFF)"
                                    : "a VF LID 1..49151 (0xBFFF; vLIDs need \"vlids\": \"extended\")",
                   lv.text);
        if (f.lid_owner(lid)) c.fail(lv, "a LID not used by another port", lv.text);
        return lid;
    };
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
        if (auto *vv = n.find("vfs")) {
            if (t != NodeType::Ca) c.fail(*vv, "\"vfs\" only on a CA (a hypervisor's vSwitch)");
            const auto count = static_cast<std::uint16_t>(c.uint(*vv, "a VF count", kMaxVfs));
            if (!count) c.fail(*vv, "a VF count 1.." + std::to_string(kMaxVfs), "0");
            f.add_vswitch(idx, count);
            if (auto *vl = n.find("vf_lids")) {
                if (vl->kind != JsonValue::Kind::Array) c.fail(*vl, "\"vf_lids\" as an array");
                if (vl->items.size() > count)
                    c.fail(*vl, "at most " + std::to_string(count) + " VF LIDs",
                           std::to_string(vl->items.size()));
                for (std::size_t i = 0; i < vl->items.size(); ++i)
                    if (const Lid lid = vf_lid(vl->items[i]))
                        f.set_vf_lid(idx, static_cast<std::uint16_t>(i), lid);
            }
        } else if (auto *vl = n.find("vf_lids")) {
            c.fail(*vl, "\"vf_lids\" only with \"vfs\"");
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
    if (const JsonValue *vms = doc.find("vms")) {
        if (vms->kind != JsonValue::Kind::Array) c.fail(*vms, "\"vms\" as an array");
        for (const JsonValue &v : vms->items) {
            if (v.kind != JsonValue::Kind::Object) c.fail(v, "a VM object");
            const JsonValue &nv = c.member(v, "name", "a VM");
            const std::string &vm_name = c.str(nv, "the VM name");
            if (vm_name.empty() || f.find_vm(vm_name)) c.fail(nv, "a unique, non-empty VM name", vm_name);
            const JsonValue &hv = c.member(v, "hypervisor", "a VM");
            const auto h = f.find_guid(c.guid(hv, "the hypervisor GUID"));
            if (!h || !f.node(*h).vswitch)
                c.fail(hv, "the GUID of a hypervisor (a CA with \"vfs\")", hv.text);
            const Node &x = f.node(*h);
            std::uint16_t vf = 0;
            if (auto *fv = v.find("vf")) {
                vf = static_cast<std::uint16_t>(c.uint(*fv, "a VF number", kMaxVfs));
                if (vf >= x.vfs)
                    c.fail(*fv, "a VF 0.." + std::to_string(x.vfs - 1) + " of '" + x.desc + "'", fv->text);
                if (f.vf(*h, vf).vm != kNoVm)
                    c.fail(*fv,
                           "a free VF of '" + x.desc + "' (VM '" + f.vms()[f.vf(*h, vf).vm].name +
                               "' runs there)",
                           fv->text);
            } else {
                std::uint16_t i = 0;
                while (i < x.vfs && f.vf(*h, i).vm != kNoVm) ++i;
                if (i == x.vfs)
                    c.fail(hv,
                           "a hypervisor with a free VF ('" + x.desc + "' runs " + std::to_string(x.vfs) +
                               " VMs on " + std::to_string(x.vfs) + " VFs)",
                           hv.text);
                vf = i;
            }
            if (auto *lv = v.find("lid")) {
                const Lid have = f.vf(*h, vf).lid;
                const auto want = static_cast<Lid>(c.uint(*lv, "a VF LID", kMaxExtendedLid));
                if (have && want != have)
                    c.fail(*lv,
                           "the LID of VF " + std::to_string(vf) + " of '" + x.desc + "' (" +
                               std::to_string(have) + ")",
                           lv->text);
                if (!have) f.set_vf_lid(*h, vf, vf_lid(*lv));
            }
            f.add_vm(vm_name, *h, vf);
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
            if (x.vswitch) {
                out += ", \"vfs\": " + std::to_string(x.vfs);
                const auto vfs = f.vfs(n);
                if (std::any_of(vfs.begin(), vfs.end(),
                                [](const VirtualFunction &v) { return v.lid != 0; })) {
                    out += ", \"vf_lids\": [";
                    for (std::size_t i = 0; i < vfs.size(); ++i)
                        out += (i ? ", " : "") + std::to_string(vfs[i].lid);
                    out += "]";
                }
            }
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
    out += first ? "  ]" : "\n  ]";
    if (f.has_vswitches()) {
        out += std::string(",\n  \"vswitch\": {\"lid_scheme\": \"") +
               (f.vf_lid_scheme == VfLidScheme::Dynamic ? "dynamic" : "prepopulated") + "\", \"vlids\": \"" +
               (f.extended_vlids ? "extended" : "legacy") + "\"},\n  \"vms\": [";
        for (std::size_t i = 0; i < f.vms().size(); ++i) {
            const VirtualMachine &vm = f.vms()[i];
            out += i ? ",\n    {\"name\": " : "\n    {\"name\": ";
            quote(out, vm.name);
            out += ", \"hypervisor\": \"" + guid_text(f.node(vm.hypervisor).guid) +
                   "\", \"vf\": " + std::to_string(vm.vf);
            if (vm.lid) out += ", \"lid\": " + std::to_string(vm.lid);
            out += "}";
        }
        out += f.vms().empty() ? "]" : "\n  ]";
    }
    out += "\n}\n";
    return out;
}

}  // namespace weft::routing
