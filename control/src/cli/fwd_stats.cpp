// show fwd stats [json]: each forwarding lcore's own counters (since the last clear), the
// per-lcore figures that `show port stats` sums; the JSON also gives the lcore's loop count
// (cumulative), which shows that it polls.
#include <cmdline.h>

#include "cli_internal.hpp"
#include "weft/dataplane/counters.hpp"

namespace weft::control::cli {

namespace dp = weft::dataplane;

namespace {

struct FwdStatsCmd {
    cmdline_fixed_string_t show, fwd, stats, json;
};
WEFT_TOK_STR(FwdStatsCmd, show, "show");
WEFT_TOK_STR(FwdStatsCmd, fwd, "fwd");
WEFT_TOK_STR(FwdStatsCmd, stats, "stats");
WEFT_TOK_STR(FwdStatsCmd, json, "json");

void show_fwd_stats(CommandContext &ctx, struct cmdline *cl, bool json) {
    const auto counters = ctx.dp->counters();
    if (json) cmdline_printf(cl, "{\"lcores\": [");
    for (std::size_t w = 0; w < counters.size(); ++w) {
        const dp::Totals t = ctx.stats.worker_totals(counters, w);
        const unsigned lcore = ctx.dp->worker_lcore(static_cast<unsigned>(w));
        if (json) {
            cmdline_printf(cl,
                           "%s{\"lcore\": %u, \"worker\": %zu, \"loops\": %llu, \"rx_packets\": %llu, "
                           "\"rx_bytes\": %llu, \"forwarded\": %llu, \"replicas\": %llu, \"dropped\": %llu, "
                           "\"ports\": [",
                           w ? ", " : "", lcore, w, ull(counters[w]->loops.get()), ull(t.rx_pkts),
                           ull(t.rx_bytes), ull(t.fwd_pkts), ull(t.replicas), ull(t.dropped()));
        } else {
            cmdline_printf(cl,
                           "  ------- Forward stats for lcore %u (worker %zu) -------\n"
                           "  RX-packets: %llu RX-bytes: %llu forwarded: %llu replicas: %llu dropped: %llu\n",
                           lcore, w, ull(t.rx_pkts), ull(t.rx_bytes), ull(t.fwd_pkts), ull(t.replicas),
                           ull(t.dropped()));
        }
        for (std::uint16_t p = 0; p < ctx.dp->num_ports(); ++p) {
            const dp::PortTotals pt = ctx.stats.worker_port(counters, w, p);
            if (json)
                cmdline_printf(
                    cl,
                    "%s{\"port\": %u, \"rx_packets\": %llu, \"rx_bytes\": %llu, \"tx_packets\": %llu, "
                    "\"tx_bytes\": %llu, \"tx_dropped\": %llu}",
                    p ? ", " : "", p, ull(pt.rx_pkts), ull(pt.rx_bytes), ull(pt.tx_pkts), ull(pt.tx_bytes),
                    ull(pt.tx_dropped));
            else
                cmdline_printf(cl, "    port %u: rx-packets %llu tx-packets %llu tx-dropped %llu\n", p,
                               ull(pt.rx_pkts), ull(pt.tx_pkts), ull(pt.tx_dropped));
        }
        if (json) cmdline_printf(cl, "]}");
    }
    const dp::Totals t = ctx.stats.totals(counters);
    if (json)
        cmdline_printf(
            cl, "], \"rx_packets\": %llu, \"forwarded\": %llu, \"replicas\": %llu, \"dropped\": %llu}\n",
            ull(t.rx_pkts), ull(t.fwd_pkts), ull(t.replicas), ull(t.dropped()));
    else
        cmdline_printf(cl,
                       "  ------- all %zu lcores -------\n"
                       "  RX-packets: %llu forwarded: %llu replicas: %llu dropped: %llu\n",
                       counters.size(), ull(t.rx_pkts), ull(t.fwd_pkts), ull(t.replicas), ull(t.dropped()));
}

void show_text(void *, struct cmdline *cl, void *data) {
    show_fwd_stats(context_of(data), cl, false);
}
void show_json(void *, struct cmdline *cl, void *data) {
    show_fwd_stats(context_of(data), cl, true);
}
Inst<3> inst_fwd_stats{
    show_text,
    nullptr,
    "show fwd stats",
    {WEFT_HDR(FwdStatsCmd_show), WEFT_HDR(FwdStatsCmd_fwd), WEFT_HDR(FwdStatsCmd_stats), nullptr}};
Inst<4> inst_fwd_stats_json{show_json,
                            nullptr,
                            "show fwd stats json",
                            {WEFT_HDR(FwdStatsCmd_show), WEFT_HDR(FwdStatsCmd_fwd),
                             WEFT_HDR(FwdStatsCmd_stats), WEFT_HDR(FwdStatsCmd_json), nullptr}};

}  // namespace

InstList fwd_stats_commands() {
    return {as_inst(inst_fwd_stats), as_inst(inst_fwd_stats_json)};
}

}  // namespace weft::control::cli
