// Fat-tree generators: PGFT/XGFT (bottom-up notation), k-ary-n-trees, maximal radix-k trees.
#include <stdexcept>
#include <string>

#include "gen_builder.hpp"
#include "weft/routing/generators.hpp"

namespace weft::routing {

PgftParams xgft_from_seed002(unsigned n, std::vector<unsigned> m, std::vector<unsigned> w) {
    // Seed 002 counts levels from the roots (level 0) to the hosts (level n): its m1 is the
    // roots' child count and its wn the hosts' parent count. Reversing both lists gives the
    // bottom-up form.
    if (m.size() != n || w.size() != n) throw std::invalid_argument("xgft: m and w need n entries each");
    PgftParams p;
    p.h = n;
    p.m.assign(m.rbegin(), m.rend());
    p.w.assign(w.rbegin(), w.rend());
    p.p.assign(n, 1);
    return p;
}

Fabric make_pgft(const PgftParams &pp) {
    const unsigned h = pp.h;
    if (h == 0 || pp.m.size() != h || pp.w.size() != h || (pp.p.size() != h && !pp.p.empty()))
        throw std::invalid_argument("pgft: h >= 1 and m, w (and p) with h entries each");
    std::vector<unsigned> par = pp.p.empty() ? std::vector<unsigned>(h, 1) : pp.p;
    for (unsigned i = 0; i < h; ++i)
        if (!pp.m[i] || !pp.w[i] || !par[i]) throw std::invalid_argument("pgft: every m, w, p must be >= 1");
    // N_l = prod_{i>l} m_i * prod_{i<=l} w_i (1-based m_i = pp.m[i-1]).
    std::vector<std::uint64_t> count(h + 1);
    for (unsigned l = 0; l <= h; ++l) {
        std::uint64_t c = 1;
        auto grow = [&](unsigned x) {  // checked at every step: the product must not overflow
            c *= x;
            if (c > 1'000'000) throw std::invalid_argument("pgft: more than a million nodes on one level");
        };
        for (unsigned i = l + 1; i <= h; ++i) grow(pp.m[i - 1]);
        for (unsigned i = 1; i <= l; ++i) grow(pp.w[i - 1]);
        count[l] = c;
    }
    std::uint64_t switches = 0;
    for (unsigned l = 1; l <= h; ++l) switches += count[l];
    io::check_lid_space("pgft", switches, count[0] * pp.w[0] * par[0]);
    io::GenBuilder b;
    std::vector<std::vector<NodeIdx>> level(h + 1);
    for (unsigned l = h; l >= 1; --l) {
        unsigned ports = pp.m[l - 1] * par[l - 1] + (l < h ? pp.w[l] * par[l] : 0);
        if (pp.radix) {
            if (pp.radix < ports)
                throw std::invalid_argument("pgft: level " + std::to_string(l) + " switches need " +
                                            std::to_string(ports) + " ports, radix is " +
                                            std::to_string(pp.radix));
            ports = pp.radix;
        }
        for (std::uint64_t x = 0; x < count[l]; ++x)
            level[l].push_back(b.add_switch(
                ports,
                io::GenBuilder::name(("L" + std::to_string(l) + "-").c_str(), static_cast<unsigned>(x), 4)));
    }
    for (std::uint64_t x = 0; x < count[0]; ++x)
        level[0].push_back(b.add_host(pp.w[0] * par[0], b.host_name()));
    // A level-l node X has child digit a = X mod m_{l+1}; its parent number j (0..w_{l+1}-1) is
    // X / m_{l+1} + j * N_l / m_{l+1} on level l+1.
    for (unsigned l = 0; l < h; ++l) {
        const unsigned m = pp.m[l], w = pp.w[l], p = par[l];
        const std::uint64_t stride = count[l] / m;
        const unsigned up_base = l == 0 ? 1 : pp.m[l - 1] * par[l - 1] + 1;
        for (std::uint64_t x = 0; x < count[l]; ++x) {
            const unsigned a = static_cast<unsigned>(x % m);
            for (unsigned j = 0; j < w; ++j) {
                const std::uint64_t parent = x / m + j * stride;
                for (unsigned k = 0; k < p; ++k)
                    b.link(level[l][x], up_base + j * p + k, level[l + 1][parent], 1 + a * p + k);
            }
        }
    }
    return std::move(b.f);
}

Fabric make_kary_ntree(unsigned k, unsigned n) {
    if (k < 1 || n < 1) throw std::invalid_argument("kary: k and n must be >= 1");
    PgftParams p;
    p.h = n;
    p.m.assign(n, k);
    p.w.assign(n, k);
    p.w[0] = 1;
    p.p.assign(n, 1);
    p.radix = 2 * k;
    return make_pgft(p);
}

Fabric make_max_fat_tree(unsigned k, unsigned n) {
    if (k < 2 || k % 2 || n < 1) throw std::invalid_argument("ftree: k must be even and >= 2, n >= 1");
    PgftParams p;
    p.h = n;
    p.m.assign(n, k / 2);
    p.m[n - 1] = k;
    p.w.assign(n, k / 2);
    p.w[0] = 1;
    p.p.assign(n, 1);
    p.radix = k;
    return make_pgft(p);
}

}  // namespace weft::routing
