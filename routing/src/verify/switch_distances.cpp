#include "switch_distances.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace weft::routing::verify {

SwitchDistances::SwitchDistances(const Fabric &f, std::size_t budget_bytes) : S_(f.switch_count()) {
    if (S_ >= kFar) throw std::length_error("verification: more switches than 16-bit LIDs can address");
    adj_begin_.assign(S_ + 1, 0);
    std::vector<SwitchIdx> row;
    for (SwitchIdx s = 0; s < S_; ++s) {
        const NodeIdx n = f.switch_node(s);
        row.clear();
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port &x = f.port(n, p);
            if (x.linked() && f.node(x.peer).is_switch() && f.node(x.peer).sw != s)
                row.push_back(f.node(x.peer).sw);
        }
        std::sort(row.begin(), row.end());
        row.erase(std::unique(row.begin(), row.end()), row.end());
        adj_.insert(adj_.end(), row.begin(), row.end());
        adj_begin_[s + 1] = static_cast<std::uint32_t>(adj_.size());
    }
    const std::size_t batch_bytes = std::max<std::size_t>(1, 2 * kRoots * S_ * sizeof(std::uint16_t));
    max_batches_ = std::max<std::size_t>(1, budget_bytes / batch_bytes);
    reach_.assign(S_, 0);
    fresh_.assign(S_, 0);
    at_.assign(S_ / kRoots + 1, batches_.end());
}

SwitchDistances::Row SwitchDistances::from(SwitchIdx root) {
    const SwitchIdx first = root / kRoots * kRoots;
    auto it = at_[root / kRoots];
    if (it != batches_.end()) {
        batches_.splice(batches_.begin(), batches_, it);
    } else {
        if (batches_.size() >= max_batches_) {
            at_[batches_.back().first / kRoots] = batches_.end();
            batches_.splice(batches_.begin(), batches_, std::prev(batches_.end()));  // reuse the oldest
        } else {
            batches_.emplace_front();
        }
        batches_.front().first = first;
        at_[root / kRoots] = batches_.begin();
        compute(batches_.front());
    }
    const Batch &b = batches_.front();
    const std::size_t at = std::size_t{root - first} * S_;
    return {b.dist.data() + at, b.order.data() + at};
}

void SwitchDistances::compute(Batch &b) {
    const unsigned roots = static_cast<unsigned>(std::min<std::size_t>(kRoots, S_ - b.first));
    b.dist.assign(std::size_t{roots} * S_, kFar);
    std::fill(reach_.begin(), reach_.end(), 0);
    frontier_.clear();
    for (unsigned j = 0; j < roots; ++j) {
        const SwitchIdx r = b.first + j;
        reach_[r] |= std::uint64_t{1} << j;
        b.dist[std::size_t{j} * S_ + r] = 0;
        frontier_.emplace_back(r, std::uint64_t{1} << j);
    }
    // Level by level: a switch's new roots are those its neighbours got on the previous level.
    for (std::uint32_t level = 1; !frontier_.empty(); ++level) {
        touched_.clear();
        for (auto [v, bits] : frontier_) {
            for (std::uint32_t k = adj_begin_[v]; k < adj_begin_[v + 1]; ++k) {
                const SwitchIdx u = adj_[k];
                const std::uint64_t nb = bits & ~reach_[u];
                if (!nb) continue;
                if (!fresh_[u]) touched_.push_back(u);
                fresh_[u] |= nb;
            }
        }
        next_frontier_.clear();
        for (SwitchIdx u : touched_) {
            const std::uint64_t nb = fresh_[u];
            fresh_[u] = 0;
            reach_[u] |= nb;
            for (std::uint64_t w = nb; w; w &= w - 1)
                b.dist[std::size_t(std::countr_zero(w)) * S_ + u] = static_cast<std::uint16_t>(level);
            next_frontier_.emplace_back(u, nb);
        }
        frontier_.swap(next_frontier_);
    }
    // Each root's switches by distance (a counting sort; kFar sorts last).
    b.order.resize(b.dist.size());
    for (unsigned j = 0; j < roots; ++j) {
        const std::uint16_t *dist = b.dist.data() + std::size_t{j} * S_;
        std::uint16_t *order = b.order.data() + std::size_t{j} * S_;
        std::uint32_t levels = 0;
        for (std::size_t s = 0; s < S_; ++s)
            if (dist[s] != kFar) levels = std::max<std::uint32_t>(levels, dist[s] + 1u);
        count_.assign(levels + 2, 0);  // [level + 1], the unconnected at [levels + 1]
        for (std::size_t s = 0; s < S_; ++s) ++count_[dist[s] == kFar ? levels + 1 : dist[s] + 1u];
        for (std::uint32_t l = 1; l < count_.size(); ++l) count_[l] += count_[l - 1];
        for (std::size_t s = 0; s < S_; ++s)
            order[count_[dist[s] == kFar ? levels : dist[s]]++] = static_cast<std::uint16_t>(s);
    }
}

}  // namespace weft::routing::verify
