// The switch's SMA in the command set: which ports take SMPs (port <p> fabric on|off), the host
// ports' subnets the SM learns (port <p> ip [del] <addr>/<len>), and show sma [json]: the node,
// each port's fabric flag, link, IB state and control TX queue, SMPs in and out, drops by reason,
// M_Key violations, traps, and what the SM's changes did to the published tables. CLI ports are
// dataplane ports; the SMA's IB port is one more.
#include <cmdline.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "cli_internal.hpp"
#include "weft/control/arn_apply.hpp"
#include "weft/control/fabric/ethernet_fib.hpp"
#include "weft/control/fabric/switch_agent.hpp"
#include "weft/control/fib/dragonfly_groups.hpp"
#include "weft/control/lcp/linux_cp.hpp"
#include "weft/sm/iboe_frame_error.hpp"

namespace weft::control::cli {

namespace dp = weft::dataplane;
namespace fb = weft::control::fabric;

bool fabric_nhg_refused(CommandContext &ctx, struct cmdline *cl, std::uint32_t id) {
    if (fib::is_policy_nhg(id)) {
        refuse(ctx, cl,
               "nhg " + std::to_string(id) + ": ids " + std::to_string(fib::kPolicyNhgFirst) + ".." +
                   std::to_string(fib::kPolicyNhgEnd - 1) + " are the dragonfly policy's (fpm policy)");
        return true;
    }
    if (!fb::is_fabric_nhg(id)) return false;
    refuse(ctx, cl,
           "nhg " + std::to_string(id) + ": ids " + std::to_string(fb::kFabricNhgFirst) + ".." +
               std::to_string(fb::kFabricNhgEnd - 1) + " are the fabric's (the SM's groups)");
    return true;
}

namespace {

std::string address_text(const fb::HostAddress &a) {
    return a.addr.to_string() + "/" + std::to_string(a.len);
}

}  // namespace

std::string fabric_running_config(const CommandContext &ctx) {
    std::ostringstream out;
    if (ctx.sma == nullptr) return "";
    out << "# subnet management: fabric ports, host subnets\n";
    for (std::uint16_t p = 0; p < ctx.dp->num_ports(); ++p)
        out << "port " << p << " fabric " << (ctx.sma->fabric_port(p) ? "on" : "off") << "\n";
    if (ctx.lcp != nullptr) {
        out << "# host subnets: the kernel's addresses on the mirror's interfaces (ip addr)\n";
        return out.str();
    }
    for (const fb::HostAddress &a : ctx.sma->host_addresses())
        out << "port " << a.port << " ip " << address_text(a) << "\n";
    return out.str();
}

namespace {

const char *state_name(sm::PortState s) {
    switch (s) {
        case sm::PortState::kDown:
            return "Down";
        case sm::PortState::kInit:
            return "Init";
        case sm::PortState::kArmed:
            return "Armed";
        case sm::PortState::kActive:
            return "Active";
        default:
            return "?";
    }
}

std::string hex64(std::uint64_t v) {
    char s[24];
    std::snprintf(s, sizeof s, "0x%016llx", static_cast<unsigned long long>(v));
    return s;
}

bool have_sma(CommandContext &ctx, struct cmdline *cl) {
    if (ctx.sma != nullptr) return true;
    refuse(ctx, cl, "this weft runs no SMA");
    return false;
}

// ---- port <p> fabric on|off ----
struct FabricCmd {
    cmdline_fixed_string_t port_kw;
    uint16_t port;
    cmdline_fixed_string_t fabric, onoff;
};
WEFT_TOK_STR(FabricCmd, port_kw, "port");
WEFT_TOK_NUM(FabricCmd, port, RTE_UINT16);
WEFT_TOK_STR(FabricCmd, fabric, "fabric");
WEFT_TOK_STR(FabricCmd, onoff, "on#off");
void fabric_cmd(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<FabricCmd *>(res);
    if (!have_sma(ctx, cl)) return;
    if (r->port >= ctx.dp->num_ports()) return refuse(ctx, cl, "no port " + std::to_string(r->port));
    const bool on = std::string(r->onoff) == "on";
    // With the mirror, the kernel's addresses on a fabric port are its link's, not host subnets.
    if (on && ctx.lcp == nullptr)
        for (const fb::HostAddress &a : ctx.sma->host_addresses())
            if (a.port == r->port)
                return refuse(ctx, cl,
                              "port " + std::to_string(r->port) + " has host address " + address_text(a));
    ctx.sma->set_fabric_port(r->port, on);
    if (ctx.lcp != nullptr) ctx.lcp->sync_host_addresses(r->port);
    refresh_arn(ctx);  // ARN is taken on fabric ports only
    if (on && !ctx.dp->port_status(r->port).control_tx)
        cmdline_printf(cl,
                       "warning: port %u cannot send the control thread's frames: SMPs cannot leave it (see "
                       "show sma)\n",
                       r->port);
}
Inst<4> inst_fabric{fabric_cmd,
                    nullptr,
                    "port <p> fabric on|off",
                    {WEFT_HDR(FabricCmd_port_kw), WEFT_HDR(FabricCmd_port), WEFT_HDR(FabricCmd_fabric),
                     WEFT_HDR(FabricCmd_onoff), nullptr}};

// ---- port <p> ip [del] <addr>/<len> ----
struct IpCmd {
    cmdline_fixed_string_t port_kw;
    uint16_t port;
    cmdline_fixed_string_t ip, del, address;
};
WEFT_TOK_STR(IpCmd, port_kw, "port");
WEFT_TOK_NUM(IpCmd, port, RTE_UINT16);
WEFT_TOK_STR(IpCmd, ip, "ip");
WEFT_TOK_STR(IpCmd, del, "del");
WEFT_TOK_STR(IpCmd, address, nullptr);

std::optional<fb::HostAddress> host_address(CommandContext &ctx, struct cmdline *cl, const IpCmd &r) {
    const std::string text = r.address;
    const auto slash = text.find('/');
    const auto addr = slash == std::string::npos ? std::nullopt : dp::IpAddr::parse(text.substr(0, slash));
    const auto len = addr ? number(text.substr(slash + 1), addr->v6 ? 128 : 32) : std::nullopt;
    if (!addr || !len) {
        refuse(ctx, cl, "bad address " + one_line(text) + " (<ipv4>/<0..32> or <ipv6>/<0..128>)");
        return std::nullopt;
    }
    return fb::HostAddress{r.port, *addr, static_cast<std::uint8_t>(*len)};
}

void ip_cmd(void *res, struct cmdline *cl, void *data, bool del) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<IpCmd *>(res);
    if (!have_sma(ctx, cl)) return;
    const auto a = host_address(ctx, cl, *r);
    if (!a) return;
    if (ctx.lcp != nullptr) {
        // The kernel owns the addresses: it is asked, and its news makes the host address.
        if (!del && ctx.sma->fabric_port(a->port))
            return refuse(ctx, cl, "port " + std::to_string(a->port) + " is a fabric port, not a host port");
        if (auto why = ctx.lcp->request_address(a->port, a->addr, a->len, !del)) return refuse(ctx, cl, *why);
        ctx.lcp->poll();  // its news, now: `show sma` answers with it
        return;
    }
    if (auto why = del ? ctx.sma->del_host_address(*a) : ctx.sma->add_host_address(*a)) refuse(ctx, cl, *why);
}
void ip_add(void *res, struct cmdline *cl, void *data) {
    ip_cmd(res, cl, data, false);
}
void ip_del(void *res, struct cmdline *cl, void *data) {
    ip_cmd(res, cl, data, true);
}
Inst<4> inst_ip_add{
    ip_add,
    nullptr,
    "port <p> ip <addr>/<len>",
    {WEFT_HDR(IpCmd_port_kw), WEFT_HDR(IpCmd_port), WEFT_HDR(IpCmd_ip), WEFT_HDR(IpCmd_address), nullptr}};
Inst<5> inst_ip_del{ip_del,
                    nullptr,
                    "port <p> ip del <addr>/<len>",
                    {WEFT_HDR(IpCmd_port_kw), WEFT_HDR(IpCmd_port), WEFT_HDR(IpCmd_ip), WEFT_HDR(IpCmd_del),
                     WEFT_HDR(IpCmd_address), nullptr}};

// ---- show sma [json] ----
Json sma_record(const CommandContext &ctx) {
    const fb::SwitchAgent &a = *ctx.sma;
    const sm::Sma &sma = a.sma();
    const sm::PortInfo &p0 = sma.port_info(0);
    Json ports = Json::array();
    for (std::uint16_t p = 0; p < ctx.dp->num_ports(); ++p) {
        const sm::PortInfo &pi = sma.port_info(static_cast<sm::PortNum>(p + 1));
        const dp::ControlTxTotals tx = ctx.dp->control_tx(p);
        ports.push_back(Json{{"port", p},
                             {"ib_port", p + 1},
                             {"fabric", a.fabric_port(p)},
                             {"link_up", sma.link_up(static_cast<sm::PortNum>(p + 1))},
                             {"state", state_name(pi.port_state)},
                             {"control_tx", ctx.dp->port_status(p).control_tx},
                             {"control_tx_queue", ctx.dp->port_status(p).control_tx_queue},
                             {"control_tx_sent", tx.sent},
                             {"control_tx_failed", tx.failed}});
    }
    const sm::SmaCounters &c = sma.counters();
    Json dropped = Json::object();
    for (std::size_t i = 0; i < static_cast<std::size_t>(sm::SmaDrop::kCount); ++i)
        dropped[sm::drop_name(static_cast<sm::SmaDrop>(i))] = c.dropped[i];
    Json malformed = Json::object();
    for (const auto &[field, n] : c.malformed_by_field) malformed[field] = n;
    const sm::SmaFrameCounters &f = a.agent().counters();
    Json refused = Json::object();
    for (std::size_t i = 0; i < sm::kFrameDropCount; ++i)
        if (f.refused.by_reason[i] != 0)
            refused[sm::frame_drop_name(static_cast<sm::FrameDrop>(i))] = f.refused.by_reason[i];
    const fb::TablePublisherCounters &t = a.publisher().counters();
    Json r{{"node_guid", hex64(sma.config().node_guid)},
           {"description", sma.config().description},
           {"lid", p0.lid},
           {"lmc", p0.lmc},
           {"sm_lid", p0.master_sm_lid},
           {"m_key_protect", p0.m_key_protect_bits},
           {"ethernet", a.ethernet_mode()},
           {"ports", ports},
           {"smps_in", c.received},
           {"smps_out", f.frames_out},
           {"frames_in", f.frames_in},
           {"gets", c.gets},
           {"sets", c.sets},
           {"replies", c.replies},
           {"forwarded", c.forwarded},
           {"to_sm", c.to_sm},
           {"to_sm_unclaimed", a.counters().to_sm_dropped},
           {"unsupported", c.unsupported},
           {"invalid_field", c.invalid_field},
           {"bad_version", c.bad_version},
           {"m_key_violations", c.m_key_violations},
           {"m_key_lease_expiries", c.m_key_lease_expiries},
           {"traps_sent", c.traps_sent},
           {"trap_repeats", c.trap_repeats},
           {"traps_repressed", c.traps_repressed},
           {"dropped", dropped},
           {"dropped_total", c.dropped_total()},
           {"malformed_by_field", malformed},
           {"frames_refused", refused},
           {"gsi_ignored", f.gsi_ignored},
           {"send_failed", f.send_failed},
           {"publications", t.publications},
           {"publish_failures", t.publish_failures},
           {"table_refusals", t.refused},
           {"lft_blocks", t.lft_blocks},
           {"mft_blocks", t.mft_blocks},
           {"sl2vl_tables", t.sl2vl_tables},
           {"sl2vl_in_port_conflicts", t.sl2vl_in_port_conflicts},
           {"sl2vl_drop_entries", t.sl2vl_drop_entries},
           {"ethernet_commits", t.ethernet_commits},
           {"ethernet_failures", t.ethernet_failures},
           {"last_error", a.publisher().last_error()}};
    if (const sm::EthernetAgent *e = sma.ethernet()) {
        Json subnets = Json::array();
        for (const sm::HostSubnet &s : e->host_subnets())
            subnets.push_back(Json{{"port", s.port - 1}, {"prefix", s.prefix.to_string()}});
        Json why = Json::object();
        for (std::size_t i = 0; i < sm::kEthernetRefusals; ++i)
            if (e->counters().refused[i] != 0)
                why[sm::refusal_name(static_cast<sm::EthernetRefusal>(i))] = e->counters().refused[i];
        r["ethernet_table"] = Json{{"generation", e->table().generation},
                                   {"groups", e->table().groups.size()},
                                   {"routes", e->table().routes.size()},
                                   {"staging_open", e->staging_open()},
                                   {"host_subnets", subnets},
                                   {"commits", e->counters().commits},
                                   {"refused", why}};
    }
    return r;
}

struct ShowSmaCmd {
    cmdline_fixed_string_t show, sma, json;
};
WEFT_TOK_STR(ShowSmaCmd, show, "show");
WEFT_TOK_STR(ShowSmaCmd, sma, "sma");
WEFT_TOK_STR(ShowSmaCmd, json, "json");

void show_sma(void *, struct cmdline *cl, void *data, bool json) {
    CommandContext &ctx = context_of(data);
    if (!have_sma(ctx, cl)) return;
    const Json r = sma_record(ctx);
    if (json) return print_json(cl, r);
    cmdline_printf(cl, "SMA: node %s \"%s\", LID %s LMC %s, SM LID %s, Ethernet mode %s\n",
                   r["node_guid"].get<std::string>().c_str(),
                   one_line(r["description"].get<std::string>()).c_str(), r["lid"].dump().c_str(),
                   r["lmc"].dump().c_str(), r["sm_lid"].dump().c_str(),
                   r["ethernet"].get<bool>() ? "on" : "off");
    cmdline_printf(cl, "%-5s %-7s %-6s %-7s %s\n", "port", "fabric", "link", "state",
                   "control-tx (sent/failed)");
    for (const Json &p : r["ports"])
        cmdline_printf(
            cl, "%-5s %-7s %-6s %-7s %s\n", p["port"].dump().c_str(), p["fabric"].get<bool>() ? "yes" : "no",
            p["link_up"].get<bool>() ? "up" : "down", p["state"].get<std::string>().c_str(),
            p["control_tx"].get<bool>() ? (p["control_tx_sent"].dump() + "/" + p["control_tx_failed"].dump() +
                                           (p["control_tx_queue"].get<bool>() ? "" : " via worker 0"))
                                              .c_str()
                                        : "none");
    cmdline_printf(cl, "SMPs in %s out %s (gets %s, sets %s, replies %s, forwarded %s, to the SM %s)\n",
                   r["smps_in"].dump().c_str(), r["smps_out"].dump().c_str(), r["gets"].dump().c_str(),
                   r["sets"].dump().c_str(), r["replies"].dump().c_str(), r["forwarded"].dump().c_str(),
                   r["to_sm"].dump().c_str());
    cmdline_printf(cl, "M_Key violations %s, traps sent %s (repeats %s, repressed %s)\n",
                   r["m_key_violations"].dump().c_str(), r["traps_sent"].dump().c_str(),
                   r["trap_repeats"].dump().c_str(), r["traps_repressed"].dump().c_str());
    cmdline_printf(cl, "dropped %s:", r["dropped_total"].dump().c_str());
    for (const auto &[why, n] : r["dropped"].items())
        if (n.get<std::uint64_t>() != 0) cmdline_printf(cl, " %s %s", why.c_str(), n.dump().c_str());
    cmdline_printf(cl, "\nframes refused:");
    for (const auto &[why, n] : r["frames_refused"].items())
        cmdline_printf(cl, " %s %s", why.c_str(), n.dump().c_str());
    cmdline_printf(
        cl, "\ntables: %s publications, %s failed, %s changes refused; last error: %s\n",
        r["publications"].dump().c_str(), r["publish_failures"].dump().c_str(),
        r["table_refusals"].dump().c_str(),
        r["last_error"].get<std::string>().empty() ? "none" : r["last_error"].get<std::string>().c_str());
    for (const Json &p : r["ports"])
        if (p["fabric"].get<bool>() && !p["control_tx"].get<bool>())
            cmdline_printf(
                cl,
                "warning: fabric port %s cannot send the control thread's frames: SMPs cannot leave it "
                "(no worker to hand them to)\n",
                p["port"].dump().c_str());
}
void show_sma_text(void *res, struct cmdline *cl, void *data) {
    show_sma(res, cl, data, false);
}
void show_sma_json(void *res, struct cmdline *cl, void *data) {
    show_sma(res, cl, data, true);
}
Inst<2> inst_show_sma{
    show_sma_text, nullptr, "show sma", {WEFT_HDR(ShowSmaCmd_show), WEFT_HDR(ShowSmaCmd_sma), nullptr}};
Inst<3> inst_show_sma_json{
    show_sma_json,
    nullptr,
    "show sma json",
    {WEFT_HDR(ShowSmaCmd_show), WEFT_HDR(ShowSmaCmd_sma), WEFT_HDR(ShowSmaCmd_json), nullptr}};

}  // namespace

InstList fabric_commands() {
    return {as_inst(inst_fabric), as_inst(inst_ip_add), as_inst(inst_ip_del), as_inst(inst_show_sma),
            as_inst(inst_show_sma_json)};
}

}  // namespace weft::control::cli
