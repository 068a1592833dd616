#include "acyclic_cdg.hpp"

#include <algorithm>
#include <numeric>

namespace weft::routing::ars {

AcyclicCdg::AcyclicCdg(const Fabric &f, const verify::ChannelMap &m, unsigned vls)
    : f_(f), m_(m), vls_(vls), fwd_(f, vls, m.size()), rev_(f, vls, m.size()), closes_(f, vls, m.size()) {
    ord_.resize(m.size() * vls);
    std::iota(ord_.begin(), ord_.end(), 0u);
    visited_.assign(ord_.size(), 0);
    parent_.resize(ord_.size());
}

bool AcyclicCdg::add(std::uint32_t from, unsigned vl_in, unsigned vl_out, PortNum out) {
    const bool ok = insert(from, vl_in, vl_out, out);
    added_.clear();
    return ok;
}

bool AcyclicCdg::insert(std::uint32_t from, unsigned vl_in, unsigned vl_out, PortNum out) {
    if (fwd_.has(from, vl_in, vl_out, out)) return true;
    if (closes_.has(from, vl_in, vl_out, out)) return false;
    const NodeIdx sw = m_.far[from];
    const std::uint32_t to = f_.node(sw).port_base + out;
    const std::uint32_t x = node_of(from, vl_in), y = node_of(to, vl_out);
    if (x == y) return false;
    if (ord_[y] < ord_[x] && !repair(x, y)) {
        if (kept_path_) closes_.add(from, vl_in, vl_out, out);
        return false;
    }
    const PortNum in = f_.port(m_.node[from], m_.port[from]).peer_port;
    fwd_.add(from, vl_in, vl_out, out);
    rev_.add(to, vl_out, vl_in, in);
    added_.push_back(
        {from, to, static_cast<std::uint8_t>(vl_in), static_cast<std::uint8_t>(vl_out), out, in});
    return true;
}

void AcyclicCdg::add_unordered(std::uint32_t from, unsigned vl_in, unsigned vl_out, PortNum out) {
    const std::uint32_t to = f_.node(m_.far[from]).port_base + out;
    fwd_.add(from, vl_in, vl_out, out);
    rev_.add(to, vl_out, vl_in, f_.port(m_.node[from], m_.port[from]).peer_port);
}

bool AcyclicCdg::sort() {
    // Kahn's algorithm: a node is placed once everything before it is.
    const std::size_t n = ord_.size();
    std::vector<std::uint32_t> waiting(n, 0), ready;
    auto for_each_succ = [this](std::uint32_t u, auto &&fn) {
        const std::uint32_t chan = u / vls_;
        if (m_.far[chan] == kNoNode) return;
        const std::uint32_t base = f_.node(m_.far[chan]).port_base;
        fwd_.for_each_out(chan, u % vls_, [&](unsigned vo, PortNum p) { fn(node_of(base + p, vo)); });
    };
    for (std::uint32_t u = 0; u < n; ++u) for_each_succ(u, [&](std::uint32_t v) { ++waiting[v]; });
    for (std::uint32_t u = 0; u < n; ++u)
        if (!waiting[u]) ready.push_back(u);
    std::uint32_t place = 0;
    for (std::size_t i = 0; i < ready.size(); ++i) {
        ord_[ready[i]] = place++;
        for_each_succ(ready[i], [&](std::uint32_t v) {
            if (!--waiting[v]) ready.push_back(v);
        });
    }
    return place == n;
}

bool AcyclicCdg::stage(std::uint32_t from, unsigned vl_in, unsigned vl_out, PortNum out) {
    if (fwd_.has(from, vl_in, vl_out, out)) return true;
    if (closes_.has(from, vl_in, vl_out, out)) return false;
    staged_.push_back({from, static_cast<std::uint8_t>(vl_in), static_cast<std::uint8_t>(vl_out), out});
    return true;
}

bool AcyclicCdg::commit() {
    bool ok = true;
    for (const Staged &e : staged_)
        if (!insert(e.from, e.vl_in, e.vl_out, e.out)) {
            ok = false;
            break;
        }
    // A refused attempt takes its edges back; removing edges keeps the order valid.
    if (!ok)
        for (const Edge &a : added_) {
            fwd_.remove(a.from, a.vl_in, a.vl_out, a.out);
            rev_.remove(a.to, a.vl_out, a.vl_in, a.in);
        }
    added_.clear();
    staged_.clear();
    return ok;
}

bool AcyclicCdg::repair(std::uint32_t x, std::uint32_t y) {
    const std::uint32_t lb = ord_[y], ub = ord_[x];
    // Forward from y through nodes placed before x and backward from x through nodes placed
    // after y, a node from each in turn: the two meeting means a cycle (found sooner than by
    // either alone); else the nodes each found are what the order repair moves.
    forward_.clear();
    backward_.clear();
    stack_.assign(1, y);
    back_stack_.assign(1, x);
    visited_[y] = kForward;
    visited_[x] = kBackward;
    std::uint32_t meet_from = kNone, meet_to = kNone;  // the edge where they met
    while ((!stack_.empty() || !back_stack_.empty()) && meet_from == kNone) {
        if (!stack_.empty()) {
            const std::uint32_t n = stack_.back();
            stack_.pop_back();
            forward_.push_back(n);
            const std::uint32_t chan = n / vls_;
            const std::uint32_t base = f_.node(m_.far[chan]).port_base;
            fwd_.for_each_out(chan, n % vls_, [&](unsigned vo, PortNum p) {
                const std::uint32_t w = node_of(base + p, vo);
                if (visited_[w] == kBackward) {
                    meet_from = n, meet_to = w;
                } else if (!visited_[w] && ord_[w] < ub) {
                    visited_[w] = kForward;
                    parent_[w] = n;
                    stack_.push_back(w);
                }
            });
            if (meet_from != kNone) break;
        }
        if (!back_stack_.empty()) {
            const std::uint32_t n = back_stack_.back();
            back_stack_.pop_back();
            backward_.push_back(n);
            const std::uint32_t chan = n / vls_;
            const NodeIdx sw = m_.node[chan];
            rev_.for_each_out(chan, n % vls_, [&](unsigned vi, PortNum in) {
                const Port &pp = f_.port(sw, in);
                const std::uint32_t w = node_of(f_.node(pp.peer).port_base + pp.peer_port, vi);
                if (visited_[w] == kForward) {
                    meet_from = w, meet_to = n;
                } else if (!visited_[w] && ord_[w] > lb) {
                    visited_[w] = kBackward;
                    parent_[w] = n;
                    back_stack_.push_back(w);
                }
            });
        }
    }
    if (meet_from != kNone) {
        kept_path_ = only_kept(meet_from, meet_to, x, y);
        for (auto *v : {&forward_, &stack_, &backward_, &back_stack_})
            for (auto n : *v) visited_[n] = 0;
        return false;
    }
    // Everything that reaches x goes first, then what y reaches, into the same set of places.
    // Sorted as (place, node) pairs: no lookup of the place per comparison, and the places come
    // out of a merge.
    auto by_place = [this](const std::vector<std::uint32_t> &nodes, std::vector<std::uint64_t> &out) {
        out.clear();
        for (auto n : nodes) out.push_back(std::uint64_t{ord_[n]} << 32 | n);
        std::sort(out.begin(), out.end());
    };
    by_place(backward_, back_keys_);
    by_place(forward_, fwd_keys_);
    places_.resize(back_keys_.size() + fwd_keys_.size());
    std::merge(back_keys_.begin(), back_keys_.end(), fwd_keys_.begin(), fwd_keys_.end(), places_.begin(),
               [](std::uint64_t a, std::uint64_t b) { return a < b; });
    std::size_t i = 0;
    for (auto lists : {&back_keys_, &fwd_keys_})
        for (auto k : *lists) {
            const auto n = static_cast<std::uint32_t>(k);
            ord_[n] = static_cast<std::uint32_t>(places_[i++] >> 32);
            visited_[n] = 0;
        }
    return true;
}

bool AcyclicCdg::only_kept(std::uint32_t from, std::uint32_t to, std::uint32_t x, std::uint32_t y) const {
    if (added_.empty()) return true;
    auto tentative = [this](std::uint32_t a, std::uint32_t b) {
        for (const Edge &e : added_)
            if (node_of(e.from, e.vl_in) == a && node_of(e.to, e.vl_out) == b) return true;
        return false;
    };
    if (tentative(from, to)) return false;
    for (std::uint32_t n = from; n != y; n = parent_[n])
        if (tentative(parent_[n], n)) return false;
    for (std::uint32_t n = to; n != x; n = parent_[n])
        if (tentative(n, parent_[n])) return false;
    return true;
}

}  // namespace weft::routing::ars
