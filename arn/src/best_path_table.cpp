#include "weft/arn/best_path_table.hpp"

#include <algorithm>
#include <stdexcept>

namespace weft::arn {

namespace {

// Removal ranks a congested path after every clear one, and congested ones by their summed
// severity, then by base cost: base costs stay below kMaxBaseCost.
constexpr std::uint64_t kMaxBaseCost = 1u << 20;
constexpr std::uint64_t kRemoved = 1u << 30;
constexpr std::uint64_t kPerSeverityRemoved = kMaxBaseCost;

// RFC 1982 serial comparison: a sequence not after the one held is stale (a repeat of it too).
bool not_after(std::uint32_t s, std::uint32_t held) {
    return static_cast<std::int32_t>(s - held) <= 0;
}

// How bad a condition is, for telling worse news from better.
int badness(LinkCondition c, std::uint8_t severity) {
    switch (c) {
        case LinkCondition::kClear:
            return 0;
        case LinkCondition::kCongested:
            return severity;
        case LinkCondition::kFailed:
            return kMaxSeverity + 1;
    }
    return 0;
}

}  // namespace

BestPathTable::BestPathTable(const BptConfig &config, Ticks ticks_per_us)
    : config_(config), ticks_per_us_(ticks_per_us) {}

void BestPathTable::set_destination(GroupId group, std::vector<CandidatePath> paths) {
    for (const CandidatePath &p : paths)
        if (p.cost >= kMaxBaseCost) throw std::invalid_argument("BPT: a base cost of 2^20 or more");
    Destination &d = destinations_[group];
    d.paths = std::move(paths);
    d.chosen = cheapest(d);
    reindex();
}

void BestPathTable::remove_destination(GroupId group) {
    destinations_.erase(group);
    reindex();
}

void BestPathTable::reindex() {
    crossing_.clear();
    for (const auto &[g, d] : destinations_)
        for (std::size_t i = 0; i < d.paths.size(); ++i)
            for (const LinkRef &l : d.paths[i].links) {
                auto &list = crossing_[l];
                const PathRef ref{g, static_cast<std::uint32_t>(i)};
                if (list.empty() || list.back().group != g || list.back().path != ref.path)
                    list.push_back(ref);
            }
}

std::uint32_t BestPathTable::cost_of(const CandidatePath &p) const {
    std::uint64_t severities = 0;
    for (const LinkRef &l : p.links) {
        const auto it = news_.find(l);
        if (it == news_.end()) continue;
        if (it->second.condition == LinkCondition::kFailed) return kUnreachableCost;
        if (it->second.condition == LinkCondition::kCongested) severities += it->second.severity;
    }
    std::uint64_t cost = p.cost;
    if (severities != 0)
        cost += config_.action == CongestionAction::kRemove ? kRemoved + severities * kPerSeverityRemoved
                                                            : severities * config_.penalty_per_severity;
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(cost, kUnreachableCost - 1));
}

std::optional<std::size_t> BestPathTable::cheapest(const Destination &d) const {
    std::optional<std::size_t> best;
    std::uint32_t best_cost = kUnreachableCost;
    for (std::size_t i = 0; i < d.paths.size(); ++i) {
        const std::uint32_t c = cost_of(d.paths[i]);
        if (c < best_cost) {
            best = i;
            best_cost = c;
        }
    }
    return best;
}

void BestPathTable::choose(GroupId g, Destination &d, std::optional<std::size_t> to, BptChange &change) {
    if (d.chosen == to) return;
    d.chosen = to;
    change.rechosen.push_back(g);
    ++counters_.rechosen;
}

const std::vector<BestPathTable::PathRef> &BestPathTable::crossing(const LinkRef &link) const {
    static const std::vector<PathRef> kNone;
    const auto it = crossing_.find(link);
    return it == crossing_.end() ? kNone : it->second;
}

// News on `link` got worse or better: the destinations it touches, and the draft's rule for each
// path across it.
void BestPathTable::changed(const LinkRef &link, bool worse, BptChange &change) {
    for (const PathRef &ref : crossing(link)) {
        if (change.touched.empty() || change.touched.back() != ref.group) change.touched.push_back(ref.group);
        Destination &d = destinations_.at(ref.group);
        if (worse) {
            // Rule 1: the chosen path crosses the link: the cheapest remaining path.
            if (d.chosen == ref.path) choose(ref.group, d, cheapest(d), change);
            continue;
        }
        // Rule 2: the path through the link replaces the chosen one when it now costs less.
        const std::uint32_t p1 = cost_of(d.paths[ref.path]);
        const std::uint32_t p2 = d.chosen ? cost_of(d.paths[*d.chosen]) : kUnreachableCost;
        if (p1 < p2) choose(ref.group, d, ref.path, change);
    }
}

BptChange BestPathTable::apply(const ArnMessage &m, Ticks now) {
    BptChange change;
    const LinkRef link = m.link();
    const Ticks hold =
        m.hold_ms ? Ticks{*m.hold_ms} * 1000 * ticks_per_us_ : Ticks{config_.default_hold_us} * ticks_per_us_;
    LinkNews &held = news_[link];
    if (held.expires_at <= now && held.condition == LinkCondition::kClear) held.sequence.reset();
    if (held.sequence && m.sequence && not_after(*m.sequence, *held.sequence)) {
        change.stale = true;
        ++counters_.stale;
        return change;
    }
    if (!crossing_.contains(link)) ++counters_.unknown_link;
    ++counters_.applied;

    LinkNews next;
    switch (m.type) {
        case ArnType::kCongestionDetected:
            next.condition = LinkCondition::kCongested;
            next.severity = m.metric;
            break;
        case ArnType::kFailureDetected:
            next.condition = LinkCondition::kFailed;
            break;
        case ArnType::kCongestionEliminated:
        case ArnType::kFailureEliminated:
            next.condition = LinkCondition::kClear;
            break;
    }
    // An elimination is kept as long as news would be, to know a late "detected" for stale.
    next.expires_at =
        now +
        (next.condition == LinkCondition::kClear ? Ticks{config_.default_hold_us} * ticks_per_us_ : hold);
    next.sequence = m.sequence ? m.sequence : held.sequence;
    const int before = badness(held.condition, held.severity);
    const int after = badness(next.condition, next.severity);
    held = next;
    if (after != before) changed(link, after > before, change);
    return change;
}

BptChange BestPathTable::expire(Ticks now) {
    BptChange change;
    for (auto it = news_.begin(); it != news_.end();) {
        LinkNews &n = it->second;
        if (n.expires_at > now) {
            ++it;
            continue;
        }
        if (n.condition == LinkCondition::kClear) {
            it = news_.erase(it);
            continue;
        }
        ++counters_.expired;
        n.condition = LinkCondition::kClear;
        n.severity = 0;
        n.expires_at = now + Ticks{config_.default_hold_us} * ticks_per_us_;
        changed(it->first, false, change);
        ++it;
    }
    return change;
}

std::vector<GroupId> BestPathTable::destinations() const {
    std::vector<GroupId> out;
    for (const auto &[g, d] : destinations_) out.push_back(g);
    return out;
}

std::span<const CandidatePath> BestPathTable::paths(GroupId group) const {
    const auto it = destinations_.find(group);
    if (it == destinations_.end()) return {};
    return it->second.paths;
}

std::optional<std::size_t> BestPathTable::chosen(GroupId group) const {
    const auto it = destinations_.find(group);
    return it == destinations_.end() ? std::nullopt : it->second.chosen;
}

std::uint32_t BestPathTable::effective_cost(GroupId group, std::size_t path) const {
    return cost_of(destinations_.at(group).paths.at(path));
}

ars::QualityBand BestPathTable::path_band(GroupId group, std::size_t path) const {
    int worst = 0;
    for (const LinkRef &l : destinations_.at(group).paths.at(path).links) {
        const LinkNews *n = news(l);
        if (n == nullptr) continue;
        worst = std::max(worst, badness(n->condition, n->severity));
    }
    return static_cast<ars::QualityBand>(worst > kMaxSeverity ? ars::kWorstQuality
                                                              : ars::kBestQuality - worst);
}

ars::QualityBand BestPathTable::port_band(GroupId group, PortNumber port) const {
    const auto it = destinations_.find(group);
    if (it == destinations_.end()) return ars::kBestQuality;
    int best = -1;
    for (std::size_t i = 0; i < it->second.paths.size(); ++i)
        if (it->second.paths[i].first_port == port) best = std::max<int>(best, path_band(group, i));
    return static_cast<ars::QualityBand>(best < 0 ? ars::kBestQuality : best);
}

const LinkNews *BestPathTable::news(const LinkRef &link) const {
    const auto it = news_.find(link);
    return it == news_.end() ? nullptr : &it->second;
}

}  // namespace weft::arn
