#include "weft/sm/discovery.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "weft/sm/node_description.hpp"

namespace weft::sm {

namespace {

constexpr std::size_t kFromSm = std::numeric_limits<std::size_t>::max();

std::string hex(std::uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
    return buf;
}

routing::LinkWidth width_of(std::uint8_t active) {
    switch (active) {
        case 1:
            return routing::LinkWidth::X1;
        case 4:
            return routing::LinkWidth::X8;
        case 8:
            return routing::LinkWidth::X12;
        case 16:
            return routing::LinkWidth::X2;
        default:
            return routing::LinkWidth::X4;
    }
}

routing::LinkSpeed speed_of(const PortInfo &p) {
    switch (p.link_speed_ext_active) {  // FDR and later are reported in the extended field
        case 1:
            return routing::LinkSpeed::Fdr;
        case 2:
            return routing::LinkSpeed::Edr;
        case 4:
            return routing::LinkSpeed::Hdr;
        case 8:
            return routing::LinkSpeed::Ndr;
        default:
            break;
    }
    switch (p.link_speed_active) {
        case 1:
            return routing::LinkSpeed::Sdr;
        case 2:
            return routing::LinkSpeed::Ddr;
        default:
            return routing::LinkSpeed::Qdr;
    }
}

routing::PortState state_of(PortState s) {
    switch (s) {
        case PortState::kInit:
            return routing::PortState::Init;
        case PortState::kArmed:
            return routing::PortState::Armed;
        case PortState::kActive:
        case PortState::kActiveDefer:
            return routing::PortState::Active;
        default:
            return routing::PortState::Down;
    }
}

}  // namespace

void connect_as_read(routing::Fabric &f, routing::NodeIdx a, PortNum pa, routing::NodeIdx b, PortNum pb,
                     const PortInfo &pi) {
    f.connect(a, pa, b, pb, width_of(pi.link_width_active), speed_of(pi), state_of(pi.port_state));
}

std::string path_text(const DrPath &path) {
    std::string s = "0";
    for (auto p : path) s += "," + std::to_string(p);
    return s;
}

const DrPath *DiscoveredNode::route_to_port(PortNum port) const {
    if (is_switch()) return &path;
    if (port < port_path.size() && port_path[port]) return &*port_path[port];
    return nullptr;
}

Discovery::Discovery(DiscoveryOptions options) : options_(std::move(options)) {}

void Discovery::start(SmpEngine &engine, SmTime now) {
    ask(engine, now, Ask::kNodeInfo, kFromSm, 0, {});
}

std::uint64_t ethernet_hosts_guid(std::uint64_t switch_guid, PortNum port) {
    return 0xFE00000000000000ULL | (switch_guid & 0x0000FFFFFFFFFFFFULL) << 8 | port;
}

void Discovery::ask(SmpEngine &engine, SmTime now, Ask what, std::size_t node, PortNum port, DrPath path,
                    std::uint16_t block) {
    static constexpr std::uint16_t kIds[] = {attr::kNodeInfo, attr::kNodeDescription, attr::kSwitchInfo,
                                             attr::kPortInfo, attr::kWeftHostSubnets};
    const std::uint16_t id = kIds[static_cast<int>(what)];
    const std::uint32_t mod = what == Ask::kPortInfo ? port : what == Ask::kHostSubnets ? block : 0;
    const std::uint64_t cookie = pending_.size();
    SmpRequest r{make_dr_smp(Method::kGet, id, mod, path, 0), kPermissiveLid, cookie};
    pending_.push_back({what, node, port, std::move(path), block});
    engine.submit(std::move(r), now);
}

std::string Discovery::name(std::size_t node) const {
    const DiscoveredNode &n = nodes_[node];
    return std::string(n.is_switch() ? "switch " : "CA ") + hex(n.info.node_guid) +
           (n.description.empty() ? "" : " '" + n.description + "'");
}

void Discovery::problem(std::string line) {
    line.insert(0, "discovery: ");
    if (options_.log) options_.log(line);
    problems_.push_back(std::move(line));
}

void Discovery::on_completion(SmpEngine &engine, const SmpCompletion &c, SmTime now) {
    if (c.cookie >= pending_.size()) return;
    const Pending p = pending_[c.cookie];
    if (p.ask == Ask::kHostSubnets && c.outcome == SmpOutcome::kResponse &&
        (c.response.status & 0x1C) == status::kUnsupportedMethodAttr)
        return subnets_done(engine, now, p.node);  // no weft switch in Ethernet mode: no host ports
    if (c.outcome != SmpOutcome::kResponse || c.response.status != 0) {
        switch (c.outcome) {
            case SmpOutcome::kTimedOut:
                ++stats_.timeouts;
                break;
            case SmpOutcome::kMalformed:
                ++stats_.malformed;
                break;
            case SmpOutcome::kResponse:
                ++stats_.error_status;
                break;
            default:
                ++stats_.send_failures;
                break;
        }
        failed(p, failure_text(c));
        if (p.ask == Ask::kHostSubnets) subnets_done(engine, now, p.node);
        return;
    }
    const bool switch_port = p.ask == Ask::kPortInfo && nodes_[p.node].is_switch() && p.port != 0;
    // An attribute that does not decode is as good as no reply: counted with its kind.
    auto bad = [&](const SmpError &e) {
        engine.count_malformed(c.request);
        ++stats_.malformed;
        failed(p, "malformed reply: " + e.message());
    };
    switch (p.ask) {
        case Ask::kNodeInfo: {
            auto info = decode_node_info(c.response);
            if (!info) return bad(info.error());
            node_info(engine, now, p, *info);
            break;
        }
        case Ask::kNodeDescription: {
            auto d = decode_node_description(c.response);
            if (!d) return bad(d.error());
            nodes_[p.node].description = printable_node_description(d->text);
            break;
        }
        case Ask::kSwitchInfo: {
            auto s = decode_switch_info(c.response);
            if (!s) return bad(s.error());
            nodes_[p.node].switch_info = *s;
            break;
        }
        case Ask::kPortInfo: {
            auto info =
                decode_port_info(c.response, switch_port ? PortKind::kSwitchExternal : PortKind::kEndPort);
            if (!info) return bad(info.error());
            port_info(engine, now, p, *info);
            break;
        }
        case Ask::kHostSubnets: {
            auto b = decode_host_subnets_block(c.response);
            if (!b) return bad(b.error());
            host_subnets(engine, now, p, *b);
            break;
        }
    }
}

void Discovery::host_subnets(SmpEngine &engine, SmTime now, const Pending &p, const HostSubnetsBlock &b) {
    DiscoveredNode &n = nodes_[p.node];
    if (n.vanished) return subnets_done(engine, now, p.node);
    if (p.block == 0) {
        n.host_subnets.clear();
        n.host_subnets_version = b.version;
    } else if (n.host_subnets_version != b.version) {
        // Changed between two blocks: read again from the start, once.
        if (!reread_.insert(p.node).second) {
            problem("WeftHostSubnets of " + name(p.node) +
                    " keep changing while read; its ports are followed");
            n.host_subnets.clear();
            n.host_subnets_version.reset();
            return subnets_done(engine, now, p.node);
        }
        return ask(engine, now, Ask::kHostSubnets, p.node, 0, p.path, 0);
    }
    for (const HostSubnet &s : b.entries)
        if (!s.prefix.empty()) n.host_subnets.push_back(s);
    if (n.host_subnets.size() < b.total && HostSubnetsBlock::blocks_for(b.total) > p.block + 1u)
        return ask(engine, now, Ask::kHostSubnets, p.node, 0, p.path,
                   static_cast<std::uint16_t>(p.block + 1));
    subnets_done(engine, now, p.node);
}

void Discovery::subnets_done(SmpEngine &engine, SmTime now, std::size_t node) {
    auto it = deferred_.find(node);
    if (it == deferred_.end()) return;
    const std::vector<PortNum> ports = std::move(it->second);
    deferred_.erase(it);
    for (PortNum port : ports) {
        if (host_port(node, port)) {
            ++stats_.host_ports;
            continue;
        }
        follow(engine, now, node, port, nodes_[node].path);
    }
}

void Discovery::failed(const Pending &p, const std::string &why) {
    const std::string via = " via path " + path_text(p.path);
    switch (p.ask) {
        case Ask::kNodeInfo:
            if (p.node == kFromSm) {
                problem("the SM's own node does not answer NodeInfo: " + why);
            } else {
                ++stats_.dark_ports;
                problem("port " + std::to_string(p.port) + " of " + name(p.node) +
                        " is up but nothing behind it answers NodeInfo" + via + ": " + why);
            }
            return;
        case Ask::kNodeDescription:
            problem("NodeDescription of " + name(p.node) + via + ": " + why + " (kept without one)");
            return;
        case Ask::kSwitchInfo:
            break;
        case Ask::kHostSubnets:
            problem("WeftHostSubnets of " + name(p.node) + via + ": " + why + "; its ports are followed");
            nodes_[p.node].host_subnets.clear();
            nodes_[p.node].host_subnets_version.reset();
            return;  // the caller follows the ports
        case Ask::kPortInfo: {
            DiscoveredNode &n = nodes_[p.node];
            if (!n.is_switch() || p.port == 0) break;  // a CA's port or a switch's own port: the node is lost
            problem("PortInfo of port " + std::to_string(p.port) + " of " + name(p.node) + via + ": " + why +
                    " (port left out)");
            return;
        }
    }
    DiscoveredNode &n = nodes_[p.node];
    if (!n.is_switch()) {
        // A CA is lost when none of its reached ports could be read.
        n.port_path[p.port].reset();
        n.port_guid[p.port] = 0;
        const bool any = std::any_of(n.port_path.begin(), n.port_path.end(), [](const auto &x) { return x; });
        if (any) {
            problem("PortInfo of port " + std::to_string(p.port) + " of " + name(p.node) + via + ": " + why +
                    " (port left out)");
            return;
        }
    }
    if (!n.vanished) {
        n.vanished = true;
        ++stats_.vanished;
    }
    const std::string what =
        p.ask == Ask::kSwitchInfo ? std::string("SwitchInfo") : "PortInfo of port " + std::to_string(p.port);
    problem(what + " of " + name(p.node) + via + ": " + why +
            "; the node vanished mid-sweep and is left out");
}

bool Discovery::link(End a, End b, const DrPath &path) {
    for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
        auto it = links_.find(key(x.node, x.port));
        if (it != links_.end() && !(it->second == y)) {
            ++stats_.duplicate_guids;
            problem("duplicate GUID: port " + std::to_string(x.port) + " of " + name(x.node) +
                    " links to port " + std::to_string(it->second.port) + " of " + name(it->second.node) +
                    ", but path " + path_text(path) + " finds it linked to port " + std::to_string(y.port) +
                    " of " + name(y.node) + "; link left out");
            return false;
        }
    }
    links_[key(a.node, a.port)] = b;
    links_[key(b.node, b.port)] = a;
    return true;
}

void Discovery::node_info(SmpEngine &engine, SmTime now, const Pending &p, const NodeInfo &info) {
    const bool from_sm = p.node == kFromSm;
    const PortNum in = info.local_port_num;
    // Through a link, an SMP enters by a physical port: port 0 is only ever the SM's own switch
    // at hop 0, and a port cannot be cabled to itself.
    auto reject = [&](const char *why) {
        ++stats_.malformed;
        ++stats_.dark_ports;
        problem("NodeInfo of node " + hex(info.node_guid) + " via path " + path_text(p.path) +
                " says it was entered by port " + std::to_string(in) + ", " + why + "; port " +
                std::to_string(p.port) + " of " + name(p.node) + " left unlinked");
    };
    if (!from_sm && in == 0) return reject("which no link reaches");
    if (!from_sm && by_guid_.count(info.node_guid) && by_guid_.at(info.node_guid) == p.node && in == p.port)
        return reject("the very port the SMP left by");
    auto it = by_guid_.find(info.node_guid);
    if (it != by_guid_.end()) {
        const std::size_t k = it->second;
        DiscoveredNode &n = nodes_[k];
        if (n.info.node_type != info.node_type || n.info.num_ports != info.num_ports ||
            n.info.system_image_guid != info.system_image_guid) {
            ++stats_.duplicate_guids;
            problem("duplicate GUID " + hex(info.node_guid) + ": path " + path_text(p.path) + " reaches a " +
                    (info.is_switch() ? "switch" : "CA") + " with " + std::to_string(info.num_ports) +
                    " ports, but the GUID is " + name(k) + " with " + std::to_string(n.info.num_ports) +
                    " (path " + path_text(n.path) + "); left out");
            return;
        }
        if (n.vanished || from_sm) return;
        if (!n.is_switch() && n.port_guid[in] != 0 && n.port_guid[in] != info.port_guid) {
            ++stats_.duplicate_guids;
            problem("duplicate GUID " + hex(info.node_guid) + ": port " + std::to_string(in) +
                    " reached by path " + path_text(p.path) + " has port GUID " + hex(info.port_guid) +
                    ", known as " + hex(n.port_guid[in]) + "; left out");
            return;
        }
        const bool new_port = !n.is_switch() && !n.port_path[in];
        if (new_port && port_guid_taken(info, k, p.path)) return;
        if (!link({p.node, p.port}, {k, in}, p.path)) return;
        if (new_port) {
            // Another port of a known CA: read it through the route that enters by it.
            n.port_path[in] = p.path;
            n.port_guid[in] = info.port_guid;
            by_port_guid_.emplace(info.port_guid, k);
            ask(engine, now, Ask::kPortInfo, k, in, p.path);
        }
        return;
    }
    if (port_guid_taken(info, nodes_.size(), p.path)) return;
    const std::size_t k = nodes_.size();
    DiscoveredNode &n = nodes_.emplace_back();
    n.info = info;
    n.path = p.path;
    n.ports.resize(info.num_ports + 1u);
    n.port_path.resize(info.num_ports + 1u);
    n.port_guid.resize(info.num_ports + 1u);
    if (from_sm) {
        reached_ = true;
        sm_port_ = in;
    } else if (!link({p.node, p.port}, {k, in}, p.path)) {
        nodes_.pop_back();  // the parent's port is cabled elsewhere: not a node of this fabric
        return;
    }
    by_guid_.emplace(info.node_guid, k);
    by_port_guid_.emplace(info.port_guid, k);
    if (const auto *known = options_.descriptions; known && known->contains(info.node_guid))
        n.description = known->at(info.node_guid);
    else
        ask(engine, now, Ask::kNodeDescription, k, 0, p.path);
    if (info.is_switch()) {
        if (options_.ethernet) {
            deferred_[k];
            ask(engine, now, Ask::kHostSubnets, k, 0, p.path);
        }
        ask(engine, now, Ask::kSwitchInfo, k, 0, p.path);
        for (unsigned port = 0; port <= info.num_ports; ++port)
            ask(engine, now, Ask::kPortInfo, k, static_cast<PortNum>(port), p.path);
    } else {
        n.port_path[in] = p.path;
        n.port_guid[in] = info.port_guid;
        ask(engine, now, Ask::kPortInfo, k, in, p.path);
    }
}

bool Discovery::port_guid_taken(const NodeInfo &info, std::size_t node, const DrPath &path) {
    auto it = by_port_guid_.find(info.port_guid);
    if (it == by_port_guid_.end() || it->second == node) return false;
    ++stats_.duplicate_guids;
    problem("duplicate port GUID " + hex(info.port_guid) + ": path " + path_text(path) + " reaches node " +
            hex(info.node_guid) + " whose port " + std::to_string(info.local_port_num) +
            " has it, but it is " + name(it->second) + "'s; left out");
    return true;
}

void Discovery::port_info(SmpEngine &engine, SmTime now, const Pending &p, const PortInfo &info) {
    DiscoveredNode &n = nodes_[p.node];
    if (n.vanished) return;
    n.ports[p.port] = info;
    // Only a switch forwards directed-route SMPs, and the SM's own CA sends them out of its port.
    const bool sm_ca_port = !n.is_switch() && p.path.empty() && p.port == sm_port_;
    if (!(n.is_switch() && p.port != 0) && !sm_ca_port) return;
    if (info.phys_state != PhysState::kLinkUp) return;
    if (auto it = deferred_.find(p.node); it != deferred_.end()) {
        it->second.push_back(p.port);  // followed once the switch's host ports are known
        return;
    }
    if (host_port(p.node, p.port)) {
        ++stats_.host_ports;
        return;
    }
    follow(engine, now, p.node, p.port, p.path);
}

bool Discovery::host_port(std::size_t node, PortNum port) const {
    const auto &s = nodes_[node].host_subnets;
    return std::any_of(s.begin(), s.end(), [&](const HostSubnet &h) { return h.port == port; });
}

void Discovery::follow(SmpEngine &engine, SmTime now, std::size_t node, PortNum port, const DrPath &path) {
    if (links_.count(key(node, port))) return;  // already known from the other side
    if (path.size() >= kMaxHops) {
        problem("port " + std::to_string(port) + " of " + name(node) + " lies past the " +
                std::to_string(kMaxHops) + " hops a directed route can take; not followed");
        return;
    }
    DrPath next = path;
    next.push_back(port);
    ask(engine, now, Ask::kNodeInfo, node, port, std::move(next));
}

std::vector<DiscoveredNode> Discovery::add_host_nodes(DiscoveryResult &r,
                                                      const std::vector<routing::NodeIdx> &idx) {
    std::vector<DiscoveredNode> out;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        const DiscoveredNode &sw = nodes_[i];
        if (idx[i] == routing::kNoNode || !sw.is_switch()) continue;
        std::vector<PortNum> ports;
        for (const HostSubnet &s : sw.host_subnets)
            if (std::find(ports.begin(), ports.end(), s.port) == ports.end()) ports.push_back(s.port);
        std::sort(ports.begin(), ports.end());
        for (PortNum port : ports) {
            if (port > sw.info.num_ports || !sw.ports[port] ||
                sw.ports[port]->phys_state != PhysState::kLinkUp)
                continue;  // no hosts reachable behind it now
            if (links_.count(key(i, port))) {
                problem("port " + std::to_string(port) + " of " + name(i) +
                        " has host subnets but leads to a node that answers SMPs; treated as a fabric port");
                continue;
            }
            const std::uint64_t guid = ethernet_hosts_guid(sw.info.node_guid, port);
            if (by_guid_.count(guid) || by_port_guid_.count(guid)) {
                ++stats_.duplicate_guids;
                problem("the hosts behind port " + std::to_string(port) + " of " + name(i) +
                        " would have GUID " + hex(guid) + ", which a node of the fabric has; left out");
                continue;
            }
            const PortInfo &pi = *sw.ports[port];
            DiscoveredNode h;
            h.info.node_type = NodeType::kCa;
            h.info.num_ports = 1;
            h.info.node_guid = guid;
            h.info.port_guid = guid;
            h.info.system_image_guid = guid;
            h.info.local_port_num = 1;
            h.description = (sw.description.empty() ? hex(sw.info.node_guid) : sw.description) + " port " +
                            std::to_string(port) + " hosts";
            h.ports.resize(2);
            h.port_path.resize(2);
            h.port_guid = {0, guid};
            const routing::NodeIdx n = r.fabric.add_node(routing::NodeType::Ca, guid, 1, h.description, guid);
            r.fabric.set_port_guid(n, 1, guid);
            r.fabric.connect(idx[i], port, n, 1, width_of(pi.link_width_active), speed_of(pi),
                             state_of(pi.port_state));
            h.host_of = std::pair{static_cast<std::size_t>(idx[i]), port};
            ++stats_.cas;
            ++stats_.links;
            out.push_back(std::move(h));
        }
    }
    return out;
}

DiscoveryResult Discovery::finish() {
    DiscoveryResult r;
    r.reached = reached_;
    r.sm_port = sm_port_;
    std::vector<routing::NodeIdx> idx(nodes_.size(), routing::kNoNode);
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        DiscoveredNode &n = nodes_[i];
        if (n.vanished) continue;
        const auto type = static_cast<routing::NodeType>(static_cast<std::uint8_t>(n.info.node_type));
        idx[i] = r.fabric.add_node(type, n.info.node_guid, n.info.num_ports, n.description,
                                   n.info.system_image_guid);
        if (n.is_switch()) {
            ++stats_.switches;
        } else {
            ++stats_.cas;
            for (PortNum port = 1; port <= n.info.num_ports; ++port)
                if (n.port_guid[port]) r.fabric.set_port_guid(idx[i], port, n.port_guid[port]);
        }
    }
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        if (idx[i] == routing::kNoNode) continue;
        const DiscoveredNode &n = nodes_[i];
        // The LIDs the ports hold now (an earlier SM's): LID assignment keeps them when it can.
        for (PortNum port = 0; port <= n.info.num_ports; ++port) {
            if (n.is_switch() != (port == 0) || !n.ports[port]) continue;
            const PortInfo &pi = *n.ports[port];
            if (!is_unicast_lid(pi.lid)) continue;
            routing::Port &fp = r.fabric.port(idx[i], port);
            fp.lid = pi.lid;
            fp.lmc = pi.lmc;
        }
        for (PortNum port = 1; port <= n.info.num_ports; ++port) {
            auto it = links_.find(key(i, port));
            if (it == links_.end()) continue;
            const End peer = it->second;
            if (idx[peer.node] == routing::kNoNode) continue;
            if (peer.node < i || (peer.node == i && peer.port < port)) continue;  // once per link
            const auto &a = n.ports[port];
            const auto &b = nodes_[peer.node].ports[peer.port];
            if (!a && !b) continue;  // neither end could be read
            const PortInfo &pi = a ? *a : *b;
            r.fabric.connect(idx[i], port, idx[peer.node], peer.port, width_of(pi.link_width_active),
                             speed_of(pi), state_of(pi.port_state));
            ++stats_.links;
        }
    }
    std::vector<DiscoveredNode> hosts = add_host_nodes(r, idx);
    for (std::size_t i = 0; i < nodes_.size(); ++i)
        if (idx[i] != routing::kNoNode) r.nodes.push_back(std::move(nodes_[i]));
    for (DiscoveredNode &h : hosts) r.nodes.push_back(std::move(h));
    stats_.nodes = stats_.switches + stats_.cas;
    if (reached_ && !nodes_.empty()) r.sm_node = idx[0];
    r.stats = stats_;
    r.problems = std::move(problems_);
    return r;
}

NodeDescriptions descriptions_of(const DiscoveryResult &d) {
    NodeDescriptions out;
    for (const DiscoveredNode &n : d.nodes)
        if (!n.description.empty()) out.emplace(n.info.node_guid, n.description);  // unread: ask again
    return out;
}

DiscoveryResult discover(SmpEngine &engine, const SmClock &clock, DiscoveryOptions options) {
    Discovery d(std::move(options));
    d.start(engine, clock());
    run_until_idle(engine, clock, [&](SmpCompletion &c) { d.on_completion(engine, c, clock()); });
    return d.finish();
}

}  // namespace weft::sm
