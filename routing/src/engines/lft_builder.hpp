// OpenSM's LFT assignment step (ucast_mgr_build_lfts / osm_switch_recommend_path), shared by
// every engine that routes from hop matrices: each switch walks the end ports in OpenSM's order
// (switches with most end ports first, then by port GUID), and for each LID picks, among the
// ports an engine allows, the one that carries the fewest target LIDs so far (port
// equalization). With LMC > 0 the LIDs of one port prefer paths through different systems, then
// different nodes (rules a-d of the routing document), and each LID of a group starts its port
// search after the port the previous LID took.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "engines/switch_graph.hpp"
#include "weft/routing/engine.hpp"

namespace weft::routing::engines {

// One LID-owning end port (or switch), in the order OpenSM routes them.
struct RouteOrderEntry {
    Lid base = 0;
    std::uint32_t count = 1;  // 2^lmc LIDs from base
};
// first (-X / --guid_routing_order_file): port GUIDs routed before all others, in this order.
std::vector<RouteOrderEntry> route_order(const Fabric &f, const SwitchGraph &g,
                                         const std::vector<Guid> &first = {});

// -O / --port_search_ordering_file for switch s: search position of each port (listed ports
// first in file order, the rest after them in port order); empty when s has no line.
std::vector<std::uint8_t> port_search_rank(const Fabric &f, const RoutingOptions &o, SwitchIdx s);

// Ports of switch s that -i / ignore options leave out of equalization, by port number.
std::vector<bool> ignored_ports(const Fabric &f, const RoutingOptions &o, SwitchIdx s);

// Per-switch scratch for the builder, reused across switches.
struct LftScratch {
    std::vector<std::int32_t> cand_begin;  // by destination switch, -1 = not computed
    std::vector<std::uint8_t> cand_len;
    std::vector<PortNum> cand;        // flat candidate buffer (ports, in port order)
    std::vector<std::uint32_t> load;  // target LIDs per port
    // Per destination switch, from its last full scan from the first candidate: the least load
    // then (loads never drop, so it is still a lower bound) and where the scan stopped (every
    // candidate before it was more loaded, so it still is).
    std::vector<std::uint32_t> cand_least;
    std::vector<std::uint8_t> cand_at;
};

namespace detail {
struct RemoteUse {
    Guid sys = 0, node = 0;
    std::uint32_t forwarded_to = 0;
};
PortNum pick_port(const Fabric &f, SwitchIdx s, const PortNum *cand, unsigned n, unsigned start_from,
                  const std::vector<std::uint32_t> &load, std::vector<RemoteUse> *remote);
// pick_port without LMC bookkeeping: the first least-loaded candidate scanning cyclically from
// start_from (same answer as pick_port with remote == nullptr, without the modulo per step).
inline PortNum pick_port_plain(const PortNum *cand, unsigned n, unsigned start_from,
                               const std::uint32_t *load, unsigned radix) {
    if (start_from >= radix) start_from %= radix;
    unsigned first = 0;
    while (first < n && cand[first] < start_from) ++first;
    if (first == n) first = 0;
    std::uint32_t least = 0xFFFFFFFFu;
    PortNum best = 0;
    for (unsigned k = first; k < n; ++k)
        if (load[cand[k]] < least) least = load[cand[k]], best = cand[k];
    for (unsigned k = 0; k < first; ++k)
        if (load[cand[k]] < least) least = load[cand[k]], best = cand[k];
    return best;
}
// The first least-loaded candidate by a plain scan: cheapest for a few candidates.
inline PortNum pick_port_scan(const PortNum *cand, unsigned n, const std::uint32_t *load) {
    PortNum best = cand[0];
    std::uint32_t least = load[best];
    for (unsigned k = 1; k < n; ++k)
        if (load[cand[k]] < least) least = load[cand[k]], best = cand[k];
    return best;
}
// pick_port_plain from the first candidate (start_from 1), resuming at `at` while some candidate
// there on still carries `least`. Invariant: every candidate carries at least `least` and those
// before `at` more (loads only grow). When none from `at` on carries `least` any more, the new
// least is the smaller of the minima before and from `at` (the earlier one on a tie), found in
// one pass over the candidates.
inline PortNum pick_port_first(const PortNum *cand, unsigned n, const std::uint32_t *load,
                               std::uint32_t &least, std::uint8_t &at) {
    std::uint32_t tail_least = 0xFFFFFFFFu;
    unsigned tail_at = at;
    for (unsigned k = at; k < n; ++k) {
        const std::uint32_t l = load[cand[k]];
        if (l == least) {
            at = static_cast<std::uint8_t>(k);
            return cand[k];
        }
        if (l < tail_least) tail_least = l, tail_at = k;
    }
    std::uint32_t head_least = 0xFFFFFFFFu;
    unsigned head_at = 0;
    for (unsigned k = 0; k < at; ++k)
        if (load[cand[k]] < head_least) head_least = load[cand[k]], head_at = k;
    if (head_least <= tail_least)
        least = head_least, at = static_cast<std::uint8_t>(head_at);
    else
        least = tail_least, at = static_cast<std::uint8_t>(tail_at);
    return cand[at];
}
void note_remote(const Fabric &f, SwitchIdx s, PortNum port, std::vector<RemoteUse> &remote);
}  // namespace detail

// One LID per end port and no port search order: the builders' fast paths apply.
inline bool is_plain_order(const RoutingOptions &o, const std::vector<RouteOrderEntry> &order) {
    if (o.lmc > 0 || !o.port_search_order.empty()) return false;
    for (const RouteOrderEntry &e : order)
        if (e.count != 1) return false;
    return true;
}

// One LID of the route order, flattened for the one-LID-per-port case (LMC 0, no search order).
struct RouteStep {
    Lid lid = 0;
    SwitchIdx sw = kNoSwitch;  // the switch the LID lands on
    PortNum port = 0;          // that switch's port toward it (0: its own LID)
    bool counted = true;       // adds to the chosen port's load (switch LIDs do not by default)
};

// The route order's LIDs that land on a switch, as RouteSteps.
[[gnu::hot]] inline std::vector<RouteStep> route_steps(const SwitchGraph &g, const RoutingOptions &o,
                                                       const std::vector<RouteOrderEntry> &order) {
    // Sized up front and cut to length: inline code only (see assign_filled).
    std::vector<RouteStep> steps(order.size());
    std::size_t k = 0;
    for (const RouteOrderEntry &e : order) {
        const LidTarget &tg = g.target(e.base);
        if (tg.sw == kNoSwitch) continue;
        steps[k++] = {e.base, tg.sw, tg.port, !(tg.is_switch && !o.port_profile_switch_nodes)};
    }
    steps.erase(steps.begin() + static_cast<std::ptrdiff_t>(k), steps.end());
    return steps;
}

// Per destination switch of the switch being built: its candidates in LftScratch::cand and
// pick_port_first's resume state.
struct DestCands {
    std::int32_t begin = -1;  // -1 = not computed yet
    std::uint8_t len = 0, at = 0;
    std::uint32_t least = 0xFFFFFFFFu;
};

// build_equalized_lfts for LMC 0 without a port search order: the same choices, with the route
// order resolved once for all switches instead of per switch and LID.
template <class Allowed>
[[gnu::hot]] void build_plain_lfts(const Fabric &f, const SwitchGraph &g, const RoutingOptions &o,
                                   RoutingTables &t, const std::vector<RouteOrderEntry> &order,
                                   Allowed &&allowed) {
    const std::size_t n = g.size();
    const std::vector<RouteStep> steps = route_steps(g, o, order);
    // Raw pointers in the loop: byte stores (LFT entries) may alias a vector's own pointers,
    // which the compiler would otherwise reload after each of them.
    std::vector<DestCands> dest;
    std::vector<PortNum> cand;
    std::vector<std::uint32_t> load;
    std::vector<std::uint8_t> skip;  // ports left out of equalization, by port number
    std::vector<std::uint32_t> pick_buf;
    const RouteStep *const first = steps.data(), *const last = first + steps.size();
    for (SwitchIdx s = 0; s < n; ++s) {
        PortNum *const lft = t.lft[s].data();
        const std::uint8_t *const hops = t.hops[s].data();
        const auto ignored = ignored_ports(f, o, s);
        skip.assign(ignored.size(), 0);
        for (std::size_t p = 0; p < ignored.size(); ++p) skip[p] = ignored[p] ? 1 : 0;
        skip[0] = 1;  // a switch's own LIDs load no port
        dest.assign(n, DestCands{});
        const auto links = g.links(s);
        cand.resize(n * links.size());  // at most every link for every destination switch
        load.assign(std::size_t{f.node(f.switch_node(s)).num_ports} + 1, 0);
        DestCands *const dc = dest.data();
        PortNum *const cp = cand.data();
        std::uint32_t *const ld = load.data();
        const std::uint8_t *const sk = skip.data();
        pick_buf.resize(links.size());
        std::uint32_t *const pick = pick_buf.data();
        std::int32_t used = 0;
        for (const RouteStep *r = first; r != last; ++r) {
            PortNum port;
            if (r->sw == s) {
                port = r->port;
            } else {
                if (hops[r->lid] == kInfHops) continue;
                DestCands &d = dc[r->sw];
                if (d.begin < 0) {
                    // Link indices first (no byte stores inside the loop, see above), then ports.
                    d.begin = used;
                    unsigned k = 0, found = 0;
                    for (const SwitchLink &l : links) {
                        if (allowed(s, l, r->lid)) pick[found++] = k;
                        ++k;
                    }
                    for (unsigned c = 0; c < found; ++c) cp[used++] = links[pick[c]].port;
                    d.len = static_cast<std::uint8_t>(found);
                }
                if (d.len == 0) continue;
                // Both pickers give the first least-loaded candidate; resuming pays off only
                // when a destination switch has many candidates.
                port = d.len <= 4 ? detail::pick_port_scan(cp + d.begin, d.len, ld)
                                  : detail::pick_port_first(cp + d.begin, d.len, ld, d.least, d.at);
            }
            lft[r->lid] = port;
            if (r->counted && !sk[port]) ++ld[port];
        }
    }
}

// Candidate ports of one switch toward every destination switch, laid out for the row builder
// below: row d holds len(d) ports in search order, then kNoPort to the end of the row. Rows are
// at least 4 wide, so a short row is scanned as 4 entries without a loop (kNoPort's load is the
// largest), or as 8 when they are that wide, and at least one wider than the switch's links, so
// a full row still ends in kNoPort.
class CandRows {
  public:
    // What a step toward destination d does (how()[d]): a value below kPick is the one candidate
    // port to take; kPick picks among the row's candidates; kNone leaves the LID unrouted.
    static constexpr std::uint16_t kPick = 0x100, kNone = 0x101;

    void start(std::size_t switches, std::size_t links) {
        width_ = (std::max<std::size_t>(4, links + 1) + 3) / 4 * 4;
        assign_filled(port_, switches * width_, kNoPort);
        assign_filled(len_, switches, std::uint8_t{0});
        assign_filled(how_, switches, std::uint16_t{0});
    }
    // Appends `port` to every row d with ok[d] == 1 (ok[d] is 0 or 1). Branch-free: the port is
    // stored at the row's end either way and only kept by the length; seal() clears the last one.
    void append(PortNum port, const std::uint8_t *ok) {
        PortNum *const p = port_.data();
        std::uint8_t *const len = len_.data();
        const std::size_t w = width_, n = len_.size();
        for (std::size_t d = 0; d < n; ++d) {
            p[d * w + len[d]] = port;
            len[d] = static_cast<std::uint8_t>(len[d] + ok[d]);
        }
    }
    // Row d = the port of links[first[d]] alone (none where first[d] is 0xFF).
    void put_single(const std::uint8_t *first, std::span<const SwitchLink> links) {
        // Raw pointers: the byte stores would otherwise make the compiler reload the members.
        PortNum *const p = port_.data();
        std::uint8_t *const len = len_.data();
        std::uint16_t *const how = how_.data();
        const SwitchLink *const l = links.data();
        const std::size_t w = width_, n = len_.size();
        for (std::size_t d = 0; d < n; ++d) {
            const bool any = first[d] != 0xFF;
            const PortNum port = any ? l[first[d]].port : kNoPort;
            p[d * w] = port;
            len[d] = any ? 1 : 0;
            how[d] = any ? port : kNone;
        }
    }
    // Every row from the links' ok rows (okm[k * stride + d] is 1 where link k may carry
    // destination d): where cnt[d] == 1 link one[d] alone, else the allowed links in link order.
    void put_columns(const std::uint8_t *okm, std::size_t stride, const std::uint8_t *cnt,
                     const std::uint8_t *one, std::span<const SwitchLink> links) {
        PortNum *const p = port_.data();
        std::uint8_t *const len = len_.data();
        std::uint16_t *const how = how_.data();
        const std::size_t w = width_, n = len_.size(), nl = links.size();
        for (std::size_t d = 0; d < n; ++d) {
            PortNum *const row = p + d * w;
            len[d] = cnt[d];
            if (cnt[d] <= 1) {
                const PortNum port = cnt[d] ? links[one[d]].port : kNoPort;
                row[0] = port;
                how[d] = cnt[d] ? port : kNone;
                continue;
            }
            how[d] = kPick;
            // Branch-free: each port is stored at the row's end and kept only when allowed; the
            // last store past the end is cleared after (rows are wider than the link count).
            unsigned k_len = 0;
            for (std::size_t k = 0; k < nl; ++k) {
                row[k_len] = links[k].port;
                k_len += okm[k * stride + d];
            }
            row[k_len] = kNoPort;
        }
    }
    // Ends the rows append() built.
    void seal() {
        PortNum *const p = port_.data();
        const std::uint8_t *const len = len_.data();
        std::uint16_t *const how = how_.data();
        const std::size_t w = width_, n = len_.size();
        for (std::size_t d = 0; d < n; ++d) {
            p[d * w + len[d]] = kNoPort;
            how[d] = len[d] == 0 ? kNone : len[d] == 1 ? p[d * w] : kPick;
        }
    }
    // Every row's first candidate alone (no port equalization).
    void first_only() {
        const PortNum *const p = port_.data();
        const std::uint8_t *const len = len_.data();
        std::uint16_t *const how = how_.data();
        const std::size_t w = width_, n = len_.size();
        for (std::size_t d = 0; d < n; ++d)
            if (len[d] > 1) how[d] = p[d * w];
    }
    const PortNum *row(SwitchIdx d) const { return port_.data() + d * width_; }
    const std::uint8_t *lens() const { return len_.data(); }
    std::uint16_t *how() { return how_.data(); }
    std::size_t width() const { return width_; }

  private:
    std::size_t width_ = 4;
    std::vector<PortNum> port_;
    std::vector<std::uint8_t> len_;
    std::vector<std::uint16_t> how_;
};

// Which allowed links of a switch become its candidates toward a destination switch.
enum class CandRule {
    all_allowed,     // every allowed link (minhop, up*/down*)
    first_neighbour  // the first allowed link's neighbour, over all parallel links to it (dor)
};

namespace detail {
// The first least-loaded of row[0..3] (kNoPort pads short rows and never wins against a real
// port): loads shifted left with the position as a tie-break, minimum without branches.
inline PortNum pick_port_4(const PortNum *row, const std::uint32_t *load) {
    const std::uint64_t k0 = std::uint64_t{load[row[0]]} << 2, k1 = (std::uint64_t{load[row[1]]} << 2) | 1,
                        k2 = (std::uint64_t{load[row[2]]} << 2) | 2,
                        k3 = (std::uint64_t{load[row[3]]} << 2) | 3;
    return row[std::min(std::min(k0, k1), std::min(k2, k3)) & 3];
}
// The same over row[0..7].
inline PortNum pick_port_8(const PortNum *row, const std::uint32_t *load) {
    std::uint64_t best = std::uint64_t{load[row[0]]} << 3;
    for (unsigned k = 1; k < 8; ++k) best = std::min(best, (std::uint64_t{load[row[k]]} << 3) | k);
    return row[best & 7];
}
}  // namespace detail

// Hops from every switch toward every destination switch, read from t.hops through one LID of
// each destination (the min-hop test gives the same ports for every LID of a switch wherever the
// LID is routed at all). Rows are padded to a multiple of 16 for byte-vector loops.
struct SwitchHops {
    std::size_t n = 0, stride = 0;
    std::vector<std::uint8_t> v;  // v[x * stride + d]; kInfHops where d has no LID
    const std::uint8_t *row(SwitchIdx x) const { return v.data() + std::size_t{x} * stride; }
};
SwitchHops switch_hops_from_lids(const SwitchGraph &g, const RoutingTables &t);
// Row stride of a SwitchHops for n switches.
inline std::size_t switch_hops_stride(std::size_t n) {
    return (n + 15) / 16 * 16;
}
// A switch hop matrix built with switch_hops_stride rows as SwitchHops, without a copy.
inline SwitchHops switch_hops_of(HopMatrix &&m) {
    SwitchHops h;
    h.n = m.n;
    h.stride = m.stride;
    h.v = std::move(m.v);
    return h;
}

// ok[d] = 1 where the far switch (row `there`) is one hop closer to d than this one (`here`),
// for d < stride (a multiple of 16).
inline void min_hop_row(const std::uint8_t *here, const std::uint8_t *there, std::uint8_t *ok,
                        std::size_t stride) {
    // 16 destinations per step (-O2 does not vectorize the plain loop).
    using Bytes = detail::Bytes16;
    for (std::size_t b = 0; b < stride; b += 16) {
        Bytes x, h;
        std::memcpy(&x, there + b, 16);
        std::memcpy(&h, here + b, 16);
        const Bytes r = reinterpret_cast<Bytes>((x != kInfHops) & (x + 1 == h)) & 1;
        std::memcpy(ok + b, &r, 16);
    }
}

// build_equalized_lfts for LMC 0 without a port search order, from whole rows: ok_row(s, link,
// ok) sets ok[d] to 1 when switch s may send toward destination switch d over `link`, else 0,
// for every d at once (engines compare hop-matrix rows), so the candidates of every destination
// switch are known before the route order is walked and the walk picks ports without branching
// on loads. equalize = false takes the first candidate (dor's --no_port_equalization).
template <class OkRow>
[[gnu::hot]] void build_row_lfts(const Fabric &f, const SwitchGraph &g, const RoutingOptions &o,
                                 RoutingTables &t, const std::vector<RouteOrderEntry> &order, CandRule rule,
                                 bool equalize, OkRow &&ok_row) {
    const std::size_t n = g.size();
    const std::vector<RouteStep> steps = route_steps(g, o, order);
    const bool any_ignored = !o.ignore_ports.empty() || !o.ignore_guids.empty();
    CandRows rows;
    const std::size_t stride = (n + 15) / 16 * 16;
    std::vector<std::uint8_t> ok(stride), first(stride), nb, okm, cnt(stride), one(stride);
    std::vector<std::uint32_t> least(n);
    std::vector<std::uint8_t> at(n);
    std::array<std::uint32_t, 256> load;  // by port; kNoPort (255, never a port) loads the most
    std::array<std::uint8_t, 256> skip;   // ports that take no load: 0 (own LIDs) and ignored ones
    const RouteStep *const first_step = steps.data(), *const last_step = first_step + steps.size();
    for (SwitchIdx s = 0; s < n; ++s) {
        const auto links = g.links(s);
        rows.start(n, links.size());
        if (rule == CandRule::all_allowed) {
            // Each link's ok row, and per destination how many links are allowed and (where it
            // is one) which, 16 destinations at a time; then the rows from those columns.
            // A bigger buffer starts zeroed, as resize() would leave it; each row used is
            // rewritten by ok_row before it is read.
            if (okm.size() < links.size() * stride) okm = std::vector<std::uint8_t>(links.size() * stride);
            std::fill(cnt.begin(), cnt.end(), std::uint8_t{0});
            std::fill(one.begin(), one.end(), std::uint8_t{0});
            for (std::size_t k = 0; k < links.size(); ++k) {
                std::uint8_t *const okk = okm.data() + k * stride;
                ok_row(s, links[k], okk);
                const auto kk = static_cast<std::uint8_t>(k);
                for (std::size_t b = 0; b < stride; b += 16) {
                    detail::Bytes16 y, c16, o16;
                    std::memcpy(&y, okk + b, 16);
                    std::memcpy(&c16, cnt.data() + b, 16);
                    std::memcpy(&o16, one.data() + b, 16);
                    c16 += y;
                    o16 += (detail::Bytes16{} - y) & kk;  // the index sum, exact where one allowed
                    std::memcpy(cnt.data() + b, &c16, 16);
                    std::memcpy(one.data() + b, &o16, 16);
                }
            }
            rows.put_columns(okm.data(), stride, cnt.data(), one.data(), links);
        } else {
            // Links by neighbour: nb[k] = the first link to the same switch as link k.
            assign_filled(nb, links.size(), std::uint8_t{0});
            bool parallel = false;
            for (std::size_t k = 0; k < links.size(); ++k) {
                std::size_t j = 0;
                while (links[j].peer != links[k].peer) ++j;
                nb[k] = static_cast<std::uint8_t>(j);
                parallel |= j != k;
            }
            // The first allowed link's neighbour per destination (scanning the links backwards),
            // then every link to that neighbour, 16 destinations at a time.
            std::fill(first.begin(), first.end(), std::uint8_t{0xFF});
            for (std::size_t k = links.size(); k-- > 0;) {
                ok_row(s, links[k], ok.data());
                for (std::size_t b = 0; b < stride; b += 16) {
                    detail::Bytes16 y, f16;
                    std::memcpy(&y, ok.data() + b, 16);
                    std::memcpy(&f16, first.data() + b, 16);
                    const detail::Bytes16 m = detail::Bytes16{} - y;  // 0xFF where allowed
                    f16 = (f16 & ~m) | (nb[k] & m);
                    std::memcpy(first.data() + b, &f16, 16);
                }
            }
            if (!parallel) {
                rows.put_single(first.data(), links);  // one link per neighbour: it alone
            } else {
                std::uint8_t tested = 0xFF;  // the neighbour ok holds the test for
                for (std::size_t k = 0; k < links.size(); ++k) {
                    if (nb[k] != tested)
                        for (std::size_t b = 0; b < stride; b += 16) {
                            detail::Bytes16 f16;
                            std::memcpy(&f16, first.data() + b, 16);
                            const detail::Bytes16 r = reinterpret_cast<detail::Bytes16>(f16 == nb[k]) & 1;
                            std::memcpy(ok.data() + b, &r, 16);
                        }
                    tested = nb[k];
                    rows.append(links[k].port, ok.data());
                }
                rows.seal();
            }
        }
        load.fill(0);
        load[kNoPort] = 0xFFFFFFFFu;
        skip.fill(0);
        skip[0] = 1;
        if (any_ignored) {
            const auto ignored = ignored_ports(f, o, s);
            for (std::size_t p = 0; p < ignored.size(); ++p) skip[p] = ignored[p] ? 1 : 0;
            skip[0] = 1;
        }
        std::fill(least.begin(), least.end(), 0xFFFFFFFFu);
        std::fill(at.begin(), at.end(), std::uint8_t{0});
        // Raw pointers: the byte stores into the LFT may alias the vectors' own pointers.
        PortNum *const lft = t.lft[s].data();
        const std::uint8_t *const hops = t.hops[s].data();
        const std::uint8_t *const len = rows.lens();
        std::uint32_t *const ld = load.data();
        const std::uint8_t *const sk = skip.data();
        // Per destination switch what a step toward it does (CandRows::how), and toward this
        // switch: take the step's own port.
        constexpr std::uint16_t kPick = CandRows::kPick, kNone = CandRows::kNone, kOwn = 0x102;
        if (!equalize) rows.first_only();
        std::uint16_t *const how = rows.how();
        how[s] = kOwn;
        // Port 0 (own LIDs) takes load harmlessly (never a candidate), so without ignored ports
        // the skip table need not be read.
        auto walk = [&](auto with_skip) {
            for (const RouteStep *r = first_step; r != last_step; ++r) {
                const std::uint16_t v = how[r->sw];
                PortNum port;
                if (v < kPick) {
                    if (hops[r->lid] == kInfHops) continue;
                    port = static_cast<PortNum>(v);
                } else if (v == kOwn) {
                    port = r->port;
                } else if (v == kNone || hops[r->lid] == kInfHops) {
                    continue;
                } else {
                    const unsigned l = len[r->sw];
                    const PortNum *row = rows.row(r->sw);
                    if (l <= 4)
                        port = detail::pick_port_4(row, ld);
                    else if (l <= 8)
                        port = detail::pick_port_8(row, ld);
                    else
                        port = detail::pick_port_first(row, l, ld, least[r->sw], at[r->sw]);
                }
                lft[r->lid] = port;
                if constexpr (decltype(with_skip)::value)
                    ld[port] += r->counted & !sk[port];
                else
                    ld[port] += r->counted;
            }
        };
        if (any_ignored)
            walk(std::true_type{});
        else
            walk(std::false_type{});
    }
}

// allowed(s, link, lid): may switch s send `lid` over `link`? Asked once per (s, destination
// switch) with a representative LID, so it must depend on the destination switch only.
template <class Allowed>
[[gnu::hot]] void build_equalized_lfts(const Fabric &f, const SwitchGraph &g, const RoutingOptions &o,
                                       RoutingTables &t, Allowed &&allowed) {
    const auto order = route_order(f, g, o.guid_routing_order);
    if (is_plain_order(o, order)) return build_plain_lfts(f, g, o, t, order, allowed);
    build_equalized_lfts(f, g, o, t, order, allowed);
}

// The same with ok_row (see build_row_lfts) for the common case: the same tables, faster.
template <class Allowed, class OkRow>
[[gnu::hot]] void build_equalized_lfts(const Fabric &f, const SwitchGraph &g, const RoutingOptions &o,
                                       RoutingTables &t, Allowed &&allowed, OkRow &&ok_row) {
    const auto order = route_order(f, g, o.guid_routing_order);
    if (is_plain_order(o, order))
        return build_row_lfts(f, g, o, t, order, CandRule::all_allowed, true, ok_row);
    build_equalized_lfts(f, g, o, t, order, allowed);
}

// The general case (LMC, port search order) in a given route order.
template <class Allowed>
[[gnu::hot]] void build_equalized_lfts(const Fabric &f, const SwitchGraph &g, const RoutingOptions &o,
                                       RoutingTables &t, const std::vector<RouteOrderEntry> &order,
                                       Allowed &&allowed) {
    const std::size_t n = g.size();
    std::uint32_t max_count = 1;
    for (const auto &e : order) max_count = std::max(max_count, e.count);
    const bool lmc_aware = o.lmc > 0;
    std::vector<std::vector<detail::RemoteUse>> remote(lmc_aware ? order.size() : 0);
    LftScratch sc;
    for (SwitchIdx s = 0; s < n; ++s) {
        auto &lft = t.lft[s];
        const auto &hops = t.hops[s];
        const NodeIdx node = f.switch_node(s);
        const auto ignored = ignored_ports(f, o, s);
        const auto search_rank = port_search_rank(f, o, s);
        sc.cand_begin.assign(n, -1);
        sc.cand_len.assign(n, 0);
        sc.cand_least.assign(n, 0xFFFFFFFFu);
        sc.cand_at.assign(n, 0);
        sc.cand.clear();
        sc.load.assign(std::size_t{f.node(node).num_ports} + 1, 0);
        for (auto &r : remote) r.clear();
        for (std::uint32_t i = 0; i < max_count; ++i) {
            for (std::size_t k = 0; k < order.size(); ++k) {
                const RouteOrderEntry &e = order[k];
                if (i >= e.count) continue;
                const Lid lid = e.base + i;
                const LidTarget &tg = g.target(lid);
                if (tg.sw == kNoSwitch) continue;
                PortNum port;
                if (tg.sw == s) {
                    port = tg.port;  // own LID (port 0) or a CA cabled right here
                } else {
                    if (hops[lid] == kInfHops) continue;
                    if (sc.cand_begin[tg.sw] < 0) {
                        sc.cand_begin[tg.sw] = static_cast<std::int32_t>(sc.cand.size());
                        for (const SwitchLink &l : g.links(s))
                            if (allowed(s, l, lid)) sc.cand.push_back(l.port);
                        sc.cand_len[tg.sw] = static_cast<std::uint8_t>(
                            sc.cand.size() - static_cast<std::size_t>(sc.cand_begin[tg.sw]));
                        if (!search_rank.empty())
                            std::stable_sort(
                                sc.cand.begin() + sc.cand_begin[tg.sw], sc.cand.end(),
                                [&](PortNum a, PortNum b) { return search_rank[a] < search_rank[b]; });
                    }
                    const unsigned len = sc.cand_len[tg.sw];
                    if (len == 0) continue;
                    unsigned start = (i > 0 && lft[lid - 1] != kNoPort) ? lft[lid - 1] + 1u : 1u;
                    const PortNum *cand = sc.cand.data() + sc.cand_begin[tg.sw];
                    std::array<PortNum, 256> rotated;
                    if (!search_rank.empty() && start != 1) {
                        // OpenSM takes the previous LID's port + 1 as a position in the search
                        // order (position 0 is port 0, so a port of rank r sits at r + 1) and
                        // scans cyclically from there: hand the pickers the candidates rotated
                        // to start at the first one at or after that position.
                        const unsigned pos = start % static_cast<unsigned>(sc.load.size());
                        unsigned from = 0;
                        while (from < len && search_rank[cand[from]] + 1u < pos) ++from;
                        if (from == len) from = 0;
                        for (unsigned c = 0; c < len; ++c) rotated[c] = cand[(from + c) % len];
                        cand = rotated.data();
                        start = 1;
                    }
                    if (lmc_aware)
                        port = detail::pick_port(f, s, cand, len, start, sc.load, &remote[k]);
                    else if (start == 1)  // candidates are ports >= 1: the scan starts at the first
                        port = detail::pick_port_first(cand, len, sc.load.data(), sc.cand_least[tg.sw],
                                                       sc.cand_at[tg.sw]);
                    else
                        port = detail::pick_port_plain(cand, len, start, sc.load.data(),
                                                       static_cast<unsigned>(sc.load.size()));
                }
                lft[lid] = port;
                if (port == 0 || ignored[port] || (tg.is_switch && !o.port_profile_switch_nodes)) continue;
                ++sc.load[port];
                if (lmc_aware) detail::note_remote(f, s, port, remote[k]);
            }
        }
    }
}

}  // namespace weft::routing::engines
