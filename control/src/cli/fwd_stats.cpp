// show fwd stats [json]: each forwarding lcore's own counters (since the last clear), the
// per-lcore figures that `show port stats` sums; the JSON also gives the lcore's loop count
// (cumulative), which shows that it polls. One reading of every worker, taken between its
// polling rounds, serves the whole answer.
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

Json fwd_stats_record(CommandContext &ctx) {
    const auto counters = ctx.dp->counters();
    const StatsBaseline::Snapshot now = StatsBaseline::read(counters);
    Json lcores = Json::array();
    for (std::size_t w = 0; w < now.size(); ++w) {
        const dp::Totals t = ctx.stats.worker_totals(now, w);
        Json ports = Json::array();
        for (std::uint16_t p = 0; p < ctx.dp->num_ports(); ++p) {
            const dp::PortTotals pt = ctx.stats.worker_port(now, w, p);
            ports.push_back(Json{{"port", p},
                                 {"rx_packets", pt.rx_pkts},
                                 {"rx_bytes", pt.rx_bytes},
                                 {"tx_packets", pt.tx_pkts},
                                 {"tx_bytes", pt.tx_bytes},
                                 {"tx_dropped", pt.tx_dropped}});
        }
        lcores.push_back(Json{{"lcore", ctx.dp->worker_lcore(static_cast<unsigned>(w))},
                              {"worker", w},
                              {"loops", counters[w]->loops.get()},
                              {"rx_packets", t.rx_pkts},
                              {"rx_bytes", t.rx_bytes},
                              {"forwarded", t.fwd_pkts},
                              {"replicas", t.replicas},
                              {"dropped", t.dropped()},
                              {"punted", t.punted},
                              {"idle_sleeps", counters[w]->idle_sleeps.get()},  // cumulative, as loops
                              {"idle_sleep_us", counters[w]->idle_sleep_us.get()},
                              {"ports", ports}});
    }
    const dp::Totals t = ctx.stats.totals(now);
    return Json{{"lcores", lcores},       {"rx_packets", t.rx_pkts}, {"forwarded", t.fwd_pkts},
                {"replicas", t.replicas}, {"dropped", t.dropped()},  {"punted", t.punted}};
}

void show_text(void *, struct cmdline *cl, void *data) {
    const Json r = fwd_stats_record(context_of(data));
    auto n = [](const Json &j, const char *k) { return j[k].dump(); };
    for (const Json &l : r["lcores"]) {
        cmdline_printf(cl,
                       "  ------- Forward stats for lcore %s (worker %s) -------\n"
                       "  RX-packets: %s RX-bytes: %s forwarded: %s replicas: %s dropped: %s punted: %s\n",
                       n(l, "lcore").c_str(), n(l, "worker").c_str(), n(l, "rx_packets").c_str(),
                       n(l, "rx_bytes").c_str(), n(l, "forwarded").c_str(), n(l, "replicas").c_str(),
                       n(l, "dropped").c_str(), n(l, "punted").c_str());
        for (const Json &p : l["ports"])
            cmdline_printf(cl, "    port %s: rx-packets %s tx-packets %s tx-dropped %s\n",
                           n(p, "port").c_str(), n(p, "rx_packets").c_str(), n(p, "tx_packets").c_str(),
                           n(p, "tx_dropped").c_str());
    }
    cmdline_printf(cl,
                   "  ------- all %zu lcores -------\n"
                   "  RX-packets: %s forwarded: %s replicas: %s dropped: %s punted: %s\n",
                   r["lcores"].size(), n(r, "rx_packets").c_str(), n(r, "forwarded").c_str(),
                   n(r, "replicas").c_str(), n(r, "dropped").c_str(), n(r, "punted").c_str());
}
void show_json(void *, struct cmdline *cl, void *data) {
    print_json(cl, fwd_stats_record(context_of(data)));
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
