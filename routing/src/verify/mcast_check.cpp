// Multicast tree check: the MFT entries of one group must form a tree over the switches that
// carry it (a cycle floods packets forever), be symmetric on switch links (traffic from any
// member climbs toward the root and comes down every other branch), and reach every member.
#include <algorithm>
#include <numeric>

#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

class Components {
  public:
    explicit Components(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0u); }
    std::uint32_t find(std::uint32_t x) {
        while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
        return x;
    }
    bool join(std::uint32_t a, std::uint32_t b) {
        a = find(a), b = find(b);
        if (a == b) return false;
        parent_[a] = b;
        return true;
    }

  private:
    std::vector<std::uint32_t> parent_;
};

}  // namespace

McastTreeReport verify_mcast_tree(const Fabric &f, const McastGroup &g, const McastTree &t) {
    McastTreeReport r;
    const std::string grp = "MLID " + std::to_string(g.mlid) + ": ";
    if (t.ports.size() != f.switch_count()) {
        r.problems.push_back(grp + "tree has " + std::to_string(t.ports.size()) +
                             " switch entries, fabric has " + std::to_string(f.switch_count()));
        return r;
    }
    if (t.mlid != g.mlid) r.problems.push_back(grp + "tree is for MLID " + std::to_string(t.mlid));
    auto member = [&](NodeIdx n, PortNum p) {
        return std::any_of(g.members.begin(), g.members.end(), [&](const LidOwner &o) {
            return o.node == n && (f.node(n).is_switch() || o.port == p);
        });
    };
    auto lists = [&](SwitchIdx s, PortNum p) {
        const auto &v = t.ports[s];
        return std::find(v.begin(), v.end(), p) != v.end();
    };
    bool empty = true;
    Components comp(f.switch_count());
    for (SwitchIdx s = 0; s < f.switch_count(); ++s) {
        const auto &v = t.ports[s];
        if (v.empty()) continue;
        empty = false;
        ++r.switches;
        const NodeIdx node = f.switch_node(s);
        const std::string here = "switch '" + f.node(node).desc + "'";
        for (std::size_t i = 0; i < v.size(); ++i) {
            const PortNum p = v[i];
            if (std::count(v.begin(), v.end(), p) > 1 &&
                std::find(v.begin(), v.end(), p) - v.begin() == long(i))
                r.problems.push_back(grp + here + " lists port " + std::to_string(p) + " twice");
            if (p == 0) {
                if (!member(node, 0))
                    r.problems.push_back(grp + here + " delivers to its port 0 but is not a member");
                continue;
            }
            if (p > f.node(node).num_ports) {
                r.problems.push_back(grp + here + " has no port " + std::to_string(p));
                continue;
            }
            const Port &x = f.port(node, p);
            if (!x.linked()) {
                r.problems.push_back(grp + here + " port " + std::to_string(p) + " is not linked");
                continue;
            }
            const Node &peer = f.node(x.peer);
            if (!peer.is_switch()) {
                if (!member(x.peer, x.peer_port))
                    r.problems.push_back(grp + here + " port " + std::to_string(p) + " leads to '" +
                                         peer.desc + "', which is not a member");
                continue;
            }
            if (x.peer == node) {
                r.problems.push_back(grp + here + " port " + std::to_string(p) + " is a loopback cable");
                continue;
            }
            if (!lists(peer.sw, x.peer_port)) {
                r.problems.push_back(grp + here + " port " + std::to_string(p) + " -> '" + peer.desc +
                                     "' port " + std::to_string(x.peer_port) + " is listed on one side only");
                continue;
            }
            if (peer.sw < s) continue;  // each cable once, from its lower switch index
            ++r.links;
            if (!comp.join(s, peer.sw))
                r.problems.push_back(grp + "link " + here + " port " + std::to_string(p) + " -> '" +
                                     peer.desc + "' closes a cycle (a switch reached twice)");
        }
    }
    if (empty && g.members.size() < 2) return r;
    // One tree: every on-tree switch in the same component.
    SwitchIdx first = kNoSwitch;
    for (SwitchIdx s = 0; s < f.switch_count(); ++s) {
        if (t.ports[s].empty()) continue;
        if (first == kNoSwitch)
            first = s;
        else if (comp.find(s) != comp.find(first))
            r.problems.push_back(grp + "switch '" + f.node(f.switch_node(s)).desc +
                                 "' is on the tree but not connected to switch '" +
                                 f.node(f.switch_node(first)).desc + "'");
    }
    for (const LidOwner &o : g.members) {
        const Node &n = f.node(o.node);
        if (n.is_switch()) {
            if (!lists(n.sw, 0))
                r.problems.push_back(grp + "member switch '" + n.desc + "' does not deliver to port 0");
            continue;
        }
        const Port &x = f.port(o.node, o.port);
        if (!x.linked() || !f.node(x.peer).is_switch()) {
            r.problems.push_back(grp + "member '" + n.desc + "' port " + std::to_string(o.port) +
                                 " is not cabled to a switch");
            continue;
        }
        if (!lists(f.node(x.peer).sw, x.peer_port))
            r.problems.push_back(grp + "member '" + n.desc + "' port " + std::to_string(o.port) +
                                 " is not reached");
    }
    return r;
}

}  // namespace weft::routing
