#include "engines/nue/layer_partition.hpp"

#include <algorithm>

#include "weft/routing/seeded_rng.hpp"

#if WEFT_HAVE_METIS
#include <metis.h>
#endif

namespace weft::routing::engines::nue {
namespace {

// Renumbers the layers that received destinations to 0..used-1, keeping their order.
void compact(LayerPartition &p, const std::vector<Lid> &dests, unsigned layers) {
    std::vector<int> map(layers, -1);
    for (Lid l : dests) map[p.layer[l]] = 0;
    unsigned next = 0;
    for (auto &m : map)
        if (m == 0) m = static_cast<int>(next++);
    for (Lid l : dests) p.layer[l] = static_cast<std::uint8_t>(map[p.layer[l]]);
    p.used = std::max(next, 1u);
}

void semi_random(const std::vector<Lid> &dests, unsigned layers, std::uint64_t seed, LayerPartition &p) {
    std::vector<Lid> order = dests;
    SeededRng rng(seed);
    rng.shuffle(order);
    for (std::size_t i = 0; i < order.size(); ++i) p.layer[order[i]] = static_cast<std::uint8_t>(i % layers);
}

#if WEFT_HAVE_METIS
// Switch-level k-way partition; false (with a note) if METIS refuses.
bool metis_partition(const SwitchGraph &g, const std::vector<Lid> &dests, unsigned layers, std::uint64_t seed,
                     LayerPartition &p) {
    const std::size_t n = g.size();
    std::vector<idx_t> vwgt(n, 0), xadj(n + 1, 0), adjncy, adjwgt;
    for (Lid l : dests) ++vwgt[g.target(l).sw];
    std::size_t with_dests = 0;
    for (auto w : vwgt) with_dests += w > 0;
    if (with_dests < layers) {
        p.note = "METIS not used: fewer switches with destinations (" + std::to_string(with_dests) +
                 ") than layers (" + std::to_string(layers) + ")";
        return false;
    }
    std::vector<SwitchIdx> peers;
    for (SwitchIdx s = 0; s < n; ++s) {
        // Parallel cables become one edge weighted by their count; neighbours in index order.
        peers.clear();
        for (const SwitchLink &l : g.links(s))
            if (l.peer != s) peers.push_back(l.peer);
        std::sort(peers.begin(), peers.end());
        for (std::size_t i = 0; i < peers.size();) {
            std::size_t j = i;
            while (j < peers.size() && peers[j] == peers[i]) ++j;
            adjncy.push_back(static_cast<idx_t>(peers[i]));
            adjwgt.push_back(static_cast<idx_t>(j - i));
            i = j;
        }
        xadj[s + 1] = static_cast<idx_t>(adjncy.size());
    }
    idx_t nv = static_cast<idx_t>(n), ncon = 1, nparts = static_cast<idx_t>(layers), cut = 0;
    std::vector<idx_t> part(n, 0);
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = static_cast<idx_t>(seed & 0x7FFFFFFF);
    options[METIS_OPTION_NUMBERING] = 0;
    // METIS's k-way method does not coarsen a graph of at most 30 vertices per part: it computes
    // the recursive bisection several times and refines the best. On such small graphs (the
    // switches of every small fabric) one recursive bisection costs a fraction of that, with parts
    // balanced as tightly; larger graphs keep the k-way method, whose coarsening pays off there.
    const bool small = n <= std::size_t{30} * layers;
    auto *const partition = small ? &METIS_PartGraphRecursive : &METIS_PartGraphKway;
    const int rc = partition(&nv, &ncon, xadj.data(), adjncy.empty() ? nullptr : adjncy.data(), vwgt.data(),
                             nullptr, adjwgt.empty() ? nullptr : adjwgt.data(), &nparts, nullptr, nullptr,
                             options, &cut, part.data());
    if (rc != METIS_OK) {
        p.note = std::string(small ? "METIS_PartGraphRecursive" : "METIS_PartGraphKway") + " failed (" +
                 std::to_string(rc) + ")";
        return false;
    }
    for (Lid l : dests) p.layer[l] = static_cast<std::uint8_t>(part[g.target(l).sw]);
    return true;
}
#endif

}  // namespace

LayerPartition deal_round_robin(const SwitchGraph &g, const std::vector<Lid> &ordered, unsigned layers) {
    LayerPartition p;
    p.layer.assign(std::size_t{g.max_lid()} + 1, 0);
    layers = std::max(layers, 1u);
    for (std::size_t i = 0; i < ordered.size(); ++i)
        p.layer[ordered[i]] = static_cast<std::uint8_t>(i % layers);
    compact(p, ordered, layers);
    return p;
}

bool metis_available() {
    return WEFT_HAVE_METIS != 0;
}

LayerPartition partition_layers(const SwitchGraph &g, const std::vector<Lid> &dests, unsigned layers,
                                bool use_metis, bool metis_only, std::uint64_t seed) {
    LayerPartition p;
    p.layer.assign(std::size_t{g.max_lid()} + 1, 0);
    layers = std::max(layers, 1u);
    if (layers == 1 || dests.empty()) return p;
    bool done = false;
    if (use_metis) {
#if WEFT_HAVE_METIS
        done = p.metis = metis_partition(g, dests, layers, seed, p);
#else
        p.note = "METIS not available in this build";
#endif
        if (!done && metis_only) {
            p.used = 0;
            return p;
        }
    }
    if (!done) semi_random(dests, layers, seed, p);
    compact(p, dests, layers);
    return p;
}

}  // namespace weft::routing::engines::nue
