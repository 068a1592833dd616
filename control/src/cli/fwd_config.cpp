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

void show_fwd(struct cmdline *cl, CommandContext &ctx, bool json) {
    const dp::DataplaneConfig &c = ctx.dp->config();
    const unsigned workers = ctx.dp->num_workers();
    std::size_t streams = 0;
    for (unsigned w = 0; w < workers; ++w) streams += ctx.dp->worker_config(w).rx.size();
    if (json) {
        cmdline_printf(
            cl,
            "{\"mode\": \"weft\", \"ports\": %u, \"cores\": %u, \"streams\": %zu, \"burst\": %u, "
            "\"rx_queues_per_port\": %u, \"tx_queues_per_core\": %u, \"rx_desc\": %u, \"tx_desc\": %u, "
            "\"mbufs\": %u, \"lcores\": [",
            ctx.dp->num_ports(), workers, streams, c.burst, c.rx_queues, c.tx_queues, c.rx_desc, c.tx_desc,
            c.mbufs);
    } else {
        cmdline_printf(cl,
                       "weft packet forwarding (routes, LFT/MFT, ECMP and ARS next-hop groups) - ports=%u - "
                       "cores=%u - streams=%zu - burst=%u\n"
                       "RX queues per port=%u - TX queues per core and port=%u - RX descriptors=%u - "
                       "TX descriptors=%u - mbufs=%u\n",
                       ctx.dp->num_ports(), workers, streams, c.burst, c.rx_queues, c.tx_queues, c.rx_desc,
                       c.tx_desc, c.mbufs);
    }
    for (unsigned w = 0; w < workers; ++w) {
        const dp::WorkerConfig &wc = ctx.dp->worker_config(w);
        const unsigned lcore = ctx.dp->worker_lcore(w);
        const unsigned socket = rte_lcore_to_socket_id(lcore);
        const unsigned first_tx = wc.tx_queue_base, last_tx = wc.tx_queue_base + wc.tx_queues - 1u;
        if (json) {
            cmdline_printf(cl, "%s{\"lcore\": %u, \"socket\": %u, \"worker\": %u, \"rx\": [", w ? ", " : "",
                           lcore, socket, w);
            for (std::size_t i = 0; i < wc.rx.size(); ++i)
                cmdline_printf(cl, "%s{\"port\": %u, \"queue\": %u}", i ? ", " : "", wc.rx[i].port,
                               wc.rx[i].queue);
            cmdline_printf(cl, "], \"tx_queues\": [");
            for (unsigned q = first_tx; q <= last_tx; ++q)
                cmdline_printf(cl, "%s%u", q != first_tx ? ", " : "", q);
            cmdline_printf(cl, "]}");
            continue;
        }
        cmdline_printf(cl, "Logical Core %u (socket %u) worker %u forwards packets on %zu streams:\n", lcore,
                       socket, w, wc.rx.size());
        for (const dp::RxQueueRef &q : wc.rx)
            cmdline_printf(cl, "  RX P=%u/Q=%u -> TX P=by route/Q=%u..%u\n", q.port, q.queue, first_tx,
                           last_tx);
    }
    if (json) cmdline_printf(cl, "]}\n");
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
