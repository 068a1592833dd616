// OpenSM's 'file' engine: LFTs loaded from an opensm-lfts.dump (--lfts_file), and the hops of the
// loaded routes (OpenSM keeps minhop's matrices, which the loaded routes need not follow; weft's
// hops describe the routes). Switches the dump does not name stay unrouted; the dump's switches
// that are not in the fabric are skipped.
#include <stdexcept>

#include "engines/engines.hpp"
#include "weft/routing/lft_dump.hpp"

namespace weft::routing::engines {
namespace {

class FileEngine final : public Engine {
  public:
    std::string_view name() const override { return "file"; }
    // No min-hop matrices first: the hops come from the loaded routes (run_engine's reset leaves
    // every LFT entry unrouted and every hop count infinite).
    bool provides_lid_matrices() const override { return true; }
    HookResult build_lid_matrices(RoutingContext &, RoutingTables &) override {
        return HookResult::success();
    }
    bool provides_fwd_tables() const override { return true; }
    HookResult build_fwd_tables(RoutingContext &ctx, RoutingTables &t) override {
        const std::string &path = ctx.options.lfts_file;
        if (path.empty()) return HookResult::failure("no LFT dump given (lfts_file)");
        try {
            const auto rep = load_lft_dump(path, ctx.fabric, t);
            if (rep.switches_applied == 0)
                return HookResult::failure("'" + path + "' names no switch of this fabric");
        } catch (const std::runtime_error &e) {  // ParseError included
            return HookResult::failure(e.what());
        }
        // The loaded routes need not be min-hop: make hops describe them.
        hops_from_lfts(ctx.fabric, t);
        return HookResult::success();
    }
};

}  // namespace

std::unique_ptr<Engine> make_file() {
    return std::make_unique<FileEngine>();
}

}  // namespace weft::routing::engines
