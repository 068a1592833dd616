// show running-config | save running-config <file>: the commands that rebuild the state the
// command set can change, in an order where each refers only to what comes before it
// (neighbours before the groups that use them, ARS objects and LAGs before ARS groups, groups
// before routes and LFT entries). `weft ... -- --cmdline-file <file>` replays it.
#include <cmdline.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_internal.hpp"
#include "config_text.hpp"
#include "fpm_cli.hpp"
#include "fpm_rib.hpp"
#include "weft/control/fabric/switch_agent.hpp"
#include "weft/control/fib/dragonfly_groups.hpp"
#include "weft/control/lcp/linux_cp.hpp"
#include "weft/dataplane/fib_builder.hpp"
#include "weft/dataplane/fib_snapshot.hpp"
#include "weft/dataplane/limits.hpp"
#include "weft_build_info.h"

namespace weft::control::cli {

namespace dp = weft::dataplane;

namespace {

std::string hex4(unsigned v) {
    char s[8];
    std::snprintf(s, sizeof s, "0x%04x", v);
    return s;
}

// Default SL2VL of a fresh FIB builder: SL n -> VL n, SL 15 -> VL 0.
std::uint8_t default_vl(unsigned sl) {
    return static_cast<std::uint8_t>(sl == 15 ? 0 : sl);
}

bool fabric_owned_object(const CommandContext &ctx, std::uint16_t id) {
    return ctx.sma != nullptr && ctx.sma->publisher().ethernet().created_objects().count(id) != 0;
}

bool sm_programmed(const CommandContext &ctx) {
    if (ctx.sma == nullptr) return false;
    const fabric::TablePublisherCounters &c = ctx.sma->publisher().counters();
    return c.lft_blocks + c.mft_blocks + c.sl2vl_tables != 0;
}

std::string running_config(CommandContext &ctx) {
    std::ostringstream out;
    out << "# weft " << WEFT_VERSION << " running-config: replay with --cmdline-file\n";

    out << "# neighbours (not those the kernel mirror learned)\n";
    for (const auto &[key, n] : ctx.fib->neighbours()) {
        if (ctx.lcp != nullptr && ctx.lcp->learned(key)) continue;  // the kernel's: it tells them again
        char mac[RTE_ETHER_ADDR_FMT_SIZE];
        rte_ether_format_addr(mac, sizeof mac, &n.mac);
        out << "neigh add " << key.ip.to_string() << " " << mac << " port " << n.port << "\n";
    }

    out << "# ARS profile\n";
    const ars::Profile &p = ctx.ars.profile;
    out << "set ars profile sampling-interval " << p.sampling_interval_us << "\n"
        << "set ars profile seed " << p.random_seed << "\n"
        << "set ars profile past-weight " << unsigned{p.past_load_weight} << "\n"
        << "set ars profile future-weight " << unsigned{p.future_load_weight} << "\n"
        << "set ars profile ewma-exponent " << unsigned{p.ewma_exponent} << "\n"
        << "set ars profile past-load " << (p.past_load_enabled ? "on" : "off") << "\n"
        << "set ars profile future-load " << (p.future_load_enabled ? "on" : "off") << "\n"
        << "set ars profile current-load " << (p.current_load_enabled ? "on" : "off") << "\n";
    for (std::size_t b = 0; b < p.bands.size(); ++b)
        out << "set ars profile band " << b << " " << p.bands[b].min_mbps << " " << p.bands[b].max_mbps
            << "\n";

    out << "# ARS ports (settings other than the defaults)\n";
    const ars::PortConfig defaults;
    for (const auto &[id, pc] : ctx.ars.ports) {
        if (pc.ars_enabled != defaults.ars_enabled)
            out << "set ars port " << id << (pc.ars_enabled ? " enable" : " disable") << "\n";
        if (pc.scale_tenths != defaults.scale_tenths)
            out << "set ars port " << id << " scale " << pc.scale_tenths << "\n";
        if (pc.past_weight_percent != defaults.past_weight_percent ||
            pc.future_weight_percent != defaults.future_weight_percent)
            out << "set ars port " << id << " weights " << unsigned{pc.past_weight_percent} << " "
                << unsigned{pc.future_weight_percent} << "\n";
    }

    out << "# ARS objects (not those made for the SM's groups)\n";
    for (const auto &[id, o] : ctx.ars.objects)
        if (!fabric_owned_object(ctx, id)) out << "ars object add " << object_words(o) << "\n";
    out << "# LAGs\n";
    for (const auto &[id, l] : ctx.ars.lags) out << "lag add " << lag_words(l) << "\n";

    out << "# next-hop groups (the SM's and zebra's are their own: not saved)\n";
    for (const auto &[id, spec] : ctx.fib->nhgs()) {
        if (fabric::is_fabric_nhg(id) || id >= fpm::kFpmNhgFirst || lcp::is_linux_cp_nhg(id) ||
            fib::is_policy_nhg(id))
            continue;
        if (spec.mode == dp::NhgMode::Ars) {
            const auto it = ctx.ars.nhgs.find(id);
            if (it != ctx.ars.nhgs.end()) out << "nhg add " << nhg_ars_words(it->second) << "\n";
            continue;
        }
        out << "nhg add " << id << " ports";
        for (const dp::NhgMemberSpec &m : spec.members)
            out << " " << m.port << (m.via ? "@" + m.via->to_string() : "")
                << (m.weight != 1 ? "*" + std::to_string(m.weight) : "");
        out << "\n";
    }

    out << "# routes\n";
    for (const auto &[prefix, nhg] : ctx.fib->sorted_routes())
        if (!fabric::is_fabric_nhg(nhg) && nhg < fpm::kFpmNhgFirst && !lcp::is_linux_cp_nhg(nhg) &&
            !fib::is_policy_nhg(nhg))
            out << "route add " << prefix.to_string() << " nhg " << nhg << "\n";

    const dp::FibSnapshot *s = ctx.dp->publisher().current();
    std::map<std::uint32_t, std::uint32_t> id_of;  // NHG index -> id
    for (const auto &[id, spec] : ctx.fib->nhgs()) id_of[*ctx.fib->nhg_index(id)] = id;
    // Tables an SM programmed are the SM's to program again, not part of this switch's config.
    if (sm_programmed(ctx)) {
        out << "# LFT, MFT and SL2VL: programmed by the SM (not saved)\n";
    } else {
        out << "# LFT\n";
        for (const auto &[lid, t] : s->lft_entries()) {
            if (t.kind == dp::LftTarget::Kind::Port)
                out << "lft set " << hex4(lid) << " port " << t.value << "\n";
            if (t.kind == dp::LftTarget::Kind::Nhg && id_of.count(t.value) != 0)
                out << "lft set " << hex4(lid) << " nhg " << id_of[t.value] << "\n";
        }
        out << "# MFT\n";
        for (std::uint32_t mlid = dp::kFirstMulticastLid; mlid <= dp::kLastMulticastLid; ++mlid) {
            const dp::PortMask &mask = s->mft(static_cast<std::uint16_t>(mlid));
            if (mask.none()) continue;
            out << "mft set " << hex4(mlid) << " ports";
            mask.for_each([&](std::uint16_t port) { out << " " << port; });
            out << "\n";
        }
        out << "# SL2VL (entries other than SL n -> VL n, SL 15 -> VL 0)\n";
        for (std::uint16_t port = 0; port < ctx.dp->num_ports(); ++port)
            for (std::uint8_t sl = 0; sl < dp::kNumSl; ++sl)
                if (s->sl2vl(port, sl) != default_vl(sl))
                    out << "sl2vl set port " << port << " sl " << unsigned{sl} << " vl "
                        << unsigned{s->sl2vl(port, sl)} << "\n";
    }

    out << "# ACL rules, in the order given\n";
    for (const ars::AclRule &r : ctx.ars.acl) out << "acl add " << acl_words(r) << "\n";

    out << "# monitoring\n";
    if (ctx.ars.monitor) out << "monitor start\n";
    const dp::CaptureStats capture = ctx.dp->capture().stats();
    if (capture.active) out << "# a capture runs into " << one_line(capture.path) << " (not replayed)\n";

    out << fabric_running_config(ctx);
    out << "# FPM server (zebra's routes are zebra's: not saved)\n" << fpm_running_config(ctx);
    out << arn_running_config(ctx);
    out << "# ports\n";
    for (std::uint16_t port = 0; port < ctx.dp->num_ports(); ++port) {
        const dp::PortStatus st = ctx.dp->port_status(port);
        if (!st.admin_up) out << "set link-down port " << port << "\n";
        if (!st.started) out << "port stop " << port << "\n";
    }
    return out.str();
}

struct RunningCmd {
    cmdline_fixed_string_t verb, what, path;
};
WEFT_TOK_STR(RunningCmd, verb, "show");
WEFT_TOK_STR(RunningCmd, what, "running-config");
static cmdline_parse_token_string_t RunningCmd_save = TOKEN_STRING_INITIALIZER(RunningCmd, verb, "save");
static cmdline_parse_token_string_t RunningCmd_saved =
    TOKEN_STRING_INITIALIZER(RunningCmd, what, "running-config#config");
WEFT_TOK_STR(RunningCmd, path, nullptr);

void show_running(void *, struct cmdline *cl, void *data) {
    cmdline_printf(cl, "%s", running_config(context_of(data)).c_str());
}
void save_running(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const std::string path = static_cast<RunningCmd *>(res)->path;
    const std::string text = running_config(ctx);
    std::ofstream f(path, std::ios::trunc);
    f << text;
    f.close();
    if (!f) return refuse(ctx, cl, "cannot write " + one_line(path));
    cmdline_printf(cl, "saved the running-config to %s (%zu lines)\n", one_line(path).c_str(),
                   static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')));
}
Inst<2> inst_show_running{show_running,
                          nullptr,
                          "show running-config",
                          {WEFT_HDR(RunningCmd_verb), WEFT_HDR(RunningCmd_what), nullptr}};
Inst<3> inst_save_running{
    save_running,
    nullptr,
    "save running-config <file>   (save config <file> does the same)",
    {WEFT_HDR(RunningCmd_save), WEFT_HDR(RunningCmd_saved), WEFT_HDR(RunningCmd_path), nullptr}};

}  // namespace

InstList running_config_commands() {
    return {as_inst(inst_show_running), as_inst(inst_save_running)};
}

}  // namespace weft::control::cli
