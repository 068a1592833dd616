// Forwarding-table commands: routes, next-hop groups, neighbours, LFT, MFT and SL2VL entries.
// Each goes through the FibBuilder, which refuses bad input without changing anything.
#include <cmdline.h>
#include <cmdline_parse_etheraddr.h>

#include <string>
#include <vector>

#include "cli_internal.hpp"
#include "weft/control/input_line.hpp"
#include "weft/dataplane/limits.hpp"

namespace weft::control::cli {

namespace dp = weft::dataplane;

namespace {

// ---- route add|del ----
struct RouteCmd {
    cmdline_fixed_string_t route, op, prefix, nhg;
    uint32_t id;
};
WEFT_TOK_STR(RouteCmd, route, "route");
WEFT_TOK_STR(RouteCmd, op, "add");
WEFT_TOK_STR(RouteCmd, prefix, nullptr);
WEFT_TOK_STR(RouteCmd, nhg, "nhg");
WEFT_TOK_NUM(RouteCmd, id, RTE_UINT32);
static cmdline_parse_token_string_t RouteCmd_del = TOKEN_STRING_INITIALIZER(RouteCmd, op, "del");

// The prefix of a route command, or a refusal saying what is wrong with it.
std::optional<dp::IpPrefix> prefix_arg(CommandContext &ctx, struct cmdline *cl, const char *text) {
    std::string why;
    const auto p = dp::IpPrefix::parse(text, &why);
    if (!p) refuse(ctx, cl, "bad prefix " + printable(text) + ": " + why);
    return p;
}

void route_add(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    auto *r = static_cast<RouteCmd *>(res);
    if (fabric_nhg_refused(ctx, cl, r->id)) return;
    if (const auto p = prefix_arg(ctx, cl, r->prefix)) apply(ctx, cl, ctx.fib->add_route(*p, r->id));
}
void route_del(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    auto *r = static_cast<RouteCmd *>(res);
    if (const auto p = prefix_arg(ctx, cl, r->prefix)) apply(ctx, cl, ctx.fib->del_route(*p));
}
Inst<5> inst_route_add{route_add,
                       nullptr,
                       "route add <prefix> nhg <id>",
                       {WEFT_HDR(RouteCmd_route), WEFT_HDR(RouteCmd_op), WEFT_HDR(RouteCmd_prefix),
                        WEFT_HDR(RouteCmd_nhg), WEFT_HDR(RouteCmd_id), nullptr}};
Inst<3> inst_route_del{
    route_del,
    nullptr,
    "route del <prefix>",
    {WEFT_HDR(RouteCmd_route), WEFT_HDR(RouteCmd_del), WEFT_HDR(RouteCmd_prefix), nullptr}};

// ---- nhg add|del ----
struct NhgCmd {
    cmdline_fixed_string_t nhg, op;
    uint32_t id;
    cmdline_fixed_string_t ports;
    cmdline_multi_string_t members;
};
WEFT_TOK_STR(NhgCmd, nhg, "nhg");
WEFT_TOK_STR(NhgCmd, op, "add");
WEFT_TOK_NUM(NhgCmd, id, RTE_UINT32);
WEFT_TOK_STR(NhgCmd, ports, "ports");
WEFT_TOK_STR(NhgCmd, members, TOKEN_STRING_MULTI);
static cmdline_parse_token_string_t NhgCmd_del = TOKEN_STRING_INITIALIZER(NhgCmd, op, "del");

void nhg_add(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    auto *r = static_cast<NhgCmd *>(res);
    if (fabric_nhg_refused(ctx, cl, r->id)) return;
    std::vector<dp::NhgMemberSpec> members;
    for (const std::string &w : words(r->members)) {
        // <port>[@<neighbour>][*<weight>]
        dp::NhgMemberSpec m;
        const auto star = w.find('*');
        const std::string hop = w.substr(0, star);
        const auto at = hop.find('@');
        const auto port = number(hop.substr(0, at), 0xFFFF);
        if (!port) return refuse(ctx, cl, "bad member " + printable(w));
        m.port = static_cast<std::uint16_t>(*port);
        if (at != std::string::npos) {
            m.via = dp::IpAddr::parse(hop.substr(at + 1));
            if (!m.via) return refuse(ctx, cl, "bad neighbour address in " + printable(w));
        }
        if (star != std::string::npos) {
            const auto weight = number(w.substr(star + 1), dp::kMaxNhgWeight);
            if (!weight || *weight == 0)
                return refuse(
                    ctx, cl,
                    "bad weight in " + printable(w) + " (1.." + std::to_string(dp::kMaxNhgWeight) + ")");
            m.weight = static_cast<std::uint16_t>(*weight);
        }
        members.push_back(m);
    }
    const dp::Status s = ctx.fib->set_nhg(r->id, std::move(members));
    if (s.ok()) ars_forget_nhg(ctx, r->id);  // a plain group replaces an ARS one
    apply(ctx, cl, s);
}
void nhg_del(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const std::uint32_t id = static_cast<NhgCmd *>(res)->id;
    if (fabric_nhg_refused(ctx, cl, id)) return;
    const dp::Status s = ctx.fib->del_nhg(id);
    if (s.ok()) {
        ars_forget_nhg(ctx, id);
        ctx.stats.forget_nhg(id);
    }
    apply(ctx, cl, s);
}
Inst<5> inst_nhg_add{nhg_add,
                     nullptr,
                     "nhg add <id> ports <member>...",
                     {WEFT_HDR(NhgCmd_nhg), WEFT_HDR(NhgCmd_op), WEFT_HDR(NhgCmd_id), WEFT_HDR(NhgCmd_ports),
                      WEFT_HDR(NhgCmd_members), nullptr}};
Inst<3> inst_nhg_del{nhg_del,
                     nullptr,
                     "nhg del <id>",
                     {WEFT_HDR(NhgCmd_nhg), WEFT_HDR(NhgCmd_del), WEFT_HDR(NhgCmd_id), nullptr}};

// ---- clear nhg stats <id>|all ----
// Zeroes what `show nhg` and `show ars nhg` show for the group (packets, bytes, ARS drops,
// reassignments and decisions) with a baseline on the control thread, as `clear port stats`
// does for ports; the workers keep counting, and each command clears only its own counters.
struct ClearNhgCmd {
    cmdline_fixed_string_t clear, nhg, stats, which;
};
WEFT_TOK_STR(ClearNhgCmd, clear, "clear");
WEFT_TOK_STR(ClearNhgCmd, nhg, "nhg");
WEFT_TOK_STR(ClearNhgCmd, stats, "stats");
WEFT_TOK_STR(ClearNhgCmd, which, nullptr);
void clear_nhg(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const std::string which = static_cast<ClearNhgCmd *>(res)->which;
    std::vector<std::uint32_t> ids;
    if (which == "all") {
        for (const auto &[id, spec] : ctx.fib->nhgs()) ids.push_back(id);
    } else {
        const auto id = number(which, 0xFFFFFFFFu);
        if (!id || !ctx.fib->nhg_index(static_cast<std::uint32_t>(*id)))
            return refuse(ctx, cl, "no nhg " + printable(which));
        ids.push_back(static_cast<std::uint32_t>(*id));
    }
    const auto counters = ctx.dp->counters();
    const auto workers = ctx.dp->ars_workers();
    for (std::uint32_t id : ids) {
        ctx.stats.clear_nhg(counters, workers, id, *ctx.fib->nhg_index(id));
        cmdline_printf(cl, "  statistics for nhg %u cleared\n", id);
    }
}
Inst<4> inst_clear_nhg{clear_nhg,
                       nullptr,
                       "clear nhg stats <id>|all",
                       {WEFT_HDR(ClearNhgCmd_clear), WEFT_HDR(ClearNhgCmd_nhg), WEFT_HDR(ClearNhgCmd_stats),
                        WEFT_HDR(ClearNhgCmd_which), nullptr}};

// ---- neigh add|del ----
struct NeighCmd {
    cmdline_fixed_string_t neigh, op, ip;
    rte_ether_addr mac;
    cmdline_fixed_string_t port_kw;
    uint16_t port;
};
WEFT_TOK_STR(NeighCmd, neigh, "neigh");
WEFT_TOK_STR(NeighCmd, op, "add");
WEFT_TOK_STR(NeighCmd, ip, nullptr);
static cmdline_parse_token_etheraddr_t NeighCmd_mac = TOKEN_ETHERADDR_INITIALIZER(NeighCmd, mac);
WEFT_TOK_STR(NeighCmd, port_kw, "port");
WEFT_TOK_NUM(NeighCmd, port, RTE_UINT16);
static cmdline_parse_token_string_t NeighCmd_del = TOKEN_STRING_INITIALIZER(NeighCmd, op, "del");

void neigh_add(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    auto *r = static_cast<NeighCmd *>(res);
    const auto ip = dp::IpAddr::parse(r->ip);
    if (!ip) return refuse(ctx, cl, "bad address " + printable(r->ip));
    apply(ctx, cl, ctx.fib->set_neighbour(*ip, r->mac, r->port));
}
void neigh_del(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    auto *r = static_cast<NeighCmd *>(res);
    const auto ip = dp::IpAddr::parse(r->ip);
    if (!ip) return refuse(ctx, cl, "bad address " + printable(r->ip));
    apply(ctx, cl, ctx.fib->del_neighbour(*ip));
}
Inst<6> inst_neigh_add{
    neigh_add,
    nullptr,
    "neigh add <ip> <mac> port <p>",
    {WEFT_HDR(NeighCmd_neigh), WEFT_HDR(NeighCmd_op), WEFT_HDR(NeighCmd_ip), WEFT_HDR(NeighCmd_mac),
     WEFT_HDR(NeighCmd_port_kw), WEFT_HDR(NeighCmd_port), nullptr}};
Inst<3> inst_neigh_del{neigh_del,
                       nullptr,
                       "neigh del <ip>",
                       {WEFT_HDR(NeighCmd_neigh), WEFT_HDR(NeighCmd_del), WEFT_HDR(NeighCmd_ip), nullptr}};

// ---- lft set|del ----
struct LftCmd {
    cmdline_fixed_string_t lft, op;
    uint32_t lid;
    cmdline_fixed_string_t kind;
    uint32_t value;
};
WEFT_TOK_STR(LftCmd, lft, "lft");
WEFT_TOK_STR(LftCmd, op, "set");
WEFT_TOK_NUM(LftCmd, lid, RTE_UINT32);  // pLIDs and 18-bit vLIDs
WEFT_TOK_STR(LftCmd, kind, "port#nhg");
WEFT_TOK_NUM(LftCmd, value, RTE_UINT32);
static cmdline_parse_token_string_t LftCmd_del = TOKEN_STRING_INITIALIZER(LftCmd, op, "del");

void lft_set(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    auto *r = static_cast<LftCmd *>(res);
    if (std::string(r->kind) == "nhg") return (void)apply(ctx, cl, ctx.fib->set_lft_nhg(r->lid, r->value));
    if (r->value > 0xFFFF) return refuse(ctx, cl, "bad port");
    apply(ctx, cl, ctx.fib->set_lft_port(r->lid, static_cast<std::uint16_t>(r->value)));
}
void lft_del(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    apply(ctx, cl, ctx.fib->clear_lft(static_cast<LftCmd *>(res)->lid));
}
Inst<5> inst_lft_set{lft_set,
                     nullptr,
                     "lft set <lid> port <p> | lft set <lid> nhg <id>",
                     {WEFT_HDR(LftCmd_lft), WEFT_HDR(LftCmd_op), WEFT_HDR(LftCmd_lid), WEFT_HDR(LftCmd_kind),
                      WEFT_HDR(LftCmd_value), nullptr}};
Inst<3> inst_lft_del{lft_del,
                     nullptr,
                     "lft del <lid>",
                     {WEFT_HDR(LftCmd_lft), WEFT_HDR(LftCmd_del), WEFT_HDR(LftCmd_lid), nullptr}};

// ---- mft set|del ----
struct MftCmd {
    cmdline_fixed_string_t mft, op;
    uint16_t mlid;
    cmdline_fixed_string_t ports;
    cmdline_multi_string_t list;
};
WEFT_TOK_STR(MftCmd, mft, "mft");
WEFT_TOK_STR(MftCmd, op, "set");
WEFT_TOK_NUM(MftCmd, mlid, RTE_UINT16);
WEFT_TOK_STR(MftCmd, ports, "ports");
WEFT_TOK_STR(MftCmd, list, TOKEN_STRING_MULTI);
static cmdline_parse_token_string_t MftCmd_del = TOKEN_STRING_INITIALIZER(MftCmd, op, "del");

void mft_set(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    auto *r = static_cast<MftCmd *>(res);
    dp::PortMask mask;
    const Words ws = words(r->list);
    if (ws.empty()) return refuse(ctx, cl, "mft set needs at least one port");
    for (const std::string &w : ws) {
        const auto port = number(w, dp::kMaxPorts - 1);
        if (!port) return refuse(ctx, cl, "bad port " + printable(w));
        mask.set(static_cast<std::uint16_t>(*port));
    }
    apply(ctx, cl, ctx.fib->set_mft(r->mlid, mask));
}
void mft_del(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    auto *r = static_cast<MftCmd *>(res);
    if (r->mlid < dp::kFirstMulticastLid || r->mlid > dp::kLastMulticastLid)
        return refuse(ctx, cl, "multicast LIDs are 0xC000..0xFFFE");
    apply(ctx, cl, ctx.fib->set_mft(r->mlid, dp::PortMask{}));
}
Inst<5> inst_mft_set{mft_set,
                     nullptr,
                     "mft set <mlid> ports <p>...",
                     {WEFT_HDR(MftCmd_mft), WEFT_HDR(MftCmd_op), WEFT_HDR(MftCmd_mlid),
                      WEFT_HDR(MftCmd_ports), WEFT_HDR(MftCmd_list), nullptr}};
Inst<3> inst_mft_del{mft_del,
                     nullptr,
                     "mft del <mlid>",
                     {WEFT_HDR(MftCmd_mft), WEFT_HDR(MftCmd_del), WEFT_HDR(MftCmd_mlid), nullptr}};

// ---- sl2vl set port <p> sl <sl> vl <vl> ----
struct Sl2VlCmd {
    cmdline_fixed_string_t sl2vl, set, port_kw;
    uint16_t port;
    cmdline_fixed_string_t sl_kw;
    uint8_t sl;
    cmdline_fixed_string_t vl_kw;
    uint8_t vl;
};
WEFT_TOK_STR(Sl2VlCmd, sl2vl, "sl2vl");
WEFT_TOK_STR(Sl2VlCmd, set, "set");
WEFT_TOK_STR(Sl2VlCmd, port_kw, "port");
WEFT_TOK_NUM(Sl2VlCmd, port, RTE_UINT16);
WEFT_TOK_STR(Sl2VlCmd, sl_kw, "sl");
WEFT_TOK_NUM(Sl2VlCmd, sl, RTE_UINT8);
WEFT_TOK_STR(Sl2VlCmd, vl_kw, "vl");
WEFT_TOK_NUM(Sl2VlCmd, vl, RTE_UINT8);
void sl2vl_set(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    auto *r = static_cast<Sl2VlCmd *>(res);
    apply(ctx, cl, ctx.fib->set_sl2vl(r->port, r->sl, r->vl));
}
Inst<8> inst_sl2vl{sl2vl_set,
                   nullptr,
                   "sl2vl set port <p> sl <sl> vl <vl>",
                   {WEFT_HDR(Sl2VlCmd_sl2vl), WEFT_HDR(Sl2VlCmd_set), WEFT_HDR(Sl2VlCmd_port_kw),
                    WEFT_HDR(Sl2VlCmd_port), WEFT_HDR(Sl2VlCmd_sl_kw), WEFT_HDR(Sl2VlCmd_sl),
                    WEFT_HDR(Sl2VlCmd_vl_kw), WEFT_HDR(Sl2VlCmd_vl), nullptr}};

// ---- show fib capacity [json] ----
// How full the tables are that weft's --fib4-*/--fib6-* options size.
struct ShowFibCmd {
    cmdline_fixed_string_t show, fib, capacity, json;
};
WEFT_TOK_STR(ShowFibCmd, show, "show");
WEFT_TOK_STR(ShowFibCmd, fib, "fib");
WEFT_TOK_STR(ShowFibCmd, capacity, "capacity");
WEFT_TOK_STR(ShowFibCmd, json, "json");

Json table_use_json(const dp::FibTableUse &u) {
    return {{"routes", u.routes},
            {"max_routes", u.max_routes},
            {"tbl8_groups", u.tbl8_groups},
            {"max_tbl8_groups", u.max_tbl8_groups}};
}

void show_fib_capacity(void *res, struct cmdline *cl, void *data) {
    const CommandContext &ctx = context_of(data);
    const dp::FibCapacity c = ctx.fib->capacity();
    if (std::string(static_cast<ShowFibCmd *>(res)->json) == "json") {
        print_json(cl, {{"ipv4", table_use_json(c.ipv4)},
                        {"ipv6", table_use_json(c.ipv6)},
                        {"nhgs", c.nhgs},
                        {"max_nhgs", c.max_nhgs},
                        {"neighbours", c.neighbours},
                        {"memory_bytes", ctx.fib->memory_bytes()}});
        return;
    }
    for (const auto &[name, u] : {std::pair{"ipv4", c.ipv4}, std::pair{"ipv6", c.ipv6}})
        cmdline_printf(cl, "  %s: routes %zu of %zu, tbl8 groups %zu of %zu\n", name, u.routes, u.max_routes,
                       u.tbl8_groups, u.max_tbl8_groups);
    cmdline_printf(cl, "  nhgs %zu of %zu, neighbours %zu; tables and route state %.1f MB\n", c.nhgs,
                   c.max_nhgs, c.neighbours, static_cast<double>(ctx.fib->memory_bytes()) / 1e6);
}
Inst<3> inst_show_fib{
    show_fib_capacity,
    nullptr,
    "show fib capacity",
    {WEFT_HDR(ShowFibCmd_show), WEFT_HDR(ShowFibCmd_fib), WEFT_HDR(ShowFibCmd_capacity), nullptr}};
Inst<4> inst_show_fib_json{show_fib_capacity,
                           nullptr,
                           "show fib capacity json",
                           {WEFT_HDR(ShowFibCmd_show), WEFT_HDR(ShowFibCmd_fib),
                            WEFT_HDR(ShowFibCmd_capacity), WEFT_HDR(ShowFibCmd_json), nullptr}};

}  // namespace

InstList route_change_commands() {
    return {as_inst(inst_route_add), as_inst(inst_route_del)};
}

InstList table_commands() {
    return {as_inst(inst_route_add), as_inst(inst_route_del),    as_inst(inst_nhg_add),
            as_inst(inst_nhg_del),   as_inst(inst_neigh_add),    as_inst(inst_neigh_del),
            as_inst(inst_lft_set),   as_inst(inst_lft_del),      as_inst(inst_mft_set),
            as_inst(inst_mft_del),   as_inst(inst_sl2vl),        as_inst(inst_clear_nhg),
            as_inst(inst_show_fib),  as_inst(inst_show_fib_json)};
}

}  // namespace weft::control::cli
