// FTreeMinRC's sub-trees (seed 002, section 6.1). OpenSM's tuples name a switch's place in the
// nested sub-trees; here the same nesting comes from the cables alone, so that marking is a walk
// up two chains of sub-trees and a copy of their precomputed top-switch lists.
#include <algorithm>
#include <map>

#include "weft/routing/reconfig.hpp"

namespace weft::routing {

std::optional<FatTreeSkyline> FatTreeSkyline::build(const Fabric &f, std::string *why) {
    auto fail = [&](std::string w) -> std::optional<FatTreeSkyline> {
        if (why) *why = std::move(w);
        return std::nullopt;
    };
    const std::size_t n = f.switch_count();
    auto name = [&](SwitchIdx s) { return "'" + f.node(f.switch_node(s)).desc + "'"; };
    // Switch neighbours once, and the leaves (switches with a cabled CA or router).
    std::vector<std::vector<SwitchIdx>> nb(n);
    std::vector<SwitchIdx> queue;
    constexpr std::uint32_t kUnset = 0xFFFFFFFFu;
    std::vector<std::uint32_t> h(n, kUnset);
    for (SwitchIdx s = 0; s < n; ++s) {
        const NodeIdx node = f.switch_node(s);
        bool leaf = false;
        for (PortNum p = 1; p <= f.node(node).num_ports; ++p) {
            const Port &x = f.port(node, p);
            if (!x.linked() || x.peer == node) continue;
            if (f.node(x.peer).is_switch())
                nb[s].push_back(f.node(x.peer).sw);
            else
                leaf = true;
        }
        std::sort(nb[s].begin(), nb[s].end());
        nb[s].erase(std::unique(nb[s].begin(), nb[s].end()), nb[s].end());
        if (leaf) h[s] = 0, queue.push_back(s);
    }
    if (queue.empty()) return fail("no switch with a CA");
    for (std::size_t i = 0; i < queue.size(); ++i)
        for (SwitchIdx r : nb[queue[i]])
            if (h[r] == kUnset) h[r] = h[queue[i]] + 1, queue.push_back(r);
    FatTreeSkyline sky;
    sky.height_.assign(n, 0);
    unsigned top = 0;
    for (SwitchIdx s = 0; s < n; ++s) {
        if (h[s] == kUnset) return fail("switch " + name(s) + " is not connected to the leaves");
        if (h[s] > 250) return fail("more than 250 levels");
        for (SwitchIdx r : nb[s])
            if (h[r] + 1 != h[s] && h[s] + 1 != h[r])
                return fail("the link between " + name(s) + " and " + name(r) +
                            " does not join adjacent levels (not a fat tree)");
        sky.height_[s] = static_cast<std::uint8_t>(h[s]);
        top = std::max(top, h[s]);
    }
    sky.levels_ = top + 1;
    // Sub-trees bottom up: a leaf is its own; above, the set of sub-trees below a switch names
    // the one it tops. `queue` is in height order already (BFS from the leaves).
    sky.class_.assign(n, kUnset);
    std::map<std::vector<std::uint32_t>, std::uint32_t> by_below;
    std::vector<std::uint32_t> below;
    for (SwitchIdx s : queue) {
        if (h[s] == 0) {
            sky.class_[s] = static_cast<std::uint32_t>(sky.parent_.size());
            sky.parent_.push_back(kTop);
            continue;
        }
        below.clear();
        for (SwitchIdx r : nb[s])
            if (h[r] + 1 == h[s]) below.push_back(sky.class_[r]);
        std::sort(below.begin(), below.end());
        below.erase(std::unique(below.begin(), below.end()), below.end());
        const auto [it, fresh] = by_below.try_emplace(below, static_cast<std::uint32_t>(sky.parent_.size()));
        if (fresh) sky.parent_.push_back(kTop);
        sky.class_[s] = it->second;
    }
    // Every switch's up links lead into one sub-tree, the same for all the tops of its own.
    std::vector<std::uint8_t> seen(sky.parent_.size(), 0);
    for (SwitchIdx s = 0; s < n; ++s) {
        std::uint32_t up = kTop;
        for (SwitchIdx r : nb[s]) {
            if (h[r] != h[s] + 1) continue;
            if (up != kTop && sky.class_[r] != up)
                return fail("the up links of " + name(s) +
                            " lead into two sub-trees (not a fat tree of nested sub-trees)");
            up = sky.class_[r];
        }
        std::uint32_t &p = sky.parent_[sky.class_[s]];
        if (seen[sky.class_[s]] && p != up)
            return fail("the top switches of the sub-tree of " + name(s) +
                        " lead up into different sub-trees");
        seen[sky.class_[s]] = 1;
        p = up;
    }
    // The members of each sub-tree, contiguous.
    const std::size_t c = sky.parent_.size();
    sky.first_.assign(c + 1, 0);
    for (SwitchIdx s = 0; s < n; ++s) ++sky.first_[sky.class_[s] + 1];
    for (std::size_t i = 0; i < c; ++i) sky.first_[i + 1] += sky.first_[i];
    sky.members_.resize(n);
    std::vector<std::uint32_t> at(sky.first_.begin(), sky.first_.end() - 1);
    for (SwitchIdx s = 0; s < n; ++s) sky.members_[at[sky.class_[s]]++] = s;
    return sky;
}

bool FatTreeSkyline::mark(SwitchIdx a, SwitchIdx b, std::vector<SwitchIdx> &out) const {
    std::uint32_t ca = class_[a], cb = class_[b];
    auto append = [&](std::uint32_t c) {
        out.insert(out.end(), members_.begin() + first_[c], members_.begin() + first_[c + 1]);
    };
    while (true) {
        append(ca);
        if (ca == cb) return true;
        append(cb);
        ca = parent_[ca];
        cb = parent_[cb];
        if (ca == kTop || cb == kTop) return false;
    }
}

bool FatTreeSkyline::subtree(SwitchIdx a, SwitchIdx b, std::vector<SwitchIdx> &out) const {
    std::uint32_t ca = class_[a], cb = class_[b];
    unsigned h = 0;
    while (ca != cb) {
        ca = parent_[ca];
        cb = parent_[cb];
        ++h;
        if (ca == kTop || cb == kTop) return false;
    }
    for (SwitchIdx s = 0; s < class_.size(); ++s) {
        if (height_[s] > h) continue;
        std::uint32_t c = class_[s];
        for (unsigned up = height_[s]; up < h && c != kTop; ++up) c = parent_[c];
        if (c == ca) out.push_back(s);
    }
    return true;
}

}  // namespace weft::routing
