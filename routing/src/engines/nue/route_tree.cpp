#include "engines/nue/route_tree.hpp"

#include <algorithm>

namespace weft::routing::engines::nue {

std::vector<std::uint32_t> reachable_switches(const Channels &ch) {
    const std::size_t n = ch.switches();
    constexpr std::uint32_t kNoComponent = ~std::uint32_t{0};
    std::vector<std::uint32_t> component(n, kNoComponent), size;
    std::vector<SwitchIdx> queue;
    for (SwitchIdx s = 0; s < n; ++s) {
        if (component[s] != kNoComponent) continue;
        const auto id = static_cast<std::uint32_t>(size.size());
        component[s] = id;
        queue.assign(1, s);
        for (std::size_t i = 0; i < queue.size(); ++i)
            for (ChannelId c = ch.begin(queue[i]); c < ch.end(queue[i]); ++c)
                if (component[ch.head(c)] == kNoComponent)
                    component[ch.head(c)] = id, queue.push_back(ch.head(c));
        size.push_back(static_cast<std::uint32_t>(queue.size()));
    }
    for (SwitchIdx s = 0; s < n; ++s) component[s] = size[component[s]];
    return component;
}

void settle_along_tree(const Channels &ch, SwitchIdx d, const std::vector<ChannelId> &next,
                       std::vector<std::uint8_t> &hops, std::vector<SwitchIdx> &order) {
    const std::size_t n = ch.switches();
    std::fill(hops.begin(), hops.end(), kInfHops);
    hops[d] = 0;
    std::vector<std::vector<SwitchIdx>> children(n);
    for (SwitchIdx s = 0; s < n; ++s)
        if (next[s] != kNoChannel) children[ch.head(next[s])].push_back(s);
    order.assign(1, d);
    for (std::size_t i = 0; i < order.size(); ++i)
        for (SwitchIdx s : children[order[i]]) {
            hops[s] = static_cast<std::uint8_t>(std::min<unsigned>(hops[order[i]] + 1u, kInfHops - 1u));
            order.push_back(s);
        }
}

std::uint64_t add_tree_load(const Channels &ch, const std::vector<SwitchIdx> &order,
                            const std::vector<ChannelId> &next, const std::vector<std::uint64_t> &sources,
                            std::vector<std::uint64_t> &carried, std::vector<std::uint64_t> &weight) {
    for (SwitchIdx s : order) carried[s] = sources[s];
    std::uint64_t heaviest = 0;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const ChannelId c = next[*it];
        if (c == kNoChannel) continue;
        weight[c] += carried[*it];
        heaviest = std::max(heaviest, weight[c]);
        carried[ch.head(c)] += carried[*it];
    }
    return heaviest;
}

}  // namespace weft::routing::engines::nue
