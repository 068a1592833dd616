// Port commands in testpmd's vocabulary: port start|stop, set link-up|link-down, show port stats,
// clear port stats. Port figures are weft's per-lcore counters (since the last clear) and the
// PMD's own ethdev statistics.
#include <cmdline.h>
#include <rte_ethdev.h>

#include <string>

#include "cli_internal.hpp"
#include "weft/control/cli.hpp"
#include "weft/dataplane/counters.hpp"

namespace weft::control {

namespace dp = weft::dataplane;
using cli::ull;

namespace {

// The PMD's statistics; zeros where it keeps none.
rte_eth_stats nic_stats(std::uint16_t port) {
    rte_eth_stats st{};
    if (rte_eth_stats_get(port, &st) != 0) st = rte_eth_stats{};
    return st;
}

}  // namespace

void print_port_stats(const CommandContext &ctx, struct cmdline *cl) {
    const auto counters = ctx.dp->counters();
    for (std::uint16_t p = 0; p < ctx.dp->num_ports(); ++p) {
        const dp::PortTotals t = ctx.stats.port(counters, p);
        const dp::PortStatus st = ctx.dp->port_status(p);
        const dp::PortLoad load = ctx.dp->port_load(p);
        const rte_eth_stats nic = nic_stats(p);
        char mac[RTE_ETHER_ADDR_FMT_SIZE];
        rte_ether_format_addr(mac, sizeof mac, &st.mac);
        cmdline_printf(cl,
                       "port %u (%s): %s, link %s, admin %s\n"
                       "  rx-packets %llu rx-bytes %llu tx-packets %llu tx-bytes %llu tx-dropped %llu "
                       "backlog-bytes %llu (%s)\n"
                       "  nic: rx-packets %llu rx-missed %llu rx-errors %llu rx-nombuf %llu tx-packets %llu "
                       "tx-errors %llu\n",
                       p, mac, st.started ? "started" : "stopped", st.link_up ? "up" : "down",
                       st.admin_up ? "up" : "down", ull(t.rx_pkts), ull(t.rx_bytes), ull(t.tx_pkts),
                       ull(t.tx_bytes), ull(t.tx_dropped), ull(load.backlog_bytes),
                       load.backlog_from_nic ? "nic" : "weft", ull(nic.ipackets), ull(nic.imissed),
                       ull(nic.ierrors), ull(nic.rx_nombuf), ull(nic.opackets), ull(nic.oerrors));
    }
    const dp::Totals t = ctx.stats.totals(counters);
    cmdline_printf(cl, "total: rx-packets %llu forwarded %llu replicas %llu dropped %llu\n", ull(t.rx_pkts),
                   ull(t.fwd_pkts), ull(t.replicas), ull(t.dropped()));
    for (std::size_t i = 1; i < dp::kDropReasonCount; ++i)
        if (t.drops[i] != 0)
            cmdline_printf(cl, "  drop %s %llu\n", dp::drop_reason_name(static_cast<dp::DropReason>(i)),
                           ull(t.drops[i]));
}

namespace cli {
namespace {

// ---- show port stats [json] ----
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
    CommandContext &ctx = context_of(data);
    const auto counters = ctx.dp->counters();
    cmdline_printf(cl, "{\"ports\": [");
    for (std::uint16_t p = 0; p < ctx.dp->num_ports(); ++p) {
        const dp::PortTotals t = ctx.stats.port(counters, p);
        const dp::PortStatus st = ctx.dp->port_status(p);
        const dp::PortLoad load = ctx.dp->port_load(p);
        const rte_eth_stats nic = nic_stats(p);
        char mac[RTE_ETHER_ADDR_FMT_SIZE];
        rte_ether_format_addr(mac, sizeof mac, &st.mac);
        cmdline_printf(
            cl,
            "%s{\"port\": %u, \"mac\": \"%s\", \"started\": %s, \"link_up\": %s, \"admin_up\": %s, "
            "\"rx_packets\": %llu, \"rx_bytes\": %llu, \"tx_packets\": %llu, \"tx_bytes\": %llu, "
            "\"tx_dropped\": %llu, \"backlog_bytes\": %llu, \"nic\": {\"rx_packets\": %llu, \"rx_bytes\": "
            "%llu, "
            "\"rx_missed\": %llu, \"rx_errors\": %llu, \"rx_nombuf\": %llu, \"tx_packets\": %llu, "
            "\"tx_bytes\": %llu, \"tx_errors\": %llu}}",
            p ? ", " : "", p, mac, st.started ? "true" : "false", st.link_up ? "true" : "false",
            st.admin_up ? "true" : "false", ull(t.rx_pkts), ull(t.rx_bytes), ull(t.tx_pkts), ull(t.tx_bytes),
            ull(t.tx_dropped), ull(load.backlog_bytes), ull(nic.ipackets), ull(nic.ibytes), ull(nic.imissed),
            ull(nic.ierrors), ull(nic.rx_nombuf), ull(nic.opackets), ull(nic.obytes), ull(nic.oerrors));
    }
    const dp::Totals t = ctx.stats.totals(counters);
    cmdline_printf(cl,
                   "], \"rx_packets\": %llu, \"forwarded\": %llu, \"replicas\": %llu, \"dropped\": %llu}\n",
                   ull(t.rx_pkts), ull(t.fwd_pkts), ull(t.replicas), ull(t.dropped()));
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

// ---- port start|stop <p>|all ----
struct PortCmd {
    cmdline_fixed_string_t port, op, which;
};
WEFT_TOK_STR(PortCmd, port, "port");
WEFT_TOK_STR(PortCmd, op, "start#stop");
WEFT_TOK_STR(PortCmd, which, nullptr);
void port_cmd(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    auto *r = static_cast<PortCmd *>(res);
    const bool start = std::string(r->op) == "start";
    const auto ports = ports_arg(ctx, r->which);
    if (!ports) return refuse(ctx, cl, std::string("no port ") + r->which);
    for (std::uint16_t p : *ports) {
        const dp::Status s = start ? ctx.dp->port_start(p) : ctx.dp->port_stop(p);
        if (!s.ok()) return refuse(ctx, cl, s.message());
    }
}
Inst<3> inst_port{port_cmd,
                  nullptr,
                  "port start|stop <p>|all",
                  {WEFT_HDR(PortCmd_port), WEFT_HDR(PortCmd_op), WEFT_HDR(PortCmd_which), nullptr}};

// ---- set link-up|link-down port <p> ----
struct LinkCmd {
    cmdline_fixed_string_t set, what, port_kw;
    uint16_t port;
};
WEFT_TOK_STR(LinkCmd, set, "set");
WEFT_TOK_STR(LinkCmd, what, "link-up#link-down");
WEFT_TOK_STR(LinkCmd, port_kw, "port");
WEFT_TOK_NUM(LinkCmd, port, RTE_UINT16);
void link_cmd(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    auto *r = static_cast<LinkCmd *>(res);
    const dp::Status s = ctx.dp->set_link(r->port, std::string(r->what) == "link-up");
    if (!s.ok()) refuse(ctx, cl, s.message());
}
Inst<4> inst_link{link_cmd,
                  nullptr,
                  "set link-up|link-down port <p>",
                  {WEFT_HDR(LinkCmd_set), WEFT_HDR(LinkCmd_what), WEFT_HDR(LinkCmd_port_kw),
                   WEFT_HDR(LinkCmd_port), nullptr}};

// ---- clear port stats <p>|all ----
// The PMD's statistics are reset; weft's per-lcore counters get a new baseline on the control
// thread (the workers keep counting, untouched). `all` also zeroes the totals and drops.
struct ClearCmd {
    cmdline_fixed_string_t clear, port, stats, which;
};
WEFT_TOK_STR(ClearCmd, clear, "clear");
WEFT_TOK_STR(ClearCmd, port, "port");
WEFT_TOK_STR(ClearCmd, stats, "stats");
WEFT_TOK_STR(ClearCmd, which, nullptr);
void clear_cmd(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    auto *r = static_cast<ClearCmd *>(res);
    const auto ports = ports_arg(ctx, r->which);
    if (!ports) return refuse(ctx, cl, std::string("no port ") + r->which);
    const auto counters = ctx.dp->counters();
    for (std::uint16_t p : *ports) {
        const int rc = rte_eth_stats_reset(p);
        ctx.stats.clear_port(counters, p);
        cmdline_printf(cl, "  NIC statistics for port %u cleared%s\n", p,
                       rc == 0 ? "" : " (the PMD keeps none to reset; weft's counters cleared)");
    }
    if (std::string(r->which) == "all") ctx.stats.clear_totals(counters);
}
Inst<4> inst_clear{clear_cmd,
                   nullptr,
                   "clear port stats <p>|all",
                   {WEFT_HDR(ClearCmd_clear), WEFT_HDR(ClearCmd_port), WEFT_HDR(ClearCmd_stats),
                    WEFT_HDR(ClearCmd_which), nullptr}};

}  // namespace

InstList port_commands() {
    return {as_inst(inst_show_port), as_inst(inst_show_port_json), as_inst(inst_port), as_inst(inst_link),
            as_inst(inst_clear)};
}

}  // namespace cli
}  // namespace weft::control
