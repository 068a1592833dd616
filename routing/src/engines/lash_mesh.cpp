#include "engines/lash_mesh.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>

namespace weft::routing::engines {
namespace {

constexpr unsigned kMaxDegree = 8;
constexpr int kLarge = 0x7fffffff;  // unreached distance or coordinate

// Local shapes OpenSM knows: a switch inside a mesh/torus of `dimension` dimensions whose extents
// are `size` (6 standing for six or more) has `degree` neighbours whose distance matrix M has
// det(M - xI) = poly[0] + poly[1] x + ... (OpenSM 3.3.23's table, in its order; the last entry
// is a 2-D shape OpenSM lists as a "mesh error" but still accepts).
struct Shape {
    int dimension;
    std::array<int, 8> size;
    unsigned degree;
    std::array<int, 9> poly;
};
constexpr Shape kShapes[] = {
    {1, {2}, 1, {0, -1}},
    {1, {3}, 2, {-1, 0, 1}},
    {1, {5}, 2, {-9, 0, 1}},
    {1, {6}, 2, {-36, 0, 1}},
    {2, {2, 2}, 2, {-4, 0, 1}},
    {2, {3, 2}, 3, {8, 9, 0, -1}},
    {2, {5, 2}, 3, {24, 17, 0, -1}},
    {2, {6, 2}, 3, {32, 24, 0, -1}},
    {2, {3, 3}, 4, {-15, -32, -18, 0, 1}},
    {2, {5, 3}, 4, {-39, -64, -26, 0, 1}},
    {2, {6, 3}, 4, {-48, -80, -33, 0, 1}},
    {2, {5, 5}, 4, {-63, -96, -34, 0, 1}},
    {2, {6, 5}, 4, {-48, -112, -41, 0, 1}},
    {2, {6, 6}, 4, {0, -128, -48, 0, 1}},
    {3, {2, 2, 2}, 3, {16, 12, 0, -1}},
    {3, {3, 2, 2}, 4, {-28, -48, -21, 0, 1}},
    {3, {5, 2, 2}, 4, {-60, -80, -29, 0, 1}},
    {3, {6, 2, 2}, 4, {-64, -96, -36, 0, 1}},
    {3, {3, 3, 2}, 5, {48, 127, 112, 34, 0, -1}},
    {3, {5, 3, 2}, 5, {96, 215, 160, 42, 0, -1}},
    {3, {6, 3, 2}, 5, {96, 232, 184, 49, 0, -1}},
    {3, {5, 5, 2}, 5, {144, 303, 208, 50, 0, -1}},
    {3, {6, 5, 2}, 5, {96, 296, 232, 57, 0, -1}},
    {3, {6, 6, 2}, 5, {0, 256, 256, 64, 0, -1}},
    {3, {3, 3, 3}, 6, {-81, -288, -381, -224, -51, 0, 1}},
    {3, {5, 3, 3}, 6, {-153, -480, -557, -288, -59, 0, 1}},
    {3, {6, 3, 3}, 6, {-144, -480, -591, -320, -66, 0, 1}},
    {3, {5, 5, 3}, 6, {-225, -672, -733, -352, -67, 0, 1}},
    {3, {6, 5, 3}, 6, {-144, -576, -743, -384, -74, 0, 1}},
    {3, {6, 6, 3}, 6, {0, -384, -720, -416, -81, 0, 1}},
    {3, {5, 5, 5}, 6, {-297, -864, -909, -416, -75, 0, 1}},
    {3, {6, 5, 5}, 6, {-144, -672, -895, -448, -82, 0, 1}},
    {3, {6, 6, 5}, 6, {0, -384, -848, -480, -89, 0, 1}},
    {3, {6, 6, 6}, 6, {0, 0, -768, -512, -96, 0, 1}},
    {4, {2, 2, 2, 2}, 4, {-48, -64, -24, 0, 1}},
    {4, {3, 2, 2, 2}, 5, {80, 180, 136, 37, 0, -1}},
    {4, {5, 2, 2, 2}, 5, {144, 276, 184, 45, 0, -1}},
    {4, {6, 2, 2, 2}, 5, {128, 288, 208, 52, 0, -1}},
    {4, {3, 3, 2, 2}, 6, {-132, -416, -487, -256, -54, 0, 1}},
    {4, {5, 3, 2, 2}, 6, {-228, -640, -671, -320, -62, 0, 1}},
    {4, {6, 3, 2, 2}, 6, {-192, -608, -700, -352, -69, 0, 1}},
    {4, {5, 5, 2, 2}, 6, {-324, -864, -855, -384, -70, 0, 1}},
    {4, {6, 5, 2, 2}, 6, {-192, -736, -860, -416, -77, 0, 1}},
    {4, {6, 6, 2, 2}, 6, {0, -512, -832, -448, -84, 0, 1}},
    {4, {3, 3, 3, 2}, 7, {216, 873, 1392, 1101, 440, 75, 0, -1}},
    {4, {5, 3, 3, 2}, 7, {360, 1329, 1936, 1405, 520, 83, 0, -1}},
    {4, {6, 3, 3, 2}, 7, {288, 1176, 1872, 1455, 560, 90, 0, -1}},
    {4, {5, 5, 3, 2}, 7, {504, 1785, 2480, 1709, 600, 91, 0, -1}},
    {4, {6, 5, 3, 2}, 7, {288, 1368, 2272, 1735, 640, 98, 0, -1}},
    {4, {6, 6, 3, 2}, 7, {0, 768, 1920, 1728, 680, 105, 0, -1}},
    {4, {5, 5, 5, 2}, 7, {648, 2241, 3024, 2013, 680, 99, 0, -1}},
    {4, {6, 5, 5, 2}, 7, {288, 1560, 2672, 2015, 720, 106, 0, -1}},
    {4, {6, 6, 5, 2}, 7, {0, 768, 2176, 1984, 760, 113, 0, -1}},
    {4, {6, 6, 6, 2}, 7, {0, 0, 1536, 1920, 800, 120, 0, -1}},
    {4, {3, 3, 3, 3}, 8, {-351, -1728, -3492, -3712, -2202, -704, -100, 0, 1}},
    {4, {5, 3, 3, 3}, 8, {-567, -2592, -4860, -4800, -2658, -800, -108, 0, 1}},
    {4, {6, 3, 3, 3}, 8, {-432, -2160, -4401, -4672, -2733, -848, -115, 0, 1}},
    {4, {5, 5, 3, 3}, 8, {-783, -3456, -6228, -5888, -3114, -896, -116, 0, 1}},
    {4, {6, 5, 3, 3}, 8, {-432, -2448, -5241, -5568, -3165, -944, -123, 0, 1}},
    {4, {6, 6, 3, 3}, 8, {0, -1152, -3888, -5056, -3183, -992, -130, 0, 1}},
    {4, {5, 5, 5, 3}, 8, {-999, -4320, -7596, -6976, -3570, -992, -124, 0, 1}},
    {4, {6, 5, 5, 3}, 8, {-432, -2736, -6081, -6464, -3597, -1040, -131, 0, 1}},
    {4, {6, 6, 5, 3}, 8, {0, -1152, -4272, -5760, -3591, -1088, -138, 0, 1}},
    {4, {6, 6, 6, 3}, 8, {0, 0, -2304, -4864, -3552, -1136, -145, 0, 1}},
    {5, {2, 2, 2, 2, 2}, 5, {128, 240, 160, 40, 0, -1}},
    {5, {3, 2, 2, 2, 2}, 6, {-208, -576, -600, -288, -57, 0, 1}},
    {5, {5, 2, 2, 2, 2}, 6, {-336, -832, -792, -352, -65, 0, 1}},
    {5, {6, 2, 2, 2, 2}, 6, {-256, -768, -816, -384, -72, 0, 1}},
    {5, {3, 3, 2, 2, 2}, 7, {336, 1228, 1776, 1287, 480, 78, 0, -1}},
    {5, {5, 3, 2, 2, 2}, 7, {528, 1772, 2368, 1599, 560, 86, 0, -1}},
    {5, {6, 3, 2, 2, 2}, 7, {384, 1504, 2256, 1644, 600, 93, 0, -1}},
    {5, {5, 5, 2, 2, 2}, 7, {720, 2316, 2960, 1911, 640, 94, 0, -1}},
    {5, {6, 5, 2, 2, 2}, 7, {384, 1760, 2704, 1932, 680, 101, 0, -1}},
    {5, {6, 6, 2, 2, 2}, 7, {0, 1024, 2304, 1920, 720, 108, 0, -1}},
    {5, {3, 3, 3, 2, 2}, 8, {-540, -2448, -4557, -4480, -2481, -752, -103, 0, 1}},
    {5, {5, 3, 3, 2, 2}, 8, {-828, -3504, -6101, -5632, -2945, -848, -111, 0, 1}},
    {5, {6, 3, 3, 2, 2}, 8, {-576, -2784, -5412, -5440, -3015, -896, -118, 0, 1}},
    {5, {5, 5, 3, 2, 2}, 8, {-1116, -4560, -7645, -6784, -3409, -944, -119, 0, 1}},
    {5, {6, 5, 3, 2, 2}, 8, {-576, -3168, -6404, -6400, -3455, -992, -126, 0, 1}},
    {5, {6, 6, 3, 2, 2}, 8, {0, -1536, -4800, -5824, -3468, -1040, -133, 0, 1}},
    {5, {5, 5, 5, 2, 2}, 8, {-1404, -5616, -9189, -7936, -3873, -1040, -127, 0, 1}},
    {5, {6, 5, 5, 2, 2}, 8, {-576, -3552, -7396, -7360, -3895, -1088, -134, 0, 1}},
    {5, {6, 6, 5, 2, 2}, 8, {0, -1536, -5312, -6592, -3884, -1136, -141, 0, 1}},
    {5, {6, 6, 6, 2, 2}, 8, {0, 0, -3072, -5632, -3840, -1184, -148, 0, 1}},
    {6, {2, 2, 2, 2, 2, 2}, 6, {-320, -768, -720, -320, -60, 0, 1}},
    {6, {3, 2, 2, 2, 2, 2}, 7, {512, 1680, 2208, 1480, 520, 81, 0, -1}},
    {6, {5, 2, 2, 2, 2, 2}, 7, {768, 2320, 2848, 1800, 600, 89, 0, -1}},
    {6, {6, 2, 2, 2, 2, 2}, 7, {512, 1920, 2688, 1840, 640, 96, 0, -1}},
    {6, {3, 3, 2, 2, 2, 2}, 8, {-816, -3392, -5816, -5312, -2767, -800, -106, 0, 1}},
    {6, {5, 3, 2, 2, 2, 2}, 8, {-1200, -4672, -7544, -6528, -3239, -896, -114, 0, 1}},
    {6, {6, 3, 2, 2, 2, 2}, 8, {-768, -3584, -6608, -6272, -3304, -944, -121, 0, 1}},
    {6, {5, 5, 2, 2, 2, 2}, 8, {-1584, -5952, -9272, -7744, -3711, -992, -122, 0, 1}},
    {6, {6, 5, 2, 2, 2, 2}, 8, {-768, -4096, -7760, -7296, -3752, -1040, -129, 0, 1}},
    {6, {6, 6, 2, 2, 2, 2}, 8, {0, -2048, -5888, -6656, -3760, -1088, -136, 0, 1}},
    {7, {2, 2, 2, 2, 2, 2, 2}, 7, {768, 2240, 2688, 1680, 560, 84, 0, -1}},
    {7, {3, 2, 2, 2, 2, 2, 2}, 8, {-1216, -4608, -7280, -6208, -3060, -848, -109, 0, 1}},
    {7, {5, 2, 2, 2, 2, 2, 2}, 8, {-1728, -6144, -9200, -7488, -3540, -944, -117, 0, 1}},
    {7, {6, 2, 2, 2, 2, 2, 2}, 8, {-1024, -4608, -8000, -7168, -3600, -992, -124, 0, 1}},
    {8, {2, 2, 2, 2, 2, 2, 2, 2}, 8, {-1792, -6144, -8960, -7168, -3360, -896, -112, 0, 1}},
    {2, {6, 6}, 4, {-192, -256, -80, 0, 1}},
};

using Poly = std::array<std::uint32_t, kMaxDegree + 1>;

// det(M - xI) for an n x n integer matrix, n <= 8, by the Leibniz sum over rows with a table of
// used-column sets. Arithmetic is modulo 2^32, as OpenSM's int arithmetic wraps on the
// "unreached" distances; the coefficients of real mesh shapes are small and exact.
Poly char_poly(const std::vector<int> &m, unsigned n) {
    std::vector<Poly> part(std::size_t{1} << n, Poly{});
    part[0][0] = 1;
    for (std::uint32_t used = 0; used + 1 < (std::uint32_t{1} << n); ++used) {
        const unsigned row = static_cast<unsigned>(std::popcount(used));
        const Poly &p = part[used];
        for (unsigned c = 0; c < n; ++c) {
            if (used >> c & 1) continue;
            // Columns above c already sit in earlier rows: each is one inversion.
            const bool odd = std::popcount(used >> (c + 1)) & 1;
            const std::uint32_t a = static_cast<std::uint32_t>(m[row * n + c]);
            Poly &q = part[used | (std::uint32_t{1} << c)];
            for (unsigned k = 0; k <= row; ++k) {
                if (!p[k]) continue;
                const std::uint32_t t = odd ? 0u - p[k] : p[k];
                q[k] += a * t;
                if (row == c) q[k + 1] -= t;  // the -x on the diagonal
            }
        }
    }
    return part.back();
}

struct Link {
    int peer = 0;   // switch id (position in lash's order)
    int back = -1;  // index of the link back in the peer's list
    std::vector<std::uint8_t> cables;
};

struct Node {
    std::vector<Link> links;
    bool analysed = false;  // at most 8 neighbours: dist and poly are set
    std::vector<int> dist;  // neighbour distances avoiding this switch (deg x deg)
    Poly poly{};
    int type = 0;  // 1 + index into kShapes, 0 unknown, -1 edge of a mesh
    int dimension = 0;
    std::vector<int> axes;  // per link: 0 none, 2d+1 = +d, 2d+2 = -d
    std::vector<int> coord;
    int d(std::size_t i, std::size_t j) const { return dist[i * links.size() + j]; }
};

// Same degree and the same coefficients below the leading one (OpenSM's comparison).
bool same_poly(const Node &a, const Shape &t) {
    if (a.links.size() != t.degree) return false;
    for (unsigned k = 0; k < t.degree; ++k)
        if (a.poly[k] != static_cast<std::uint32_t>(t.poly[k])) return false;
    return true;
}
bool same_class(const Node &a, const Node &b) {
    const std::size_t deg = a.links.size();
    return b.links.size() == deg && std::equal(a.poly.begin(), a.poly.begin() + deg, b.poly.begin());
}

class Analysis {
  public:
    Analysis(const SwitchGraph &g, const std::vector<SwitchIdx> &by_guid) : by_guid_(by_guid) {
        const std::size_t n = by_guid.size();
        std::vector<int> id(n);
        for (std::size_t i = 0; i < n; ++i) id[by_guid[i]] = static_cast<int>(i);
        nodes_.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const auto cables = g.links(by_guid[i]);
            auto &links = nodes_[i].links;
            for (std::size_t k = 0; k < cables.size(); ++k) {
                const int peer = id[cables[k].peer];
                auto it =
                    std::find_if(links.begin(), links.end(), [&](const Link &l) { return l.peer == peer; });
                if (it == links.end()) it = links.insert(links.end(), Link{peer, -1, {}});
                it->cables.push_back(static_cast<std::uint8_t>(k));
            }
        }
        for (auto &nd : nodes_)
            for (auto &l : nd.links) {
                const auto &back = nodes_[l.peer].links;
                for (std::size_t j = 0; j < back.size(); ++j)
                    if (&nodes_[back[j].peer] == &nd) l.back = static_cast<int>(j);
            }
        for (auto &nd : nodes_) nd.axes.assign(nd.links.size(), 0);
    }

    MeshAnalysis run() {
        MeshAnalysis r;
        const int seed = dominant_shape();
        if (seed >= 0) {
            const Shape &t = kShapes[nodes_[seed].type - 1];
            dimension_ = t.dimension;
            for (int i = 0; i < t.dimension; ++i)
                r.shape += (i ? " x " : "") + std::to_string(t.size[i]) + (t.size[i] == 6 ? "+" : "");
            make_axes(seed);
            make_coords(seed);
            r.size = measure();
            reorder_links();
            renumber();
            r.found = true;
        }
        const std::size_t n = nodes_.size();
        r.order.resize(n);
        r.links.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const SwitchIdx s = by_guid_[old_id_.empty() ? i : old_id_[i]];
            r.order[i] = s;
            for (const Link &l : nodes_[i].links)
                r.links[s].push_back({by_guid_[old_id_.empty() ? l.peer : old_id_[l.peer]], l.cables});
        }
        return r;
    }

  private:
    // Distances between the neighbours of switch s along paths that avoid s.
    void measure_neighbourhood(int s) {
        Node &nd = nodes_[s];
        const std::size_t deg = nd.links.size();
        nd.dist.assign(deg * deg, kLarge);
        std::vector<int> dist(nodes_.size()), queue;
        for (std::size_t i = 0; i < deg; ++i) {
            std::fill(dist.begin(), dist.end(), kLarge);
            queue.assign(1, nd.links[i].peer);
            dist[nd.links[i].peer] = 0;
            for (std::size_t h = 0; h < queue.size(); ++h)
                for (const Link &l : nodes_[queue[h]].links)
                    if (l.peer != s && dist[l.peer] == kLarge)
                        dist[l.peer] = dist[queue[h]] + 1, queue.push_back(l.peer);
            for (std::size_t j = 0; j < deg; ++j) nd.dist[i * deg + j] = dist[nd.links[j].peer];
        }
        nd.poly = char_poly(nd.dist, static_cast<unsigned>(deg));
        nd.analysed = true;
    }

    // Classifies every switch; returns the first switch of the most common class when that class
    // is a known mesh shape, else -1.
    int dominant_shape() {
        const int n = static_cast<int>(nodes_.size());
        for (int s = 0; s < n; ++s) {
            Node &nd = nodes_[s];
            if (nd.links.size() > kMaxDegree) continue;
            measure_neighbourhood(s);
            for (std::size_t i = 0; i < std::size(kShapes); ++i)
                if (same_poly(nd, kShapes[i])) {
                    nd.type = static_cast<int>(i) + 1, nd.dimension = kShapes[i].dimension;
                    break;
                }
        }
        // A shape switch next to a switch with more links sits on the edge of something larger.
        for (Node &nd : nodes_) {
            if (!nd.type) continue;
            for (const Link &l : nd.links)
                if (nodes_[l.peer].links.size() > nd.links.size()) {
                    nd.type = -1;
                    break;
                }
        }
        std::vector<int> first, count;  // per class: its first switch and its population
        for (int s = 0; s < n; ++s) {
            const Node &nd = nodes_[s];
            if (nd.type < 0 || !nd.analysed) continue;
            std::size_t c = 0;
            while (c < first.size() && !same_class(nd, nodes_[first[c]])) ++c;
            if (c == first.size()) first.push_back(s), count.push_back(0);
            ++count[c];
        }
        int best = -1, best_count = 0;
        for (std::size_t c = 0; c < first.size(); ++c)
            if (count[c] > best_count) best = first[c], best_count = count[c];
        return best >= 0 && nodes_[best].type > 0 ? best : -1;
    }

    // The axis leading back along `axis` as seen from switch s: its negative, or the axis itself
    // when every other neighbour is at distance 2 (a dimension of extent 2); 0 when s has no
    // link on that axis or was not analysed.
    int opposite(const Node &s, int axis) const {
        if (!s.analysed) return 0;
        for (std::size_t i = 0; i < s.links.size(); ++i) {
            if (s.axes[i] != axis) continue;
            for (std::size_t j = 0; j < s.links.size(); ++j)
                if (j != i && s.d(i, j) != 2) return 1 + (1 ^ (axis - 1));
            return axis;
        }
        return 0;
    }

    void make_axes(int seed_id) {
        Node &seed = nodes_[seed_id];
        const std::size_t deg = seed.links.size();
        // Seed: +d on the next free link, -d on the first free one not at distance 2 from it.
        for (int c = 1; c <= 2 * seed.dimension; c += 2) {
            std::size_t i = 0;
            while (i < deg && seed.axes[i]) ++i;
            if (i == deg) break;
            seed.axes[i] = c;
            for (std::size_t j = 0; j < deg; ++j)
                if (!seed.axes[j] && seed.d(i, j) != 2) {
                    seed.axes[j] = c + 1;
                    break;
                }
        }
        auto set = [](int &axis, int value, bool &changed) {
            if (axis || !value) return;  // a mismatch with an axis already set is ignored
            axis = value, changed = true;
        };
        const int n = static_cast<int>(nodes_.size());
        bool changed = true;
        while (changed) {
            changed = false;
            // Across a switch: the one neighbour not at distance 2 (and at most 4) lies opposite.
            for (int s = 0; s < n; ++s) {
                Node &nd = nodes_[s];
                const std::size_t k = nd.links.size();
                if ((k < deg && k <= 2) || !nd.analysed) continue;
                for (std::size_t i = 0; i < k; ++i) {
                    if (!nd.axes[i]) continue;
                    std::size_t far = 0;
                    for (std::size_t j = 0; j < k; ++j) far += j != i && nd.d(i, j) != 2;
                    if (far != 1) continue;
                    for (std::size_t j = 0; j < k; ++j)
                        if (j != i && nd.d(i, j) != 2 && nd.d(i, j) <= 4)
                            set(nd.axes[j], opposite(seed, nd.axes[i]), changed);
                }
            }
            // Along a cable: the far end points back.
            for (int s = 0; s < n; ++s) {
                Node &nd = nodes_[s];
                if (!nd.analysed) continue;
                for (std::size_t i = 0; i < nd.links.size(); ++i) {
                    const Link &l = nd.links[i];
                    if (!nd.axes[i] || l.back < 0 || !nodes_[l.peer].analysed) continue;
                    set(nodes_[l.peer].axes[l.back], opposite(seed, nd.axes[i]), changed);
                }
            }
            // Square corners: neighbours i and j (at distance 2) share a switch w; the link from
            // i's end to w runs along j's axis and the one from j's end along i's.
            for (int s = 0; s < n; ++s) {
                Node &nd = nodes_[s];
                if (!nd.analysed) continue;
                const std::size_t k = nd.links.size();
                for (std::size_t i = 0; i < k; ++i) {
                    if (!nd.axes[i]) continue;
                    for (std::size_t j = 0; j < k; ++j) {
                        if (i == j || !nd.axes[j] || nd.d(i, j) != 2) continue;
                        Node &a = nodes_[nd.links[i].peer], &b = nodes_[nd.links[j].peer];
                        bool done = false;
                        for (std::size_t x = 0; x < a.links.size() && !done; ++x) {
                            if (a.links[x].peer == s) continue;
                            for (std::size_t y = 0; y < b.links.size() && !done; ++y) {
                                if (b.links[y].peer == s || a.links[x].peer != b.links[y].peer) continue;
                                set(a.axes[x], nd.axes[j], changed);
                                set(b.axes[y], nd.axes[i], changed);
                                done = true;
                            }
                        }
                    }
                }
            }
        }
    }

    // Coordinates from the seed along the axes; per dimension the value of smallest magnitude
    // wins, the positive one on a tie.
    void make_coords(int seed) {
        for (std::size_t s = 0; s < nodes_.size(); ++s)
            nodes_[s].coord.assign(dimension_, static_cast<int>(s) == seed ? 0 : kLarge);
        auto smaller = [](long a, long b) {
            return std::labs(a) < std::labs(b) || (std::labs(a) == std::labs(b) && a > b);
        };
        bool changed = true;
        while (changed) {
            changed = false;
            for (Node &nd : nodes_) {
                if (nd.coord[0] == kLarge) continue;
                for (std::size_t j = 0; j < nd.links.size(); ++j) {
                    if (!nd.axes[j]) continue;
                    Node &peer = nodes_[nd.links[j].peer];
                    const int axis = nd.axes[j] - 1;
                    for (int k = 0; k < dimension_; ++k) {
                        long c = nd.coord[k];
                        if (k == axis / 2) c += (axis & 1) ? -1 : 1;
                        if (smaller(c, peer.coord[k])) peer.coord[k] = static_cast<int>(c), changed = true;
                    }
                }
            }
        }
    }

    // Extent per dimension, and the dimension order: largest extent first.
    std::vector<unsigned> measure() {
        std::vector<int> lo(dimension_, kLarge), hi(dimension_, -kLarge);
        for (const Node &nd : nodes_)
            for (int i = 0; i < dimension_; ++i) {
                if (nd.coord[i] == kLarge) continue;
                lo[i] = std::min(lo[i], nd.coord[i]), hi[i] = std::max(hi[i], nd.coord[i]);
            }
        std::vector<unsigned> size(dimension_);
        std::vector<int> left(dimension_);
        for (int i = 0; i < dimension_; ++i)
            left[i] = hi[i] - lo[i] + 1, size[i] = static_cast<unsigned>(left[i]);
        dim_order_.clear();
        for (int j = 0; j < dimension_; ++j) {
            int best = 0;
            for (int i = 1; i < dimension_; ++i)
                if (left[i] > left[best]) best = i;
            dim_order_.push_back(best);
            left[best] = -1;
        }
        return size;
    }

    // Links in dimension order; in each dimension the direction toward the origin first.
    void reorder_links() {
        for (Node &nd : nodes_) {
            const std::size_t k = nd.links.size();
            std::vector<std::size_t> pick;
            std::vector<bool> taken(k, false);
            for (int j : dim_order_)
                for (int dir = 1; dir <= 2; ++dir) {
                    int c = 2 * j + dir;
                    if (nd.coord[j] > 0) c = opposite(nd, c);
                    for (std::size_t l = 0; l < k; ++l)
                        if (!taken[l] && nd.axes[l] == c) taken[l] = true, pick.push_back(l);
                }
            for (std::size_t l = 0; l < k; ++l)
                if (!taken[l]) pick.push_back(l);
            std::vector<Link> links;
            std::vector<int> axes;
            for (std::size_t l : pick) links.push_back(std::move(nd.links[l])), axes.push_back(nd.axes[l]);
            nd.links = std::move(links), nd.axes = std::move(axes);
        }
    }

    // Switches numbered by their coordinates, dimension order first.
    void renumber() {
        const std::size_t n = nodes_.size();
        old_id_.resize(n);
        for (std::size_t i = 0; i < n; ++i) old_id_[i] = static_cast<int>(i);
        std::stable_sort(old_id_.begin(), old_id_.end(), [&](int a, int b) {
            for (int j : dim_order_)
                if (nodes_[a].coord[j] != nodes_[b].coord[j]) return nodes_[a].coord[j] < nodes_[b].coord[j];
            return false;
        });
        std::vector<int> new_id(n);
        for (std::size_t i = 0; i < n; ++i) new_id[old_id_[i]] = static_cast<int>(i);
        std::vector<Node> nodes(n);
        for (std::size_t i = 0; i < n; ++i) {
            nodes[i] = std::move(nodes_[old_id_[i]]);
            for (Link &l : nodes[i].links) l.peer = new_id[l.peer];
        }
        nodes_ = std::move(nodes);
    }

    const std::vector<SwitchIdx> &by_guid_;
    std::vector<Node> nodes_;
    int dimension_ = 0;
    std::vector<int> dim_order_;
    std::vector<int> old_id_;  // after renumber(): new id -> id in GUID order
};

}  // namespace

MeshAnalysis analyse_mesh(const SwitchGraph &g, const std::vector<SwitchIdx> &by_guid) {
    return Analysis(g, by_guid).run();
}

}  // namespace weft::routing::engines
