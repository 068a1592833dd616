#include "pending_fabric.hpp"

#include <sstream>

namespace weft::routing::io {
namespace {

std::string hex(Guid g) {
    std::ostringstream s;
    s << "0x" << std::hex << g;
    return s.str();
}

// ibsim: the active width/speed is the widest/fastest both ends have enabled.
std::optional<LinkWidth> width_from_masks(unsigned a, unsigned b) {
    const unsigned m = a & b;
    if (m & 8) return LinkWidth::X12;
    if (m & 4) return LinkWidth::X8;
    if (m & 2) return LinkWidth::X4;
    if (m & 16) return LinkWidth::X2;
    if (m & 1) return LinkWidth::X1;
    return std::nullopt;
}

std::optional<LinkSpeed> speed_from_masks(unsigned a, unsigned b) {
    const unsigned m = a & b;
    if (m & 4) return LinkSpeed::Qdr;
    if (m & 2) return LinkSpeed::Ddr;
    if (m & 1) return LinkSpeed::Sdr;
    return std::nullopt;
}

}  // namespace

Fabric build_fabric(const std::string &file, std::vector<PendingNode> &nodes, const LinkDefaults &defaults,
                    std::size_t end_line) {
    if (nodes.empty()) throw ParseError(file, end_line, 1, "a node record (Switch, Ca or Rt)", "end of file");
    Fabric f;
    std::unordered_map<std::string, NodeIdx> by_id;
    by_id.reserve(nodes.size() * 2);
    for (auto &n : nodes) {
        if (by_id.count(n.id)) throw ParseError(n.file ? *n.file : file, n.line, 0, "a unique node id", n.id);
        if (f.find_guid(n.guid))
            throw ParseError(n.file ? *n.file : file, n.line, 0, "a unique node GUID",
                             hex(n.guid) + " (node \"" + n.id + "\")");
        by_id[n.id] = f.add_node(n.type, n.guid, n.num_ports, n.desc, n.sys_guid);
    }
    auto set_lid = [&](NodeIdx idx, PortNum p, Lid lid, std::uint8_t lmc, std::size_t line,
                       const std::string *src) {
        const std::string &where = src ? *src : file;
        if (!lid) return;
        if (lmc > 7 || lid + (Lid{1} << lmc) - 1 > kMaxExtendedLid)
            throw ParseError(where, line, 0, "a LID and LMC inside the LID space",
                             std::to_string(lid) + " lmc " + std::to_string(lmc));
        for (Lid l = lid; l < lid + (Lid{1} << lmc); ++l)
            if (auto o = f.lid_owner(l); o && !(o->node == idx && o->port == p))
                throw ParseError(where, line, 0, "a LID not used by another port",
                                 "LID " + std::to_string(l));
        f.set_lid(idx, p, lid, lmc);
    };
    // Port GUIDs first, so a CA with its port GUID named on the remote side still resolves.
    for (auto &n : nodes) {
        const NodeIdx idx = by_id[n.id];
        if (n.type == NodeType::Switch) set_lid(idx, 0, n.lid, n.lmc, n.line, n.file);
        for (auto &p : n.ports) {
            if (n.type != NodeType::Switch) {
                const Guid g = p.port_guid ? p.port_guid : n.guid + p.port;
                if (auto o = f.find_port_guid(g); o && !(o->node == idx && o->port == p.port))
                    throw ParseError(p.file ? *p.file : file, p.line, 0, "a unique port GUID", hex(g));
                f.set_port_guid(idx, p.port, g);
            }
        }
    }
    for (auto &n : nodes) {
        const NodeIdx idx = by_id[n.id];
        for (auto &p : n.ports) {
            auto it = by_id.find(p.remote_id);
            if (it == by_id.end())
                throw ParseError(p.file ? *p.file : file, p.line, p.remote_column,
                                 "the id of a node defined in the file", "\"" + p.remote_id + "\"");
            const NodeIdx peer = it->second;
            const Node &pn = f.node(peer);
            if (p.remote_port == 0 || p.remote_port > pn.num_ports)
                throw ParseError(
                    p.file ? *p.file : file, p.line, p.remote_column,
                    "a port of \"" + p.remote_id + "\" (1.." + std::to_string(pn.num_ports) + ")",
                    std::to_string(p.remote_port));
            if (peer == idx)
                throw ParseError(p.file ? *p.file : file, p.line, p.remote_column, "a cable to another node",
                                 p.remote_port == p.port
                                     ? std::string("the port itself")
                                     : "port " + std::to_string(p.remote_port) + " of the same " +
                                           (n.type == NodeType::Switch ? "switch" : "node"));
            const Port &here = f.port(idx, p.port);
            const Port &there = f.port(peer, p.remote_port);
            if (here.peer != kNoNode || there.peer != kNoNode) {
                if (here.peer == peer && here.peer_port == p.remote_port) continue;  // other end seen first
                const bool clash_here = here.peer != kNoNode;
                throw ParseError(
                    p.file ? *p.file : file, p.line, clash_here ? 0 : p.remote_column,
                    clash_here ? "port " + std::to_string(p.port) + " of \"" + n.id + "\" to be uncabled"
                               : "port " + std::to_string(p.remote_port) + " of \"" + p.remote_id +
                                     "\" to be uncabled",
                    "already cabled elsewhere");
            }
            // Width/speed: explicit value from this end, else from the other end's line, else
            // (ibsim) the enabled masks, else the defaults.
            std::optional<LinkWidth> w = p.width;
            std::optional<LinkSpeed> s = p.speed;
            const PendingPort *other = nullptr;
            for (auto &q : nodes[peer].ports)
                if (q.port == p.remote_port) other = &q;
            if (other) {
                if (!w) w = other->width;
                if (!s) s = other->speed;
            }
            if (defaults.ibsim_masks) {
                const unsigned wa = p.width_mask ? p.width_mask : defaults.width_mask;
                const unsigned wb = other && other->width_mask ? other->width_mask : defaults.width_mask;
                const unsigned sa = p.speed_mask ? p.speed_mask : defaults.speed_mask;
                const unsigned sb = other && other->speed_mask ? other->speed_mask : defaults.speed_mask;
                if (!w) w = width_from_masks(wa, wb);
                if (!s) s = speed_from_masks(sa, sb);
                if (!w)
                    throw ParseError(p.file ? *p.file : file, p.line, 0,
                                     "link widths enabled on both ends (w=)", "none in common");
                if (!s)
                    throw ParseError(p.file ? *p.file : file, p.line, 0,
                                     "link speeds enabled on both ends (s=)", "none in common");
            }
            f.connect(idx, p.port, peer, p.remote_port, w.value_or(defaults.width),
                      s.value_or(defaults.speed));
        }
    }
    // CA LIDs last: set_lid on a port needs nothing else, but keep errors after cabling ones.
    for (auto &n : nodes) {
        if (n.type == NodeType::Switch) continue;
        const NodeIdx idx = by_id[n.id];
        for (auto &p : n.ports) set_lid(idx, p.port, p.lid, p.lmc, p.line, p.file);
    }
    return f;
}

}  // namespace weft::routing::io
