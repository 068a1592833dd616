#include "engines/nue/route_tree.hpp"

#include <algorithm>

namespace weft::routing::engines::nue {

RouteTree::RouteTree(const Channels &ch, std::vector<std::uint64_t> &in_weight)
    : ch_(ch), in_weight_(in_weight) {
    const std::size_t n = ch.switches();
    next_.assign(n, kNoChannel);
    hops_.assign(n, kInfHops);
    carried_.assign(n, 0);
    for (std::uint64_t w : in_weight) max_weight_ = std::max(max_weight_, w);
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
    reachable_.resize(n);
    for (SwitchIdx s = 0; s < n; ++s) reachable_[s] = size[component[s]];
}

void RouteTree::route_along_escape(SwitchIdx d, const EscapeTree &escape) {
    const std::size_t n = ch_.switches();
    escape.toward(d, next_, order_);  // order_ as scratch: rebuilt below
    std::fill(hops_.begin(), hops_.end(), kInfHops);
    hops_[d] = 0;
    std::vector<std::vector<SwitchIdx>> children(n);
    for (SwitchIdx s = 0; s < n; ++s)
        if (next_[s] != kNoChannel) children[ch_.head(next_[s])].push_back(s);
    order_.assign(1, d);
    for (std::size_t i = 0; i < order_.size(); ++i)
        for (SwitchIdx s : children[order_[i]]) {
            hops_[s] = static_cast<std::uint8_t>(std::min<unsigned>(hops_[order_[i]] + 1u, kInfHops - 1u));
            order_.push_back(s);
        }
}

std::uint64_t RouteTree::add_load(const std::vector<std::uint64_t> &sources) {
    // Children come after their parents in order_, so walking it backwards finishes each switch's
    // subtree before the switch. carried_ holds what the children passed up, and is left all zero.
    std::uint64_t heaviest = 0;
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
        const SwitchIdx s = *it;
        const std::uint64_t load = carried_[s] + sources[s];
        carried_[s] = 0;
        const ChannelId c = next_[s];
        if (c == kNoChannel) continue;
        std::uint64_t &w = in_weight_[ch_.reverse(c)];
        w += load;
        heaviest = std::max(heaviest, w);
        carried_[ch_.head(c)] += load;
    }
    max_weight_ = std::max(max_weight_, heaviest);
    return heaviest;
}

}  // namespace weft::routing::engines::nue
