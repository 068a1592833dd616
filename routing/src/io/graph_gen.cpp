// Direct-network generators: meshes and tori, hypercubes, dragonfly, dragonfly+, random
// regular graphs.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "gen_builder.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/seeded_rng.hpp"

namespace weft::routing {
namespace {

void add_hosts(io::GenBuilder &b, NodeIdx sw, unsigned first_port, unsigned hosts) {
    for (unsigned h = 0; h < hosts; ++h) b.link(b.add_host(1, b.host_name()), 1, sw, first_port + h);
}

}  // namespace

Fabric make_grid(const GridParams &p) {
    if (p.dims.empty()) throw std::invalid_argument("grid: at least one dimension");
    std::uint64_t total = 1;
    for (unsigned d : p.dims) {
        if (d == 0) throw std::invalid_argument("grid: dimension sizes must be >= 1");
        total *= d;
        if (total > 1'000'000) throw std::invalid_argument("grid: more than a million switches");
    }
    const unsigned D = static_cast<unsigned>(p.dims.size());
    io::check_lid_space("grid", total, total * p.hosts);
    io::GenBuilder b;
    std::vector<NodeIdx> sw(total);
    // Port 2d+1 points to +1 along dimension d, port 2d+2 to -1; hosts follow.
    for (std::uint64_t i = 0; i < total; ++i)
        sw[i] = b.add_switch(2 * D + p.hosts, io::GenBuilder::name("sw", static_cast<unsigned>(i), 4));
    std::uint64_t stride = 1;
    for (unsigned d = 0; d < D; ++d) {
        const unsigned size = p.dims[d];
        for (std::uint64_t i = 0; i < total; ++i) {
            const unsigned c = static_cast<unsigned>((i / stride) % size);
            if (c + 1 < size)
                b.link(sw[i], 2 * d + 1, sw[i + stride], 2 * d + 2);
            else if (p.torus && size > 2)
                b.link(sw[i], 2 * d + 1, sw[i - c * stride], 2 * d + 2);
        }
        stride *= size;
    }
    for (std::uint64_t i = 0; i < total; ++i) add_hosts(b, sw[i], 2 * D + 1, p.hosts);
    return std::move(b.f);
}

Fabric make_hypercube(unsigned dim, unsigned hosts) {
    if (dim < 1 || dim > 20) throw std::invalid_argument("hypercube: d must be 1..20");
    const unsigned n = 1u << dim;
    io::check_lid_space("hypercube", n, std::uint64_t{n} * hosts);
    io::GenBuilder b;
    std::vector<NodeIdx> sw(n);
    for (unsigned i = 0; i < n; ++i) sw[i] = b.add_switch(dim + hosts, io::GenBuilder::name("sw", i, 4));
    for (unsigned i = 0; i < n; ++i)
        for (unsigned k = 0; k < dim; ++k)
            if (const unsigned j = i ^ (1u << k); i < j) b.link(sw[i], k + 1, sw[j], k + 1);
    for (unsigned i = 0; i < n; ++i) add_hosts(b, sw[i], dim + 1, hosts);
    return std::move(b.f);
}

Fabric make_dragonfly(const DragonflyParams &p) {
    if (p.a < 1 || p.h < 1) throw std::invalid_argument("dragonfly: a and h must be >= 1");
    const unsigned g = p.g ? p.g : p.a * p.h + 1;
    if (g < 2 || g - 1 > p.a * p.h)
        throw std::invalid_argument("dragonfly: g must be 2..a*h+1 (one global cable per group pair)");
    io::check_lid_space("dragonfly", std::uint64_t{g} * p.a, std::uint64_t{g} * p.a * p.p);
    io::GenBuilder b;
    // Router ports: hosts 1..p, local p+1..p+a-1, global p+a..p+a+h-1.
    std::vector<NodeIdx> r(g * p.a);
    for (unsigned G = 0; G < g; ++G)
        for (unsigned x = 0; x < p.a; ++x)
            r[G * p.a + x] =
                b.add_switch(p.p + p.a - 1 + p.h, "g" + std::to_string(G) + "-r" + std::to_string(x));
    for (unsigned G = 0; G < g; ++G)
        for (unsigned x = 0; x < p.a; ++x)
            for (unsigned y = x + 1; y < p.a; ++y)
                b.link(r[G * p.a + x], p.p + 1 + (y - 1), r[G * p.a + y], p.p + 1 + x);
    // Global channel j of a group (router j / h, port j % h) leads to the group at offset j + 1.
    for (unsigned G = 0; G < g; ++G) {
        for (unsigned o = 1; o < g; ++o) {
            const unsigned T = (G + o) % g;
            if (T < G) continue;
            const unsigned j = o - 1, jr = g - o - 1;
            b.link(r[G * p.a + j / p.h], p.p + p.a + j % p.h, r[T * p.a + jr / p.h], p.p + p.a + jr % p.h);
        }
    }
    for (unsigned i = 0; i < g * p.a; ++i) add_hosts(b, r[i], 1, p.p);
    return std::move(b.f);
}

Fabric make_dragonfly_plus(const DragonflyPlusParams &p) {
    if (p.groups < 1 || p.leaves < 1 || p.spines < 1)
        throw std::invalid_argument("dfplus: groups, leaves, spines >= 1");
    const unsigned G = p.groups, L = p.leaves, S = p.spines;
    const unsigned hg = G > 1 ? (G - 1 + S - 1) / S : 0;  // global ports per spine
    io::check_lid_space("dfplus", std::uint64_t{G} * (L + S), std::uint64_t{G} * L * p.hosts);
    io::GenBuilder b;
    std::vector<NodeIdx> spine(G * S), leaf(G * L);
    for (unsigned g = 0; g < G; ++g)
        for (unsigned s = 0; s < S; ++s)
            spine[g * S + s] =
                b.add_switch(L + std::max(hg, 1u), "g" + std::to_string(g) + "-s" + std::to_string(s));
    for (unsigned g = 0; g < G; ++g)
        for (unsigned l = 0; l < L; ++l)
            leaf[g * L + l] = b.add_switch(p.hosts + S, "g" + std::to_string(g) + "-l" + std::to_string(l));
    for (unsigned g = 0; g < G; ++g)
        for (unsigned l = 0; l < L; ++l)
            for (unsigned s = 0; s < S; ++s)
                b.link(leaf[g * L + l], p.hosts + 1 + s, spine[g * S + s], 1 + l);
    // Group pair at offset o uses global channel j = o - 1: spine j mod S, its port j / S.
    for (unsigned g = 0; g < G; ++g)
        for (unsigned o = 1; o < G; ++o) {
            const unsigned t = (g + o) % G;
            if (t < g) continue;
            const unsigned j = o - 1, jr = G - o - 1;
            b.link(spine[g * S + j % S], L + 1 + j / S, spine[t * S + jr % S], L + 1 + jr / S);
        }
    for (unsigned i = 0; i < G * L; ++i) add_hosts(b, leaf[i], 1, p.hosts);
    return std::move(b.f);
}

Fabric make_random_regular(const RandomParams &p) {
    const unsigned n = p.switches, d = p.degree;
    if (n < 2 || d < 1 || d >= n || (std::uint64_t{n} * d) % 2)
        throw std::invalid_argument(
            "random: need switches >= 2, 1 <= degree < switches, switches*degree even");
    io::check_lid_space("random", n, std::uint64_t{n} * p.hosts);
    SeededRng rng(p.seed);
    using Edge = std::pair<unsigned, unsigned>;
    auto key = [](unsigned u, unsigned v) { return (std::uint64_t{std::min(u, v)} << 32) | std::max(u, v); };
    for (unsigned attempt = 0; attempt < 100; ++attempt) {
        // Configuration model, then double-edge swaps until no self-loop or parallel edge is left.
        std::vector<unsigned> stubs;
        stubs.reserve(std::size_t{n} * d);
        for (unsigned i = 0; i < n; ++i)
            for (unsigned k = 0; k < d; ++k) stubs.push_back(i);
        rng.shuffle(stubs);
        std::vector<Edge> e;
        std::unordered_map<std::uint64_t, unsigned> mult;
        for (std::size_t i = 0; i + 1 < stubs.size(); i += 2) {
            e.emplace_back(stubs[i], stubs[i + 1]);
            ++mult[key(stubs[i], stubs[i + 1])];
        }
        auto bad = [&](const Edge &x) { return x.first == x.second || mult[key(x.first, x.second)] > 1; };
        const std::size_t limit = 200 * e.size() + 1000;
        std::size_t steps = 0;
        for (bool dirty = true; dirty && steps < limit;) {
            dirty = false;
            for (std::size_t i = 0; i < e.size() && steps < limit; ++i) {
                if (!bad(e[i])) continue;
                dirty = true;
                ++steps;
                const std::size_t j = rng.below(e.size());
                if (j == i) continue;
                auto [u, v] = e[i];
                auto [x, y] = e[j];
                Edge a{u, x}, c{v, y};
                if (rng.below(2)) a = {u, y}, c = {v, x};
                if (a.first == a.second || c.first == c.second || mult[key(a.first, a.second)] ||
                    mult[key(c.first, c.second)] || key(a.first, a.second) == key(c.first, c.second))
                    continue;
                --mult[key(u, v)];
                --mult[key(x, y)];
                ++mult[key(a.first, a.second)];
                ++mult[key(c.first, c.second)];
                e[i] = a;
                e[j] = c;
            }
        }
        if (std::any_of(e.begin(), e.end(), bad)) continue;
        // Connected? (union-find)
        std::vector<unsigned> parent(n);
        for (unsigned i = 0; i < n; ++i) parent[i] = i;
        auto find = [&](unsigned x) {
            while (parent[x] != x) x = parent[x] = parent[parent[x]];
            return x;
        };
        unsigned comps = n;
        for (auto [u, v] : e)
            if (find(u) != find(v)) parent[find(u)] = find(v), --comps;
        if (comps != 1) continue;
        io::GenBuilder b;
        std::vector<NodeIdx> sw(n);
        std::vector<unsigned> next_port(n, 1);
        for (unsigned i = 0; i < n; ++i) sw[i] = b.add_switch(d + p.hosts, io::GenBuilder::name("sw", i, 4));
        std::sort(e.begin(), e.end(), [&](const Edge &x, const Edge &y) {
            return key(x.first, x.second) < key(y.first, y.second);
        });
        for (auto [u, v] : e) b.link(sw[u], next_port[u]++, sw[v], next_port[v]++);
        for (unsigned i = 0; i < n; ++i) add_hosts(b, sw[i], d + 1, p.hosts);
        return std::move(b.f);
    }
    throw std::runtime_error("random: no connected simple regular graph found in 100 attempts");
}

}  // namespace weft::routing
