// show config fwd [json]: the forwarding configuration in testpmd's spirit. weft has one
// forwarding mode (parse, route or LFT/MFT lookup, ECMP or ARS selection, rewrite); each worker
// lcore polls its share of the (port, RX queue) pairs and sends on its own TX queues of every
// port, so no queue is shared between lcores.
#include <cmdline.h>
#include <rte_lcore.h>

#include <string>

#include "cli_internal.hpp"

namespace weft::control::cli {

namespace dp = weft::dataplane;

namespace {

struct FwdCmd {
    cmdline_fixed_string_t show, config, fwd, json;
};
WEFT_TOK_STR(FwdCmd, show, "show");
WEFT_TOK_STR(FwdCmd, config, "config");
WEFT_TOK_STR(FwdCmd, fwd, "fwd");
WEFT_TOK_STR(FwdCmd, json, "json");

Json fwd_record(CommandContext &ctx) {
    const dp::DataplaneConfig &c = ctx.dp->config();
    const unsigned workers = ctx.dp->num_workers();
    std::size_t streams = 0;
    Json lcores = Json::array();
    for (unsigned w = 0; w < workers; ++w) {
        const dp::WorkerConfig &wc = ctx.dp->worker_config(w);
        const unsigned lcore = ctx.dp->worker_lcore(w);
        streams += wc.rx.size();
        Json rx = Json::array();
        for (const dp::RxQueueRef &q : wc.rx) rx.push_back(Json{{"port", q.port}, {"queue", q.queue}});
        Json tx = Json::array();
        for (unsigned q = wc.tx_queue_base; q < wc.tx_queue_base + wc.tx_queues; ++q) tx.push_back(q);
        lcores.push_back(Json{{"lcore", lcore},
                              {"socket", rte_lcore_to_socket_id(lcore)},
                              {"worker", w},
                              {"rx", rx},
                              {"tx_queues", tx}});
    }
    return Json{{"mode", "weft"},
                {"ports", ctx.dp->num_ports()},
                {"cores", workers},
                {"streams", streams},
                {"burst", c.burst},
                {"rx_queues_per_port", c.rx_queues},
                {"tx_queues_per_core", c.tx_queues},
                {"rx_desc", c.rx_desc},
                {"tx_desc", c.tx_desc},
                {"mbufs", c.mbufs},
                {"control_tx_queue", ctx.dp->control_tx_queue()},
                {"idle_sleep_max_us", c.idle_sleep_max_us},
                {"lcores", lcores}};
}

void show_fwd(struct cmdline *cl, CommandContext &ctx, bool json) {
    const Json r = fwd_record(ctx);
    if (json) return print_json(cl, r);
    auto n = [](const Json &j, const char *k) { return j[k].dump(); };
    cmdline_printf(cl,
                   "weft packet forwarding (routes, LFT/MFT, ECMP and ARS next-hop groups) - ports=%s - "
                   "cores=%s - streams=%s - burst=%s\n"
                   "RX queues per port=%s - TX queues per core and port=%s - RX descriptors=%s - "
                   "TX descriptors=%s - mbufs=%s\n"
                   "control thread TX queue=%s - idle sleep max=%s us%s\n",
                   n(r, "ports").c_str(), n(r, "cores").c_str(), n(r, "streams").c_str(),
                   n(r, "burst").c_str(), n(r, "rx_queues_per_port").c_str(),
                   n(r, "tx_queues_per_core").c_str(), n(r, "rx_desc").c_str(), n(r, "tx_desc").c_str(),
                   n(r, "mbufs").c_str(), n(r, "control_tx_queue").c_str(), n(r, "idle_sleep_max_us").c_str(),
                   r["idle_sleep_max_us"].get<unsigned>() == 0 ? " (off)" : "");
    for (const Json &l : r["lcores"]) {
        const Json &tx = l["tx_queues"];
        cmdline_printf(cl, "Logical Core %s (socket %s) worker %s forwards packets on %zu streams:\n",
                       n(l, "lcore").c_str(), n(l, "socket").c_str(), n(l, "worker").c_str(), l["rx"].size());
        for (const Json &q : l["rx"])
            cmdline_printf(cl, "  RX P=%s/Q=%s -> TX P=by route/Q=%s..%s\n", n(q, "port").c_str(),
                           n(q, "queue").c_str(), tx.empty() ? "" : tx.front().dump().c_str(),
                           tx.empty() ? "" : tx.back().dump().c_str());
    }
}

void show_fwd_text(void *, struct cmdline *cl, void *data) {
    show_fwd(cl, context_of(data), false);
}
void show_fwd_json(void *, struct cmdline *cl, void *data) {
    show_fwd(cl, context_of(data), true);
}
Inst<3> inst_fwd{show_fwd_text,
                 nullptr,
                 "show config fwd",
                 {WEFT_HDR(FwdCmd_show), WEFT_HDR(FwdCmd_config), WEFT_HDR(FwdCmd_fwd), nullptr}};
Inst<4> inst_fwd_json{
    show_fwd_json,
    nullptr,
    "show config fwd json",
    {WEFT_HDR(FwdCmd_show), WEFT_HDR(FwdCmd_config), WEFT_HDR(FwdCmd_fwd), WEFT_HDR(FwdCmd_json), nullptr}};

}  // namespace

InstList fwd_config_commands() {
    return {as_inst(inst_fwd), as_inst(inst_fwd_json)};
}

}  // namespace weft::control::cli
