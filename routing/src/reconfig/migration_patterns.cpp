// Migration sequences: read from a file, or generated as seed 002's Table 4 patterns by
// simulating where each VM is after the moves before it.
#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "io/text_lines.hpp"
#include "weft/routing/reconfig.hpp"
#include "weft/routing/seeded_rng.hpp"

namespace weft::routing {
namespace {

// Where the VMs are, as the moves of a pattern go.
class Placement {
  public:
    explicit Placement(const Fabric &f) {
        for (NodeIdx h : hypervisors(f)) {
            const Port &p = f.port(h, kVswitchPort);
            if (!p.linked() || !p.lid) continue;
            index_[h] = static_cast<std::uint32_t>(hyp_.size());
            hyp_.push_back(h);
            cap_.push_back(f.node(h).vfs);
        }
        on_.resize(hyp_.size());
        where_.assign(f.vms().size(), kNone);
        for (std::uint32_t v = 0; v < f.vms().size(); ++v) {
            const auto it = index_.find(f.vms()[v].hypervisor);
            if (it == index_.end() || !f.vms()[v].lid) continue;  // not on the fabric: never moved
            where_[v] = it->second;
            on_[it->second].push_back(v);
            vms_.push_back(v);
        }
    }
    static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
    std::size_t size() const { return hyp_.size(); }
    const std::vector<std::uint32_t> &vms() const { return vms_; }  // the VMs that can move
    std::uint32_t where(std::uint32_t vm) const { return where_[vm]; }
    std::size_t load(std::uint32_t h) const { return on_[h].size(); }
    std::size_t cap(std::uint32_t h) const { return cap_[h]; }
    bool room(std::uint32_t h) const { return load(h) < cap(h); }
    const std::vector<std::uint32_t> &on(std::uint32_t h) const { return on_[h]; }
    void move(std::uint32_t vm, std::uint32_t h, std::vector<Migration> &out) {
        auto &from = on_[where_[vm]];
        from.erase(std::find(from.begin(), from.end(), vm));
        on_[h].push_back(vm);
        where_[vm] = h;
        out.push_back({vm, hyp_[h]});
    }

  private:
    std::vector<NodeIdx> hyp_;
    std::unordered_map<NodeIdx, std::uint32_t> index_;
    std::vector<std::size_t> cap_;
    std::vector<std::vector<std::uint32_t>> on_;
    std::vector<std::uint32_t> where_, vms_;
};

std::vector<Migration> random_moves(Placement &pl, SeededRng &rng) {
    std::vector<Migration> out;
    if (pl.vms().empty()) return out;
    std::vector<std::uint32_t> cand;
    for (std::size_t k = 0; k < 2 * pl.size(); ++k) {
        const std::uint32_t vm = pl.vms()[rng.below(pl.vms().size())];
        cand.clear();
        for (std::uint32_t h = 0; h < pl.size(); ++h)
            if (h != pl.where(vm) && pl.room(h)) cand.push_back(h);
        if (cand.empty()) throw std::invalid_argument("random: no hypervisor has a free VF");
        pl.move(vm, cand[rng.below(cand.size())], out);
    }
    return out;
}

// A random hypervisor with room outside the groups' hypervisors.
std::uint32_t outside(const Placement &pl, const std::vector<std::uint8_t> &target, SeededRng &rng) {
    std::vector<std::uint32_t> cand;
    for (std::uint32_t y = 0; y < pl.size(); ++y)
        if (!target[y] && pl.room(y)) cand.push_back(y);
    if (cand.empty()) throw std::invalid_argument("grouping: no free VF outside the groups' hypervisors");
    return cand[rng.below(cand.size())];
}

}  // namespace

std::optional<MigrationPattern> parse_migration_pattern(std::string_view s) {
    if (s == "random") return MigrationPattern::Random;
    if (s == "consolidate") return MigrationPattern::Consolidate;
    if (s == "grouping") return MigrationPattern::Grouping;
    if (s == "to-uniform") return MigrationPattern::ToUniform;
    return std::nullopt;
}

std::vector<Migration> generate_migrations(const Fabric &f, MigrationPattern p, std::uint64_t seed) {
    Placement pl(f);
    if (pl.vms().empty()) throw std::invalid_argument("no VM runs on a cabled hypervisor");
    SeededRng rng(seed);
    if (p == MigrationPattern::Random) return random_moves(pl, rng);
    std::vector<Migration> out;
    switch (p) {
        case MigrationPattern::Random:
            break;
        case MigrationPattern::Consolidate: {
            // The fewest hypervisors from the left that hold every VM.
            std::uint32_t last = 0;
            for (std::size_t room = 0; room < pl.vms().size(); ++last) room += pl.cap(last);
            for (std::uint32_t vm : pl.vms()) {
                if (pl.where(vm) < last) continue;
                std::uint32_t h = 0;
                while (!pl.room(h)) ++h;
                pl.move(vm, h, out);
            }
            return out;
        }
        case MigrationPattern::Grouping: {
            std::vector<std::uint32_t> order = pl.vms();
            rng.shuffle(order);
            const std::size_t g = std::max<std::size_t>(1, order.size() / 4);
            if (2 * g > order.size()) throw std::invalid_argument("grouping: fewer than two VMs");
            const std::vector<std::uint32_t> a(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(g)),
                b(order.begin() + static_cast<std::ptrdiff_t>(g),
                  order.begin() + static_cast<std::ptrdiff_t>(2 * g));
            // Each group gets a run of neighbouring hypervisors with room for it, the two runs side
            // by side from a random start; span(from) is where the run from `from` ends.
            auto span = [&](std::uint32_t from) {
                std::uint32_t h = from;
                for (std::size_t room = 0; room < g; room += pl.cap(h++))
                    if (h >= pl.size()) return Placement::kNone;
                return h;
            };
            const std::uint32_t first = span(0), need = first == Placement::kNone ? first : span(first);
            if (need == Placement::kNone)
                throw std::invalid_argument("grouping: the two groups need more hypervisors than there are");
            const auto start = static_cast<std::uint32_t>(rng.below(pl.size() - need + 1));
            const std::uint32_t mid = span(start), end = mid == Placement::kNone ? mid : span(mid);
            if (end == Placement::kNone)
                throw std::invalid_argument("grouping: the two groups do not fit side by side");
            std::vector<std::uint8_t> group(f.vms().size(), 0), target(pl.size(), 0);
            for (std::uint32_t vm : a) group[vm] = 1;
            for (std::uint32_t vm : b) group[vm] = 2;
            for (std::uint32_t h = start; h < end; ++h) target[h] = h < mid ? 1 : 2;
            auto room_in = [&](std::uint8_t g_id) {
                for (std::uint32_t h = g_id == 1 ? start : mid; h < (g_id == 1 ? mid : end); ++h)
                    if (pl.room(h)) return h;
                return Placement::kNone;
            };
            // Each group's hypervisors cleared of everything else (the other group's VMs straight to
            // theirs when there is room), then each group moved in.
            for (std::uint32_t h = start; h < end; ++h) {
                const std::vector<std::uint32_t> here = pl.on(h);
                for (std::uint32_t vm : here) {
                    if (group[vm] == target[h]) continue;
                    const std::uint32_t to = group[vm] ? room_in(group[vm]) : Placement::kNone;
                    pl.move(vm, to != Placement::kNone ? to : outside(pl, target, rng), out);
                }
            }
            for (const auto *members : {&a, &b})
                for (std::uint32_t vm : *members) {
                    if (target[pl.where(vm)] == group[vm]) continue;
                    const std::uint32_t to = room_in(group[vm]);
                    if (to == Placement::kNone)
                        throw std::invalid_argument("grouping: a group does not fit its hypervisors");
                    pl.move(vm, to, out);
                }
            return out;
        }
        case MigrationPattern::ToUniform: {
            // Capacity allowing, from the fullest hypervisor (first of equals) to the emptiest.
            while (true) {
                std::uint32_t hi = 0, lo = 0;
                for (std::uint32_t h = 1; h < pl.size(); ++h) {
                    if (pl.load(h) > pl.load(hi)) hi = h;
                    if (pl.load(h) < pl.load(lo) && pl.room(h)) lo = h;
                }
                if (pl.load(hi) <= pl.load(lo) + 1 || !pl.room(lo)) return out;
                pl.move(pl.on(hi).back(), lo, out);
            }
        }
    }
    return out;
}

std::vector<Migration> read_migrations(std::string_view text, const std::string &name, const Fabric &f) {
    std::vector<Migration> out;
    for (const io::TextLine &line : io::split_lines(text)) {
        io::LineCursor c(name, line);
        c.skip_space();
        if (c.at_end() || c.peek() == '#') continue;
        auto word = [&](const char *what) {
            c.skip_space();
            const std::size_t col = c.column();
            const std::string_view w = c.read_word();
            if (w.empty() || w[0] == '#') throw ParseError(name, line.number, col, what, "end of line");
            return std::pair{w, col};
        };
        const auto [verb, vcol] = word("\"migrate\"");
        if (verb != "migrate")
            throw ParseError(name, line.number, vcol, "\"migrate VM to HYPERVISOR\"", std::string(verb));
        const auto [vm, vmcol] = word("a VM name");
        const auto found = f.find_vm(vm);
        if (!found)
            throw ParseError(name, line.number, vmcol, "the name of a VM of the fabric", io::printable(vm));
        const auto [to, tocol] = word("\"to\"");
        if (to != "to") throw ParseError(name, line.number, tocol, "\"to\"", io::printable(to));
        const auto [hyp, hcol] = word("a hypervisor (its node description or GUID)");
        std::optional<NodeIdx> node;
        if (hyp.size() > 2 && (hyp.substr(0, 2) == "0x" || hyp.substr(0, 2) == "0X") &&
            hyp.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string_view::npos && hyp.size() <= 18)
            node = f.find_guid(std::stoull(std::string(hyp.substr(2)), nullptr, 16));
        for (NodeIdx n = 0; !node && n < f.node_count(); ++n)
            if (f.node(n).vswitch && f.node(n).desc == hyp) node = n;
        if (!node || !f.node(*node).vswitch)
            throw ParseError(name, line.number, hcol, "a hypervisor of the fabric (a CA with a vSwitch)",
                             io::printable(hyp));
        c.skip_space();
        if (!c.at_end() && c.peek() != '#')
            throw ParseError(name, line.number, c.column(), "end of line", io::printable(c.rest()));
        out.push_back({*found, *node});
    }
    return out;
}

}  // namespace weft::routing
