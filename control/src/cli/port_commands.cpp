// Port commands in testpmd's vocabulary: port start|stop, set link-up|link-down, clear port stats
// (show port stats: port_stats.cpp).
#include <cmdline.h>
#include <rte_ethdev.h>

#include <string>

#include "cli_internal.hpp"
#include "weft/control/cli.hpp"
#include "weft/dataplane/counters.hpp"

namespace weft::control {

namespace dp = weft::dataplane;
using cli::ull;

namespace cli {
namespace {

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
    const StatsBaseline::Snapshot now = StatsBaseline::read(ctx.dp->counters());  // one reading for all
    for (std::uint16_t p : *ports) {
        const int rc = rte_eth_stats_reset(p);
        ctx.stats.clear_port(now, p);
        cmdline_printf(cl, "  NIC statistics for port %u cleared%s\n", p,
                       rc == 0 ? "" : " (the PMD keeps none to reset; weft's counters cleared)");
    }
    if (std::string(r->which) == "all") ctx.stats.clear_totals(now);
}
Inst<4> inst_clear{clear_cmd,
                   nullptr,
                   "clear port stats <p>|all",
                   {WEFT_HDR(ClearCmd_clear), WEFT_HDR(ClearCmd_port), WEFT_HDR(ClearCmd_stats),
                    WEFT_HDR(ClearCmd_which), nullptr}};

}  // namespace

InstList port_commands() {
    return {as_inst(inst_port), as_inst(inst_link), as_inst(inst_clear)};
}

}  // namespace cli
}  // namespace weft::control
