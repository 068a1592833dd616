#include "commands.hpp"

#include <cmdline.h>
#include <cmdline_parse_etheraddr.h>
#include <cmdline_parse_num.h>
#include <cmdline_parse_string.h>

#include <cstddef>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace weft::app {

namespace dp = weft::dataplane;

namespace {
CommandContext *g_ctx = nullptr;  // cmdline callbacks carry no typed context
}  // namespace

const char kUsage[] =
    "commands:\n"
    "  route add <prefix> nhg <id>            IPv4 or IPv6 prefix -> next-hop group\n"
    "  route del <prefix>\n"
    "  nhg add <id> ports <m> [<m> ...]       hash ECMP; member m: <port> or <port>@<neighbour-ip>\n"
    "  nhg add <id> ars <obj>|none primary <m>[,<m>...] [alternate <m>[,<m>...]] [cost <c>] [bias <b>]\n"
    "          [threshold <t>]                ARS group; m: <port> or lag<id>; MACs from the ports' "
    "neighbours\n"
    "  nhg del <id>\n"
    "  neigh add <ip> <mac> port <p>          next-hop IP -> MAC on port\n"
    "  neigh del <ip>\n"
    "  lft set <lid> port <p> | lft set <lid> nhg <id> | lft del <lid>\n"
    "  mft set <mlid> ports <p> [<p> ...]     multicast LID 0xC000..0xFFFE -> ports\n"
    "  mft del <mlid>\n"
    "  sl2vl set port <p> sl <sl> vl <vl>\n"
    "  set ars profile sampling-interval|seed|past-weight|future-weight|ewma-exponent <n>\n"
    "  set ars profile past-load|future-load|current-load on|off\n"
    "  set ars profile band <0..7> <min-mbps> <max-mbps>\n"
    "  set ars port <p> enable|disable|speed <G>|scale <tenths>|weights <past%> <future%>\n"
    "  ars object add <id> mode flowlet-quality|flowlet-random|per-packet-quality|per-packet-random|fixed\n"
    "          idle-time <us> max-flows <n> [monitor on|off]\n"
    "  ars object del <id>\n"
    "  lag add <id> ports <p>[,<p>...] [ars <obj>] | lag del <id>\n"
    "  acl add <prio> [ethertype <x>] [ip-version 4|6] [proto <n>] [sport <a>[-<b>]] [dport <a>[-<b>]]\n"
    "          [dscp <d>[,<d>...]] action disable-ars|set-ars <obj>|monitor on|off ...\n"
    "  acl clear\n"
    "  monitor start|stop                     report every ARS path reassignment\n"
    "  show port stats [json] | show route [json] | show nhg [json] | show drops [json]\n"
    "  show ars nhg <id> [json] | show ars quality [json]\n"
    "  port start|stop <p>|all\n"
    "  set link-up|link-down port <p>\n"
    "  help | quit\n";

void refuse(struct cmdline *cl, const std::string &why) {
    ++g_ctx->errors;
    cmdline_printf(cl, "error: %s\n%s", why.c_str(), kUsage);
}

namespace {

// cmdline_parse_inst_t ends in a flexible array member, which C++ cannot initialise; this has
// the same layout with a fixed token count.
template <std::size_t N>
struct Inst {
    void (*f)(void *, struct cmdline *, void *);
    void *data;
    const char *help_str;
    cmdline_parse_token_hdr_t *tokens[N + 1];
};

#define TOK_STR(st, field, s) \
    static cmdline_parse_token_string_t st##_##field = TOKEN_STRING_INITIALIZER(st, field, s)
#define TOK_NUM(st, field, t) \
    static cmdline_parse_token_num_t st##_##field = TOKEN_NUM_INITIALIZER(st, field, t)
#define HDR(x) reinterpret_cast<cmdline_parse_token_hdr_t *>(&(x))

bool apply(struct cmdline *cl, dp::Status s) {
    if (!s.ok()) {
        refuse(cl, s.message());
        return false;
    }
    return commit(*g_ctx, cl);
}

std::vector<std::string> words(const char *text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

bool parse_u32(const std::string &s, std::uint32_t &out) {
    try {
        std::size_t used = 0;
        const unsigned long v = std::stoul(s, &used, 0);
        if (used != s.size() || v > 0xFFFFFFFFul || s[0] == '-') return false;
        out = static_cast<std::uint32_t>(v);
        return true;
    } catch (const std::exception &) {
        return false;
    }
}

// ---- route add|del ----
struct RouteCmd {
    cmdline_fixed_string_t route, op, prefix, nhg;
    uint32_t id;
};
TOK_STR(RouteCmd, route, "route");
TOK_STR(RouteCmd, op, "add");
TOK_STR(RouteCmd, prefix, nullptr);
TOK_STR(RouteCmd, nhg, "nhg");
TOK_NUM(RouteCmd, id, RTE_UINT32);
static cmdline_parse_token_string_t RouteCmd_del = TOKEN_STRING_INITIALIZER(RouteCmd, op, "del");

void route_add(void *res, struct cmdline *cl, void *) {
    auto *r = static_cast<RouteCmd *>(res);
    const auto p = dp::IpPrefix::parse(r->prefix);
    if (!p) return refuse(cl, std::string("bad prefix ") + r->prefix);
    apply(cl, g_ctx->fib->add_route(*p, r->id));
}
void route_del(void *res, struct cmdline *cl, void *) {
    auto *r = static_cast<RouteCmd *>(res);
    const auto p = dp::IpPrefix::parse(r->prefix);
    if (!p) return refuse(cl, std::string("bad prefix ") + r->prefix);
    apply(cl, g_ctx->fib->del_route(*p));
}
Inst<5> inst_route_add{route_add,
                       nullptr,
                       "route add <prefix> nhg <id>",
                       {HDR(RouteCmd_route), HDR(RouteCmd_op), HDR(RouteCmd_prefix), HDR(RouteCmd_nhg),
                        HDR(RouteCmd_id), nullptr}};
Inst<3> inst_route_del{route_del,
                       nullptr,
                       "route del <prefix>",
                       {HDR(RouteCmd_route), HDR(RouteCmd_del), HDR(RouteCmd_prefix), nullptr}};

// ---- nhg add|del ----
struct NhgCmd {
    cmdline_fixed_string_t nhg, op;
    uint32_t id;
    cmdline_fixed_string_t ports;
    cmdline_multi_string_t members;
};
TOK_STR(NhgCmd, nhg, "nhg");
TOK_STR(NhgCmd, op, "add");
TOK_NUM(NhgCmd, id, RTE_UINT32);
TOK_STR(NhgCmd, ports, "ports");
TOK_STR(NhgCmd, members, TOKEN_STRING_MULTI);
static cmdline_parse_token_string_t NhgCmd_del = TOKEN_STRING_INITIALIZER(NhgCmd, op, "del");

void nhg_add(void *res, struct cmdline *cl, void *) {
    auto *r = static_cast<NhgCmd *>(res);
    std::vector<dp::NhgMemberSpec> members;
    for (const std::string &w : words(r->members)) {
        dp::NhgMemberSpec m;
        const auto at = w.find('@');
        std::uint32_t port = 0;
        if (!parse_u32(w.substr(0, at), port) || port > 0xFFFF) return refuse(cl, "bad member " + w);
        m.port = static_cast<std::uint16_t>(port);
        if (at != std::string::npos) {
            m.via = dp::IpAddr::parse(w.substr(at + 1));
            if (!m.via) return refuse(cl, "bad neighbour address in " + w);
        }
        members.push_back(m);
    }
    const dp::Status s = g_ctx->fib->set_nhg(r->id, std::move(members));
    if (s.ok()) ars_forget_nhg(*g_ctx, r->id);  // a plain group replaces an ARS one
    apply(cl, s);
}
void nhg_del(void *res, struct cmdline *cl, void *) {
    const std::uint32_t id = static_cast<NhgCmd *>(res)->id;
    const dp::Status s = g_ctx->fib->del_nhg(id);
    if (s.ok()) ars_forget_nhg(*g_ctx, id);
    apply(cl, s);
}
// nhg add <id> ars ...: the ARS command set parses the rest.
static cmdline_parse_token_string_t NhgCmd_ars = TOKEN_STRING_INITIALIZER(NhgCmd, ports, "ars");
void nhg_add_ars(void *res, struct cmdline *cl, void *) {
    auto *r = static_cast<NhgCmd *>(res);
    std::vector<std::string> w = {"nhg", "add", std::to_string(r->id), "ars"};
    for (std::string &x : words(r->members)) w.push_back(std::move(x));
    ars_command(*g_ctx, cl, w);
}
Inst<5> inst_nhg_add_ars{
    nhg_add_ars,
    nullptr,
    "nhg add <id> ars <object>|none primary <m>[,<m>...] [alternate ...] [cost c] [bias b] [threshold t]",
    {HDR(NhgCmd_nhg), HDR(NhgCmd_op), HDR(NhgCmd_id), HDR(NhgCmd_ars), HDR(NhgCmd_members), nullptr}};
Inst<5> inst_nhg_add{
    nhg_add,
    nullptr,
    "nhg add <id> ports <member>...",
    {HDR(NhgCmd_nhg), HDR(NhgCmd_op), HDR(NhgCmd_id), HDR(NhgCmd_ports), HDR(NhgCmd_members), nullptr}};
Inst<3> inst_nhg_del{
    nhg_del, nullptr, "nhg del <id>", {HDR(NhgCmd_nhg), HDR(NhgCmd_del), HDR(NhgCmd_id), nullptr}};

// ---- neigh add|del ----
struct NeighCmd {
    cmdline_fixed_string_t neigh, op, ip;
    rte_ether_addr mac;
    cmdline_fixed_string_t port_kw;
    uint16_t port;
};
TOK_STR(NeighCmd, neigh, "neigh");
TOK_STR(NeighCmd, op, "add");
TOK_STR(NeighCmd, ip, nullptr);
static cmdline_parse_token_etheraddr_t NeighCmd_mac = TOKEN_ETHERADDR_INITIALIZER(NeighCmd, mac);
TOK_STR(NeighCmd, port_kw, "port");
TOK_NUM(NeighCmd, port, RTE_UINT16);
static cmdline_parse_token_string_t NeighCmd_del = TOKEN_STRING_INITIALIZER(NeighCmd, op, "del");

void neigh_add(void *res, struct cmdline *cl, void *) {
    auto *r = static_cast<NeighCmd *>(res);
    const auto ip = dp::IpAddr::parse(r->ip);
    if (!ip) return refuse(cl, std::string("bad address ") + r->ip);
    apply(cl, g_ctx->fib->set_neighbour(*ip, r->mac, r->port));
}
void neigh_del(void *res, struct cmdline *cl, void *) {
    auto *r = static_cast<NeighCmd *>(res);
    const auto ip = dp::IpAddr::parse(r->ip);
    if (!ip) return refuse(cl, std::string("bad address ") + r->ip);
    apply(cl, g_ctx->fib->del_neighbour(*ip));
}
Inst<6> inst_neigh_add{neigh_add,
                       nullptr,
                       "neigh add <ip> <mac> port <p>",
                       {HDR(NeighCmd_neigh), HDR(NeighCmd_op), HDR(NeighCmd_ip), HDR(NeighCmd_mac),
                        HDR(NeighCmd_port_kw), HDR(NeighCmd_port), nullptr}};
Inst<3> inst_neigh_del{neigh_del,
                       nullptr,
                       "neigh del <ip>",
                       {HDR(NeighCmd_neigh), HDR(NeighCmd_del), HDR(NeighCmd_ip), nullptr}};

// ---- lft set|del ----
struct LftCmd {
    cmdline_fixed_string_t lft, op;
    uint16_t lid;
    cmdline_fixed_string_t kind;
    uint32_t value;
};
TOK_STR(LftCmd, lft, "lft");
TOK_STR(LftCmd, op, "set");
TOK_NUM(LftCmd, lid, RTE_UINT16);
TOK_STR(LftCmd, kind, "port#nhg");
TOK_NUM(LftCmd, value, RTE_UINT32);
static cmdline_parse_token_string_t LftCmd_del = TOKEN_STRING_INITIALIZER(LftCmd, op, "del");

void lft_set(void *res, struct cmdline *cl, void *) {
    auto *r = static_cast<LftCmd *>(res);
    if (std::string(r->kind) == "nhg") return (void)apply(cl, g_ctx->fib->set_lft_nhg(r->lid, r->value));
    if (r->value > 0xFFFF) return refuse(cl, "bad port");
    apply(cl, g_ctx->fib->set_lft_port(r->lid, static_cast<std::uint16_t>(r->value)));
}
void lft_del(void *res, struct cmdline *cl, void *) {
    apply(cl, g_ctx->fib->clear_lft(static_cast<LftCmd *>(res)->lid));
}
Inst<5> inst_lft_set{
    lft_set,
    nullptr,
    "lft set <lid> port <p> | lft set <lid> nhg <id>",
    {HDR(LftCmd_lft), HDR(LftCmd_op), HDR(LftCmd_lid), HDR(LftCmd_kind), HDR(LftCmd_value), nullptr}};
Inst<3> inst_lft_del{
    lft_del, nullptr, "lft del <lid>", {HDR(LftCmd_lft), HDR(LftCmd_del), HDR(LftCmd_lid), nullptr}};

// ---- mft set|del ----
struct MftCmd {
    cmdline_fixed_string_t mft, op;
    uint16_t mlid;
    cmdline_fixed_string_t ports;
    cmdline_multi_string_t list;
};
TOK_STR(MftCmd, mft, "mft");
TOK_STR(MftCmd, op, "set");
TOK_NUM(MftCmd, mlid, RTE_UINT16);
TOK_STR(MftCmd, ports, "ports");
TOK_STR(MftCmd, list, TOKEN_STRING_MULTI);
static cmdline_parse_token_string_t MftCmd_del = TOKEN_STRING_INITIALIZER(MftCmd, op, "del");

void mft_set(void *res, struct cmdline *cl, void *) {
    auto *r = static_cast<MftCmd *>(res);
    std::uint64_t mask = 0;
    const auto ws = words(r->list);
    if (ws.empty()) return refuse(cl, "mft set needs at least one port");
    for (const std::string &w : ws) {
        std::uint32_t port = 0;
        if (!parse_u32(w, port) || port >= dp::kMaxPorts) return refuse(cl, "bad port " + w);
        mask |= std::uint64_t{1} << port;
    }
    apply(cl, g_ctx->fib->set_mft(r->mlid, mask));
}
void mft_del(void *res, struct cmdline *cl, void *) {
    auto *r = static_cast<MftCmd *>(res);
    if (r->mlid < dp::kFirstMulticastLid || r->mlid > dp::kLastMulticastLid)
        return refuse(cl, "multicast LIDs are 0xC000..0xFFFE");
    apply(cl, g_ctx->fib->set_mft(r->mlid, 0));
}
Inst<5> inst_mft_set{
    mft_set,
    nullptr,
    "mft set <mlid> ports <p>...",
    {HDR(MftCmd_mft), HDR(MftCmd_op), HDR(MftCmd_mlid), HDR(MftCmd_ports), HDR(MftCmd_list), nullptr}};
Inst<3> inst_mft_del{
    mft_del, nullptr, "mft del <mlid>", {HDR(MftCmd_mft), HDR(MftCmd_del), HDR(MftCmd_mlid), nullptr}};

// ---- sl2vl set port <p> sl <sl> vl <vl> ----
struct Sl2VlCmd {
    cmdline_fixed_string_t sl2vl, set, port_kw;
    uint16_t port;
    cmdline_fixed_string_t sl_kw;
    uint8_t sl;
    cmdline_fixed_string_t vl_kw;
    uint8_t vl;
};
TOK_STR(Sl2VlCmd, sl2vl, "sl2vl");
TOK_STR(Sl2VlCmd, set, "set");
TOK_STR(Sl2VlCmd, port_kw, "port");
TOK_NUM(Sl2VlCmd, port, RTE_UINT16);
TOK_STR(Sl2VlCmd, sl_kw, "sl");
TOK_NUM(Sl2VlCmd, sl, RTE_UINT8);
TOK_STR(Sl2VlCmd, vl_kw, "vl");
TOK_NUM(Sl2VlCmd, vl, RTE_UINT8);
void sl2vl_set(void *res, struct cmdline *cl, void *) {
    auto *r = static_cast<Sl2VlCmd *>(res);
    apply(cl, g_ctx->fib->set_sl2vl(r->port, r->sl, r->vl));
}
Inst<8> inst_sl2vl{sl2vl_set,
                   nullptr,
                   "sl2vl set port <p> sl <sl> vl <vl>",
                   {HDR(Sl2VlCmd_sl2vl), HDR(Sl2VlCmd_set), HDR(Sl2VlCmd_port_kw), HDR(Sl2VlCmd_port),
                    HDR(Sl2VlCmd_sl_kw), HDR(Sl2VlCmd_sl), HDR(Sl2VlCmd_vl_kw), HDR(Sl2VlCmd_vl), nullptr}};

// ---- show ... ----
struct ShowCmd {
    cmdline_fixed_string_t show, what, stats, json;
};
TOK_STR(ShowCmd, show, "show");
TOK_STR(ShowCmd, what, "route#nhg#drops");
static cmdline_parse_token_string_t ShowCmd_port = TOKEN_STRING_INITIALIZER(ShowCmd, what, "port");
TOK_STR(ShowCmd, stats, "stats");

static cmdline_parse_token_string_t ShowCmd_json = TOKEN_STRING_INITIALIZER(ShowCmd, json, "json");
static cmdline_parse_token_string_t ShowCmd_json3 = TOKEN_STRING_INITIALIZER(ShowCmd, stats, "json");

void show_port_stats(void *, struct cmdline *cl, void *) {
    print_port_stats(*g_ctx, cl);
}

unsigned long long ull(std::uint64_t v) {
    return static_cast<unsigned long long>(v);
}

void show_port_stats_json(void *, struct cmdline *cl, void *) {
    const auto counters = g_ctx->dp->counters();
    cmdline_printf(cl, "{\"ports\": [");
    for (std::uint16_t p = 0; p < g_ctx->dp->num_ports(); ++p) {
        const dp::PortTotals t = dp::sum_port(counters, p);
        const dp::PortStatus st = g_ctx->dp->port_status(p);
        const dp::PortLoad load = g_ctx->dp->port_load(p);
        char mac[RTE_ETHER_ADDR_FMT_SIZE];
        rte_ether_format_addr(mac, sizeof mac, &st.mac);
        cmdline_printf(
            cl,
            "%s{\"port\": %u, \"mac\": \"%s\", \"started\": %s, \"link_up\": %s, \"admin_up\": %s, "
            "\"rx_packets\": %llu, \"rx_bytes\": %llu, \"tx_packets\": %llu, \"tx_bytes\": %llu, "
            "\"tx_dropped\": %llu, \"backlog_bytes\": %llu}",
            p ? ", " : "", p, mac, st.started ? "true" : "false", st.link_up ? "true" : "false",
            st.admin_up ? "true" : "false", ull(t.rx_pkts), ull(t.rx_bytes), ull(t.tx_pkts), ull(t.tx_bytes),
            ull(t.tx_dropped), ull(load.backlog_bytes));
    }
    const dp::Totals t = dp::sum_totals(counters);
    cmdline_printf(cl,
                   "], \"rx_packets\": %llu, \"forwarded\": %llu, \"replicas\": %llu, \"dropped\": %llu}\n",
                   ull(t.rx_pkts), ull(t.fwd_pkts), ull(t.replicas), ull(t.dropped()));
}

void show_other_json(void *res, struct cmdline *cl, void *) {
    const std::string what = static_cast<ShowCmd *>(res)->what;
    const dp::FibSnapshot *s = g_ctx->dp->publisher().current();
    if (what == "route") {
        cmdline_printf(cl, "{\"generation\": %llu, \"routes\": [", ull(s->generation()));
        bool first = true;
        for (const auto &r : s->routes()) {
            cmdline_printf(cl, "%s{\"prefix\": \"%s\", \"nhg\": %u}", first ? "" : ", ",
                           r.prefix.to_string().c_str(), r.nhg_id);
            first = false;
        }
        cmdline_printf(cl, "]}\n");
    } else if (what == "nhg") {
        const auto counters = g_ctx->dp->counters();
        cmdline_printf(cl, "{\"nhgs\": [");
        bool first = true;
        for (const auto &[id, spec] : g_ctx->fib->nhgs()) {
            const std::uint32_t index = *g_ctx->fib->nhg_index(id);
            const auto [pkts, bytes] = dp::sum_nhg(counters, index);
            cmdline_printf(cl, "%s{\"id\": %u, \"mode\": \"%s\", \"members\": [", first ? "" : ", ", id,
                           spec.mode == dp::NhgMode::Ars ? "ars" : "ecmp");
            first = false;
            const dp::NhgEntry *e = s->nhg(index);
            bool first_m = true;
            if (e != nullptr)
                for (const auto &m : s->members(*e)) {
                    cmdline_printf(cl, "%s{\"port\": %u, \"resolved\": %s}", first_m ? "" : ", ", m.port,
                                   m.resolved ? "true" : "false");
                    first_m = false;
                }
            cmdline_printf(cl, "], \"packets\": %llu, \"bytes\": %llu}", ull(pkts), ull(bytes));
        }
        cmdline_printf(cl, "]}\n");
    } else {
        const dp::Totals t = dp::sum_totals(g_ctx->dp->counters());
        cmdline_printf(cl, "{");
        for (std::size_t i = 1; i < dp::kDropReasonCount; ++i)
            cmdline_printf(cl, "\"%s\": %llu, ", dp::drop_reason_name(static_cast<dp::DropReason>(i)),
                           ull(t.drops[i]));
        cmdline_printf(cl, "\"total\": %llu}\n", ull(t.dropped()));
    }
}

void show_other(void *res, struct cmdline *cl, void *) {
    const std::string what = static_cast<ShowCmd *>(res)->what;
    const dp::FibSnapshot *s = g_ctx->dp->publisher().current();  // control thread: the writer itself
    if (what == "route") {
        cmdline_printf(cl, "%-44s %s\n", "prefix", "nhg");
        for (const auto &r : s->routes())
            cmdline_printf(cl, "%-44s %u\n", r.prefix.to_string().c_str(), r.nhg_id);
        cmdline_printf(cl, "%zu routes (snapshot generation %llu)\n", s->routes().size(),
                       static_cast<unsigned long long>(s->generation()));
    } else if (what == "nhg") {
        const auto counters = g_ctx->dp->counters();
        for (const auto &[id, spec] : g_ctx->fib->nhgs()) {
            const std::uint32_t index = *g_ctx->fib->nhg_index(id);
            const auto [pkts, bytes] = dp::sum_nhg(counters, index);
            std::string members;
            const dp::NhgEntry *e = s->nhg(index);
            if (e != nullptr)
                for (const auto &m : s->members(*e))
                    members += " " + std::to_string(m.port) + (m.resolved ? "" : "(unresolved)");
            cmdline_printf(cl, "nhg %u: members%s  packets %llu bytes %llu%s\n", id, members.c_str(),
                           static_cast<unsigned long long>(pkts), static_cast<unsigned long long>(bytes),
                           spec.mode == dp::NhgMode::Ars ? "  (ars)" : "");
        }
    } else {
        const dp::Totals t = dp::sum_totals(g_ctx->dp->counters());
        for (std::size_t i = 1; i < dp::kDropReasonCount; ++i)
            if (t.drops[i] != 0)
                cmdline_printf(cl, "  %-32s %llu\n", dp::drop_reason_name(static_cast<dp::DropReason>(i)),
                               static_cast<unsigned long long>(t.drops[i]));
        cmdline_printf(cl, "  %-32s %llu\n", "total", static_cast<unsigned long long>(t.dropped()));
    }
}
Inst<3> inst_show_port{show_port_stats,
                       nullptr,
                       "show port stats",
                       {HDR(ShowCmd_show), HDR(ShowCmd_port), HDR(ShowCmd_stats), nullptr}};
Inst<2> inst_show{
    show_other, nullptr, "show route|nhg|drops", {HDR(ShowCmd_show), HDR(ShowCmd_what), nullptr}};
Inst<4> inst_show_port_json{
    show_port_stats_json,
    nullptr,
    "show port stats json",
    {HDR(ShowCmd_show), HDR(ShowCmd_port), HDR(ShowCmd_stats), HDR(ShowCmd_json), nullptr}};
Inst<3> inst_show_json{show_other_json,
                       nullptr,
                       "show route|nhg|drops json",
                       {HDR(ShowCmd_show), HDR(ShowCmd_what), HDR(ShowCmd_json3), nullptr}};

// ---- port start|stop <p>|all ----
struct PortCmd {
    cmdline_fixed_string_t port, op, which;
};
TOK_STR(PortCmd, port, "port");
TOK_STR(PortCmd, op, "start#stop");
TOK_STR(PortCmd, which, nullptr);
void port_cmd(void *res, struct cmdline *cl, void *) {
    auto *r = static_cast<PortCmd *>(res);
    const bool start = std::string(r->op) == "start";
    std::vector<std::uint16_t> ports;
    if (std::string(r->which) == "all") {
        for (std::uint16_t p = 0; p < g_ctx->dp->num_ports(); ++p) ports.push_back(p);
    } else {
        std::uint32_t p = 0;
        if (!parse_u32(r->which, p) || p >= g_ctx->dp->num_ports())
            return refuse(cl, std::string("no port ") + r->which);
        ports.push_back(static_cast<std::uint16_t>(p));
    }
    for (std::uint16_t p : ports) {
        const dp::Status s = start ? g_ctx->dp->port_start(p) : g_ctx->dp->port_stop(p);
        if (!s.ok()) return refuse(cl, s.message());
    }
}
Inst<3> inst_port{port_cmd,
                  nullptr,
                  "port start|stop <p>|all",
                  {HDR(PortCmd_port), HDR(PortCmd_op), HDR(PortCmd_which), nullptr}};

// ---- set link-up|link-down port <p> ----
struct LinkCmd {
    cmdline_fixed_string_t set, what, port_kw;
    uint16_t port;
};
TOK_STR(LinkCmd, set, "set");
TOK_STR(LinkCmd, what, "link-up#link-down");
TOK_STR(LinkCmd, port_kw, "port");
TOK_NUM(LinkCmd, port, RTE_UINT16);
void link_cmd(void *res, struct cmdline *cl, void *) {
    auto *r = static_cast<LinkCmd *>(res);
    const dp::Status s = g_ctx->dp->set_link(r->port, std::string(r->what) == "link-up");
    if (!s.ok()) refuse(cl, s.message());
}
Inst<4> inst_link{link_cmd,
                  nullptr,
                  "set link-up|link-down port <p>",
                  {HDR(LinkCmd_set), HDR(LinkCmd_what), HDR(LinkCmd_port_kw), HDR(LinkCmd_port), nullptr}};

// ---- ARS: set ars ..., ars object ..., lag ..., acl ..., monitor ..., show ars ... ----
struct ArsCmd {
    cmdline_fixed_string_t first, second;
    cmdline_multi_string_t rest;
};
static cmdline_parse_token_string_t ArsCmd_set = TOKEN_STRING_INITIALIZER(ArsCmd, first, "set");
static cmdline_parse_token_string_t ArsCmd_show = TOKEN_STRING_INITIALIZER(ArsCmd, first, "show");
static cmdline_parse_token_string_t ArsCmd_ars2 = TOKEN_STRING_INITIALIZER(ArsCmd, second, "ars");
static cmdline_parse_token_string_t ArsCmd_ars1 = TOKEN_STRING_INITIALIZER(ArsCmd, first, "ars");
static cmdline_parse_token_string_t ArsCmd_word1 = TOKEN_STRING_INITIALIZER(ArsCmd, first, "lag#acl#monitor");
static cmdline_parse_token_string_t ArsCmd_rest = TOKEN_STRING_INITIALIZER(ArsCmd, rest, TOKEN_STRING_MULTI);

void ars_two(void *res, struct cmdline *cl, void *) {
    auto *r = static_cast<ArsCmd *>(res);
    std::vector<std::string> w = {r->first, r->second};
    for (std::string &x : words(r->rest)) w.push_back(std::move(x));
    ars_command(*g_ctx, cl, w);
}
void ars_one(void *res, struct cmdline *cl, void *) {
    auto *r = static_cast<ArsCmd *>(res);
    std::vector<std::string> w = {r->first};
    for (std::string &x : words(r->rest)) w.push_back(std::move(x));
    ars_command(*g_ctx, cl, w);
}
Inst<3> inst_set_ars{ars_two,
                     nullptr,
                     "set ars profile|port ...",
                     {HDR(ArsCmd_set), HDR(ArsCmd_ars2), HDR(ArsCmd_rest), nullptr}};
Inst<3> inst_show_ars{ars_two,
                      nullptr,
                      "show ars nhg <id>|quality [json]",
                      {HDR(ArsCmd_show), HDR(ArsCmd_ars2), HDR(ArsCmd_rest), nullptr}};
Inst<2> inst_ars_object{
    ars_one, nullptr, "ars object add|del ...", {HDR(ArsCmd_ars1), HDR(ArsCmd_rest), nullptr}};
Inst<2> inst_ars_words{ars_one,
                       nullptr,
                       "lag ... | acl ... | monitor start|stop",
                       {HDR(ArsCmd_word1), HDR(ArsCmd_rest), nullptr}};

// ---- quit, help, and everything else ----
struct WordCmd {
    cmdline_fixed_string_t word;
};
TOK_STR(WordCmd, word, "quit#exit");
static cmdline_parse_token_string_t WordCmd_help = TOKEN_STRING_INITIALIZER(WordCmd, word, "help");
void quit_cmd(void *, struct cmdline *cl, void *) {
    g_ctx->quit = true;
    cmdline_quit(cl);
}
void help_cmd(void *, struct cmdline *cl, void *) {
    cmdline_printf(cl, "%s", kUsage);
}
Inst<1> inst_quit{quit_cmd, nullptr, "quit", {HDR(WordCmd_word), nullptr}};
Inst<1> inst_help{help_cmd, nullptr, "help", {HDR(WordCmd_help), nullptr}};

template <std::size_t N>
cmdline_parse_inst_t *as_inst(Inst<N> &i) {
    return reinterpret_cast<cmdline_parse_inst_t *>(&i);
}

cmdline_parse_ctx_t g_commands[] = {
    as_inst(inst_route_add),
    as_inst(inst_route_del),
    as_inst(inst_nhg_add),
    as_inst(inst_nhg_del),
    as_inst(inst_neigh_add),
    as_inst(inst_neigh_del),
    as_inst(inst_lft_set),
    as_inst(inst_lft_del),
    as_inst(inst_mft_set),
    as_inst(inst_mft_del),
    as_inst(inst_sl2vl),
    as_inst(inst_show_port),
    as_inst(inst_show),
    as_inst(inst_port),
    as_inst(inst_link),
    as_inst(inst_quit),
    as_inst(inst_help),
    as_inst(inst_nhg_add_ars),
    as_inst(inst_set_ars),
    as_inst(inst_show_ars),
    as_inst(inst_ars_object),
    as_inst(inst_ars_words),
    as_inst(inst_show_port_json),
    as_inst(inst_show_json),
    nullptr,
};

}  // namespace

cmdline_parse_ctx_t *command_set(CommandContext &ctx) {
    g_ctx = &ctx;
    return g_commands;
}

bool run_line(CommandContext &ctx, struct cmdline *cl, const std::string &line) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') return true;
    // cmdline_parse expects a whole input line, newline included.
    const int rc = cmdline_parse(cl, (line + "\n").c_str());
    if (rc >= 0) return true;  // success: the length parsed
    ++ctx.errors;
    const char *why = rc == CMDLINE_PARSE_AMBIGUOUS  ? "ambiguous command"
                      : rc == CMDLINE_PARSE_BAD_ARGS ? "bad arguments"
                                                     : "unknown command";
    cmdline_printf(cl, "error: %s: %s\n%s", why, line.c_str(), kUsage);
    return false;
}

bool commit(CommandContext &ctx, struct cmdline *cl) {
    try {
        ctx.dp->publisher().publish(ctx.fib->build());
        return true;
    } catch (const std::exception &e) {
        ++ctx.errors;
        if (cl != nullptr) cmdline_printf(cl, "error: cannot publish tables: %s\n", e.what());
        return false;
    }
}

void print_port_stats(const CommandContext &ctx, struct cmdline *cl) {
    const auto counters = ctx.dp->counters();
    for (std::uint16_t p = 0; p < ctx.dp->num_ports(); ++p) {
        const dp::PortTotals t = dp::sum_port(counters, p);
        const dp::PortStatus st = ctx.dp->port_status(p);
        const dp::PortLoad load = ctx.dp->port_load(p);
        char mac[RTE_ETHER_ADDR_FMT_SIZE];
        rte_ether_format_addr(mac, sizeof mac, &st.mac);
        cmdline_printf(
            cl,
            "port %u (%s): %s, link %s, admin %s\n"
            "  rx-packets %llu rx-bytes %llu tx-packets %llu tx-bytes %llu tx-dropped %llu backlog-bytes "
            "%llu (%s)\n",
            p, mac, st.started ? "started" : "stopped", st.link_up ? "up" : "down",
            st.admin_up ? "up" : "down", static_cast<unsigned long long>(t.rx_pkts),
            static_cast<unsigned long long>(t.rx_bytes), static_cast<unsigned long long>(t.tx_pkts),
            static_cast<unsigned long long>(t.tx_bytes), static_cast<unsigned long long>(t.tx_dropped),
            static_cast<unsigned long long>(load.backlog_bytes), load.backlog_from_nic ? "nic" : "weft");
    }
    const dp::Totals t = dp::sum_totals(counters);
    cmdline_printf(cl, "total: rx-packets %llu forwarded %llu replicas %llu dropped %llu\n",
                   static_cast<unsigned long long>(t.rx_pkts), static_cast<unsigned long long>(t.fwd_pkts),
                   static_cast<unsigned long long>(t.replicas), static_cast<unsigned long long>(t.dropped()));
    for (std::size_t i = 1; i < dp::kDropReasonCount; ++i)
        if (t.drops[i] != 0)
            cmdline_printf(cl, "  drop %s %llu\n", dp::drop_reason_name(static_cast<dp::DropReason>(i)),
                           static_cast<unsigned long long>(t.drops[i]));
}

}  // namespace weft::app
