// show ars nhg <id> [json] | show ars quality [json]: an ARS group's members, bands and
// counters, and the quality sampler's per-port figures.
#include <cmdline.h>

#include <string>
#include <tuple>

#include "cli_internal.hpp"
#include "weft/ars/worker.hpp"
#include "weft/dataplane/counters.hpp"

namespace weft::control::cli {

namespace dp = weft::dataplane;

namespace {

// ---- show ars nhg N [json] | show ars quality [json] ----
const char *role_name(const ars::SelectionGroup &g, std::size_t i) {
    return i < g.primary_count ? "primary" : "alternate";
}

bool show_nhg(CommandContext &ctx, struct cmdline *cl, const Words &w, bool json) {
    const auto id = number(w[3], 0xFFFFFFFFu);
    const ars::Config *c = ctx.ars_config.get();
    const ars::SelectionGroup *g = id && c != nullptr ? c->nhg(static_cast<std::uint32_t>(*id)) : nullptr;
    if (g == nullptr) return bad(ctx, cl, "no ARS nhg " + w[3]);
    const auto nhg = static_cast<std::uint32_t>(*id);
    const auto workers = ctx.dp->ars_workers();
    const ars::CounterValues v = ctx.stats.ars_nhg(workers, nhg);  // since `clear nhg stats`
    const ars::PortBoard &board = ctx.dp->ars_board();
    std::uint64_t pkts = 0, bytes = 0;
    if (const auto index = ctx.fib->nhg_index(nhg))
        std::tie(pkts, bytes) = ctx.stats.nhg(ctx.dp->counters(), nhg, *index);
    const ars::ArsObjectRuntime *o = c->ars_object(g->ars_object);
    const std::string mode = o != nullptr ? std::string(ars::to_string(o->mode)) : "static-hash";
    auto quality = [&](const ars::GroupMember &m) -> int {
        return m.target.kind == ars::EgressTarget::Kind::kPort ? board.port_quality(m.target.id)
                                                               : board.lag_quality(m.target.id);
    };
    auto link = [&](const ars::GroupMember &m) {
        if (m.target.kind == ars::EgressTarget::Kind::kPort) return board.link_up(m.target.id);
        const ars::LagConfig &l = ctx.ars.lags.at(m.target.id);
        for (std::uint16_t p : l.ports)
            if (board.link_up(p)) return true;
        return false;
    };
    const char *modes[] = {"flowlet_quality", "flowlet_random", "per_packet_quality", "per_packet_random",
                           "fixed"};
    if (json) {
        cmdline_printf(cl,
                       "{\"nhg\": %u, \"ars_object\": %d, \"mode\": \"%s\", \"threshold\": %u, \"cost\": %u, "
                       "\"bias\": %u, \"members\": [",
                       nhg, g->ars_object == ars::kNoArsObject ? -1 : g->ars_object, mode.c_str(),
                       g->path_selection.primary_quality_threshold, g->path_selection.alternate_cost,
                       g->path_selection.alternate_bias);
        for (std::size_t i = 0; i < g->members.size(); ++i) {
            const ars::GroupMember &m = g->members[i];
            cmdline_printf(
                cl,
                "%s{\"index\": %zu, \"role\": \"%s\", \"%s\": %u, \"usable\": %s, \"link_up\": %s, "
                "\"quality\": %d}",
                i ? ", " : "", i, role_name(*g, i),
                m.target.kind == ars::EgressTarget::Kind::kPort ? "port" : "lag", m.target.id,
                m.usable ? "true" : "false", link(m) ? "true" : "false", quality(m));
        }
        cmdline_printf(cl,
                       "], \"counters\": {\"packets\": %llu, \"bytes\": %llu, \"packet_drops\": %llu, "
                       "\"next_hop_reassignments\": %llu, \"port_reassignments\": %llu, "
                       "\"link_down_reassignments\": %llu, \"static_hash_decisions\": %llu",
                       static_cast<unsigned long long>(pkts), static_cast<unsigned long long>(bytes),
                       static_cast<unsigned long long>(v.packet_drops),
                       static_cast<unsigned long long>(v.next_hop_reassignments),
                       static_cast<unsigned long long>(v.port_reassignments),
                       static_cast<unsigned long long>(v.link_down_reassignments),
                       static_cast<unsigned long long>(v.static_hash_decisions));
        for (int m = 0; m < ars::kModeCount; ++m)
            cmdline_printf(cl, ", \"decisions_%s\": %llu", modes[m],
                           static_cast<unsigned long long>(v.decisions[static_cast<std::size_t>(m)]));
        cmdline_printf(cl, "}}\n");
        return true;
    }
    cmdline_printf(cl, "ars nhg %u: object %s, mode %s, threshold %u cost %u bias %u\n", nhg,
                   g->ars_object == ars::kNoArsObject ? "none" : std::to_string(g->ars_object).c_str(),
                   mode.c_str(), g->path_selection.primary_quality_threshold,
                   g->path_selection.alternate_cost, g->path_selection.alternate_bias);
    for (std::size_t i = 0; i < g->members.size(); ++i) {
        const ars::GroupMember &m = g->members[i];
        cmdline_printf(cl, "  member %zu %-9s %s %u  quality %d  link %s%s\n", i, role_name(*g, i),
                       m.target.kind == ars::EgressTarget::Kind::kPort ? "port" : "lag", m.target.id,
                       quality(m), link(m) ? "up" : "down",
                       m.usable ? "" : "  (not usable: admin down or ARS off)");
    }
    cmdline_printf(cl,
                   "  packets %llu bytes %llu drops %llu nh-reassignments %llu port-reassignments %llu "
                   "link-down-reassignments %llu static-hash %llu\n",
                   static_cast<unsigned long long>(pkts), static_cast<unsigned long long>(bytes),
                   static_cast<unsigned long long>(v.packet_drops),
                   static_cast<unsigned long long>(v.next_hop_reassignments),
                   static_cast<unsigned long long>(v.port_reassignments),
                   static_cast<unsigned long long>(v.link_down_reassignments),
                   static_cast<unsigned long long>(v.static_hash_decisions));
    cmdline_printf(cl, "  decisions:");
    for (int m = 0; m < ars::kModeCount; ++m)
        cmdline_printf(cl, " %s %llu", modes[m],
                       static_cast<unsigned long long>(v.decisions[static_cast<std::size_t>(m)]));
    cmdline_printf(cl, "\n");
    return true;
}

bool show_quality(CommandContext &ctx, struct cmdline *cl, bool json) {
    if (ctx.sampler == nullptr) return bad(ctx, cl, "no quality sampler");
    const auto ports = ctx.sampler->ports();
    const unsigned long long rounds = ctx.sampler->rounds();
    if (json) cmdline_printf(cl, "{\"rounds\": %llu, \"ports\": [", rounds);
    for (std::size_t p = 0; p < ports.size(); ++p) {
        const dp::ArsPortQuality &q = ports[p];
        if (json) {
            cmdline_printf(
                cl,
                "%s{\"port\": %zu, \"past_mbps\": %llu, \"future_mbps\": %llu, \"combined_mbps\": %llu, "
                "\"scaled_mbps\": %llu, \"quality\": %u, \"link_up\": %s, \"tx_bytes\": %llu, "
                "\"backlog_bytes\": %llu}",
                p ? ", " : "", p, static_cast<unsigned long long>(q.load.past_mbps),
                static_cast<unsigned long long>(q.load.future_mbps),
                static_cast<unsigned long long>(q.load.combined_mbps),
                static_cast<unsigned long long>(q.load.scaled_mbps), q.band, q.link_up ? "true" : "false",
                static_cast<unsigned long long>(q.tx_bytes),
                static_cast<unsigned long long>(q.backlog_bytes));
        } else {
            cmdline_printf(
                cl,
                "port %zu: past %llu Mbps future %llu Mbps combined %llu scaled %llu quality %u link %s "
                "tx-bytes %llu backlog %llu\n",
                p, static_cast<unsigned long long>(q.load.past_mbps),
                static_cast<unsigned long long>(q.load.future_mbps),
                static_cast<unsigned long long>(q.load.combined_mbps),
                static_cast<unsigned long long>(q.load.scaled_mbps), q.band, q.link_up ? "up" : "down",
                static_cast<unsigned long long>(q.tx_bytes),
                static_cast<unsigned long long>(q.backlog_bytes));
        }
    }
    if (json)
        cmdline_printf(cl, "]}\n");
    else
        cmdline_printf(cl, "%llu sampling rounds\n", rounds);
    return true;
}

}  // namespace

bool show_ars(CommandContext &ctx, struct cmdline *cl, const Words &w) {
    const bool json = w.back() == "json";
    const std::size_t n = w.size() - (json ? 1 : 0);
    if (w.size() >= 3 && w[2] == "nhg" && n == 4) return show_nhg(ctx, cl, w, json);
    if (w.size() >= 3 && w[2] == "quality" && n == 3) return show_quality(ctx, cl, json);
    return bad(ctx, cl, "bad ARS command");
}

}  // namespace weft::control::cli
