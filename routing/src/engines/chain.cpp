// `-R a,b,c` semantics (OpenSM osm_ucast_mgr_process): each engine in turn builds hop
// matrices and LFTs, hooks it leaves out are supplied by the minhop defaults; the first engine
// that succeeds wins; if all fail, minhop routes unless no_fallback. With LMC > 0 an engine
// that cannot route LMC groups (ftree, lash) is passed over as OpenSM does, and says so.
#include <algorithm>
#include <stdexcept>

#include "engines/engines.hpp"
#include "weft/routing/auto_choice.hpp"
#include "weft/routing/engine.hpp"

namespace weft::routing {
namespace {

HookResult run_engine(Engine &e, const Fabric &f, RoutingContext &ctx, RoutingTables &t) {
    // Exceptions from an engine (bad input it could not digest) count as a failed engine.
    try {
        if (!e.provides_lid_matrices() && !e.provides_fwd_tables()) {
            engines::build_minhop_tables(f, ctx.options, t);
        } else if (e.provides_lid_matrices()) {
            t.reset(f);
            if (auto r = e.build_lid_matrices(ctx, t); !r.ok) return r;
        } else {
            build_minhop_matrices(f, ctx.options, t);
        }
        if (e.provides_fwd_tables()) {
            if (auto r = e.build_fwd_tables(ctx, t); !r.ok) return r;
        } else if (e.provides_lid_matrices()) {
            build_minhop_lfts(f, ctx.options, t);
        }
        if (auto r = e.assign_sl(ctx, t); !r.ok) return r;
        if (!e.routes_vms()) engines::copy_vf_routes(f, t);
    } catch (const std::exception &ex) {
        return HookResult::failure(ex.what());
    }
    t.engine = std::string(e.name());
    return HookResult::success();
}

// One engine's turn: true when it routed (res then names it), else its reason goes to res.failures.
bool attempt(std::unique_ptr<Engine> &e, const Fabric &f, RoutingContext &ctx, RoutingTables &out,
             ChainResult &res) {
    const RoutingOptions &opts = ctx.options;
    if (opts.lmc > 0 && !e->supports_lmc()) {
        res.failures.push_back(std::string(e->name()) + ": LMC > 0 is not supported by " +
                               std::string(e->name()) + " routing (LMC " + std::to_string(opts.lmc) + ")");
        return false;
    }
    const auto r = run_engine(*e, f, ctx, out);
    if (!r.ok) {
        res.failures.push_back(std::string(e->name()) + ": " + r.error);
        return false;
    }
    res.ok = true;
    res.engine = out.engine;
    res.routed_by = std::move(e);
    return true;
}

}  // namespace

std::vector<std::string> chain_tokens(std::string_view chain) {
    std::vector<std::string> out;
    out.reserve(static_cast<std::size_t>(std::count(chain.begin(), chain.end(), ',')) + 1);
    std::size_t pos = 0;
    while (pos <= chain.size()) {
        const auto comma = chain.find(',', pos);
        std::string_view t = chain.substr(pos, comma == std::string_view::npos ? chain.npos : comma - pos);
        pos = comma == std::string_view::npos ? chain.size() + 1 : comma + 1;
        const auto b = t.find_first_not_of(" \t");
        if (b == std::string_view::npos) continue;
        out.emplace_back(t.substr(b, t.find_last_not_of(" \t") - b + 1));
    }
    return out;
}

ChainResult run_chain(std::string_view chain, const Fabric &f, const RoutingOptions &o, RoutingTables &out,
                      std::function<void(std::size_t, std::size_t)> progress) {
    ChainResult res;
    RoutingOptions opts = o;  // the chain's own no_fallback token sets it too
    std::vector<std::unique_ptr<Engine>> list;
    const auto &reg = EngineRegistry::instance();
    for (const std::string &name : chain_tokens(chain)) {
        if (name == "no_fallback") {
            opts.no_fallback = true;
            continue;
        }
        if (name == kAutoEngine) {
            // auto is not an engine but a choice of engines: each keeps its own turn, failure
            // line and fallback, and the tables name the engine that routed.
            const AutoChoice choice = choose_routing(f, opts);
            res.auto_choice = choice.describe();
            for (const std::string &pick : chain_tokens(choice.chain)) {
                const bool listed =
                    std::any_of(list.begin(), list.end(), [&](const auto &x) { return x->name() == pick; });
                if (!listed) list.push_back(reg.make(pick));
            }
            continue;
        }
        auto e = reg.make(name);
        if (!e) {
            res.error = "unknown routing engine '" + name + "'";
            out.reset(f);
            return res;
        }
        list.push_back(std::move(e));
    }
    if (list.empty()) list.push_back(reg.make("minhop"));  // OpenSM's default with no -R

    RoutingContext ctx{f, opts, std::move(progress)};
    for (auto &e : list)
        if (attempt(e, f, ctx, out, res)) return res;
    if (!opts.no_fallback) {
        auto fallback = reg.make("minhop");
        if (attempt(fallback, f, ctx, out, res)) return res;
    }
    res.error = opts.no_fallback ? "no routing engine could route the fabric (no_fallback set)"
                                 : "no routing engine could route the fabric";
    out.reset(f);
    return res;
}

}  // namespace weft::routing
