// OpenSM's 'file' engine: LFTs loaded from an opensm-lfts.dump (--lfts_file), hop matrices from
// the minhop default. Switches the dump does not name stay unrouted; the dump's switches that
// are not in the fabric are skipped.
#include <fstream>
#include <sstream>

#include "engines/engines.hpp"
#include "weft/routing/lft_dump.hpp"

namespace weft::routing::engines {
namespace {

class FileEngine final : public Engine {
  public:
    std::string_view name() const override { return "file"; }
    bool provides_fwd_tables() const override { return true; }
    HookResult build_fwd_tables(RoutingContext &ctx, RoutingTables &t) override {
        const std::string &path = ctx.options.lfts_file;
        if (path.empty()) return HookResult::failure("no LFT dump given (lfts_file)");
        std::ifstream in(path, std::ios::binary);
        if (!in) return HookResult::failure("cannot open LFT dump '" + path + "'");
        std::ostringstream text;
        text << in.rdbuf();
        try {
            const LftDump dump = read_lft_dump(text.str(), path);
            for (auto &row : t.lft) std::fill(row.begin(), row.end(), kNoPort);
            const auto rep = apply_lft_dump(dump, ctx.fabric, t);
            if (rep.switches_applied == 0)
                return HookResult::failure("'" + path + "' names no switch of this fabric");
        } catch (const ParseError &e) {
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
