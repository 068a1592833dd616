// show port stats [json]: weft's per-lcore counters of each port since its last clear (summed
// over the workers), its state, and the PMD's own ethdev statistics; then the totals. One record
// per port; the text form is also printed at exit.
#include <cmdline.h>
#include <rte_ethdev.h>

#include <string>

#include "cli_internal.hpp"
#include "weft/control/cli.hpp"
#include "weft/dataplane/counters.hpp"

namespace weft::control {

namespace dp = weft::dataplane;
using cli::Json;

namespace {

// The PMD's statistics; zeros where it keeps none.
rte_eth_stats nic_stats(std::uint16_t port) {
    rte_eth_stats st{};
    if (rte_eth_stats_get(port, &st) != 0) st = rte_eth_stats{};
    return st;
}

Json port_record(const CommandContext &ctx, const StatsBaseline::Snapshot &now, std::uint16_t p) {
    const dp::PortTotals t = ctx.stats.port(now, p);
    const dp::PortStatus st = ctx.dp->port_status(p);
    const dp::PortLoad load = ctx.dp->port_load(p);
    const rte_eth_stats nic = nic_stats(p);
    const dp::ControlTxTotals ctl = ctx.dp->control_tx(p);
    char mac[RTE_ETHER_ADDR_FMT_SIZE];
    rte_ether_format_addr(mac, sizeof mac, &st.mac);
    return Json{{"port", p},
                {"mac", mac},
                {"started", st.started},
                {"link_up", st.link_up},
                {"admin_up", st.admin_up},
                {"rx_packets", t.rx_pkts},
                {"rx_bytes", t.rx_bytes},
                {"tx_packets", t.tx_pkts},
                {"tx_bytes", t.tx_bytes},
                {"tx_dropped", t.tx_dropped},
                {"backlog_bytes", load.backlog_bytes},
                {"backlog_source", load.backlog_from_nic ? "nic" : "weft"},
                // The control thread's own frames (subnet management); never cleared.
                {"control_tx",
                 {{"queue", st.control_tx ? Json(ctx.dp->control_tx_queue()) : Json()},
                  {"sent", ctl.sent},
                  {"failed", ctl.failed}}},
                {"nic",
                 {{"rx_packets", nic.ipackets},
                  {"rx_bytes", nic.ibytes},
                  {"rx_missed", nic.imissed},
                  {"rx_errors", nic.ierrors},
                  {"rx_nombuf", nic.rx_nombuf},
                  {"tx_packets", nic.opackets},
                  {"tx_bytes", nic.obytes},
                  {"tx_errors", nic.oerrors}}}};
}

// The ports and the totals, all from one reading of the counters (so that the totals' rx
// plus replicas equals forwarded, dropped and punted, and the ports' figures add up to them).
Json port_stats_record(const CommandContext &ctx) {
    const StatsBaseline::Snapshot now = StatsBaseline::read(ctx.dp->counters());
    Json ports = Json::array();
    for (std::uint16_t p = 0; p < ctx.dp->num_ports(); ++p) ports.push_back(port_record(ctx, now, p));
    const dp::Totals t = ctx.stats.totals(now);
    Json drops = Json::object();
    for (std::size_t i = 1; i < dp::kDropReasonCount; ++i)
        if (t.drops[i] != 0) drops[dp::drop_reason_name(static_cast<dp::DropReason>(i))] = t.drops[i];
    return Json{{"ports", ports},
                {"rx_packets", t.rx_pkts},
                {"forwarded", t.fwd_pkts},
                {"replicas", t.replicas},
                {"dropped", t.dropped()},
                {"punted", t.punted},
                {"punts_drained", ctx.dp->punts_drained()},  // by the control thread; never cleared
                {"drops", drops}};
}

}  // namespace

void print_port_stats(const CommandContext &ctx, struct cmdline *cl) {
    const Json r = port_stats_record(ctx);
    auto n = [](const Json &j, const char *k) { return j[k].dump(); };
    for (const Json &p : r["ports"]) {
        const Json &nic = p["nic"];
        cmdline_printf(
            cl,
            "port %s (%s): %s, link %s, admin %s\n"
            "  rx-packets %s rx-bytes %s tx-packets %s tx-bytes %s tx-dropped %s backlog-bytes %s (%s)\n"
            "  nic: rx-packets %s rx-missed %s rx-errors %s rx-nombuf %s tx-packets %s tx-errors %s\n"
            "  control-tx: queue %s sent %s failed %s\n",
            n(p, "port").c_str(), p["mac"].get<std::string>().c_str(),
            p["started"].get<bool>() ? "started" : "stopped", p["link_up"].get<bool>() ? "up" : "down",
            p["admin_up"].get<bool>() ? "up" : "down", n(p, "rx_packets").c_str(), n(p, "rx_bytes").c_str(),
            n(p, "tx_packets").c_str(), n(p, "tx_bytes").c_str(), n(p, "tx_dropped").c_str(),
            n(p, "backlog_bytes").c_str(), p["backlog_source"].get<std::string>().c_str(),
            n(nic, "rx_packets").c_str(), n(nic, "rx_missed").c_str(), n(nic, "rx_errors").c_str(),
            n(nic, "rx_nombuf").c_str(), n(nic, "tx_packets").c_str(), n(nic, "tx_errors").c_str(),
            p["control_tx"]["queue"].is_null() ? "none" : n(p["control_tx"], "queue").c_str(),
            n(p["control_tx"], "sent").c_str(), n(p["control_tx"], "failed").c_str());
    }
    cmdline_printf(cl, "total: rx-packets %s forwarded %s replicas %s dropped %s punted %s (drained %s)\n",
                   n(r, "rx_packets").c_str(), n(r, "forwarded").c_str(), n(r, "replicas").c_str(),
                   n(r, "dropped").c_str(), n(r, "punted").c_str(), n(r, "punts_drained").c_str());
    for (const auto &[reason, count] : r["drops"].items())
        cmdline_printf(cl, "  drop %s %s\n", reason.c_str(), count.dump().c_str());
}

namespace cli {
namespace {

struct ShowPortCmd {
    cmdline_fixed_string_t show, port, what, json;
};
WEFT_TOK_STR(ShowPortCmd, show, "show");
WEFT_TOK_STR(ShowPortCmd, port, "port");
WEFT_TOK_STR(ShowPortCmd, what, "stats");
WEFT_TOK_STR(ShowPortCmd, json, "json");

void show_port_stats(void *, struct cmdline *cl, void *data) {
    print_port_stats(context_of(data), cl);
}
void show_port_stats_json(void *, struct cmdline *cl, void *data) {
    print_json(cl, port_stats_record(context_of(data)));
}
Inst<3> inst_show_port{
    show_port_stats,
    nullptr,
    "show port stats",
    {WEFT_HDR(ShowPortCmd_show), WEFT_HDR(ShowPortCmd_port), WEFT_HDR(ShowPortCmd_what), nullptr}};
Inst<4> inst_show_port_json{show_port_stats_json,
                            nullptr,
                            "show port stats json",
                            {WEFT_HDR(ShowPortCmd_show), WEFT_HDR(ShowPortCmd_port),
                             WEFT_HDR(ShowPortCmd_what), WEFT_HDR(ShowPortCmd_json), nullptr}};

}  // namespace

InstList port_stats_commands() {
    return {as_inst(inst_show_port), as_inst(inst_show_port_json)};
}

}  // namespace cli
}  // namespace weft::control
