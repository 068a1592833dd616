#include "routing_check.hpp"

#include <algorithm>
#include <optional>

#include "credit_loops.hpp"
#include "lid_chunks.hpp"
#include "path_trace.hpp"

namespace weft::routing {
namespace verify {

RoutingCheck run_checks(const Fabric &f, const RoutingTables &t, const ProgressFn &progress, unsigned threads,
                        bool paths, bool credit_loops) {
    RoutingCheck r;
    const unsigned vls = vls_in_play(t);
    std::optional<ChannelMap> m;
    if (credit_loops) m.emplace(f);
    struct Worker {
        Worker(const Fabric &f, const RoutingTables &t) : w(f, t) {}
        DestWalker w;
        std::optional<PathTracer> tracer;
        std::optional<CreditWalker> credit;
    };
    const unsigned n = check_threads(threads, f);
    std::vector<std::optional<Worker>> workers(n);
    for_lid_chunks(f, n, progress, [&](unsigned worker, Lid first, Lid last) {
        auto &k = workers[worker];
        if (!k) {
            k.emplace(f, t);
            if (paths) k->tracer.emplace(f, k->w);
            if (credit_loops) k->credit.emplace(f, t, vls, *m);
        }
        for (Lid b = DestWalker::block_first(first); b <= last; b += DestWalker::kBlock) {
            const Lid end = std::min<Lid>(last, b + DestWalker::kBlock - 1);
            for (Lid d = std::max(b, first); d <= end; ++d) {
                // Nothing to route to: no owner, an owner not cabled, or cabled to a CA.
                if (!k->w.walk(d, false) || k->w.owner_switch == kNoSwitch) continue;
                if (k->tracer) k->tracer->visit(k->w, d);
                // CA-to-CA paths only, as ibdmchk.
                if (k->credit && !f.node(k->w.owner.node).is_switch()) k->credit->visit(k->w, d);
            }
            if (k->credit) k->credit->end_block(k->w, b);
        }
    });
    if (paths) {
        std::vector<const PathTracer *> parts;
        for (const auto &k : workers)
            if (k) parts.push_back(&*k->tracer);
        r.paths = merge_paths(parts);
    }
    if (credit_loops) {
        r.credit_loops.vls = vls;
        std::optional<DependencyGraph> g;
        for (const auto &k : workers)
            if (k) k->credit->add_to(g);
        if (!g) g.emplace(f, vls, m->size());
        r.credit_loops.dependencies = g->edges();
        r.credit_loops.cycle = g->find_cycle(*m);
        r.credit_loops.has_cycle = !r.credit_loops.cycle.empty();
    }
    return r;
}

}  // namespace verify

RoutingCheck check_routing(const Fabric &f, const RoutingTables &t, const ProgressFn &progress,
                           unsigned threads) {
    return verify::run_checks(f, t, progress, threads, true, true);
}

}  // namespace weft::routing
