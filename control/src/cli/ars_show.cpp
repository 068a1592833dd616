// The ARS shows: show ars nhg <id>|all, show ars quality, show ars object, show ars profile,
// show ars port, show lag and show acl, each as text or `json`. Every object is one record
// (nlohmann JSON) that both forms print.
#include <cmdline.h>

#include <string>
#include <tuple>

#include "cli_internal.hpp"
#include "config_text.hpp"
#include "weft/ars/worker.hpp"
#include "weft/dataplane/counters.hpp"

namespace weft::control::cli {

namespace dp = weft::dataplane;

namespace {

constexpr const char *kDecisionKeys[] = {"decisions_flowlet_quality", "decisions_flowlet_random",
                                         "decisions_per_packet_quality", "decisions_per_packet_random",
                                         "decisions_fixed"};

Json counters_record(const ars::CounterValues &v) {
    Json c{{"packet_drops", v.packet_drops},
           {"next_hop_reassignments", v.next_hop_reassignments},
           {"port_reassignments", v.port_reassignments},
           {"link_down_reassignments", v.link_down_reassignments},
           {"static_hash_decisions", v.static_hash_decisions}};
    for (int m = 0; m < ars::kModeCount; ++m) c[kDecisionKeys[m]] = v.decisions[static_cast<std::size_t>(m)];
    return c;
}

std::string counters_text(const Json &c) {
    std::string out = "drops " + c["packet_drops"].dump() + " nh-reassignments " +
                      c["next_hop_reassignments"].dump() + " port-reassignments " +
                      c["port_reassignments"].dump() + " link-down-reassignments " +
                      c["link_down_reassignments"].dump() + " static-hash " +
                      c["static_hash_decisions"].dump() + "\n  decisions:";
    for (const char *k : kDecisionKeys) out += std::string(" ") + (k + 10) + " " + c[k].dump();
    return out;
}

// ---- show ars nhg <id>|all [json] ----
Json nhg_record(CommandContext &ctx, std::uint32_t id, const ars::SelectionGroup &g) {
    const ars::Config &c = *ctx.ars_config;
    const ars::PortBoard &board = ctx.dp->ars_board();
    std::uint64_t pkts = 0, bytes = 0;
    if (const auto index = ctx.fib->nhg_index(id))
        std::tie(pkts, bytes) = ctx.stats.nhg(ctx.dp->counters(), id, *index);
    const ars::ArsObjectRuntime *o = c.ars_object(g.ars_object);
    Json members = Json::array();
    for (std::size_t i = 0; i < g.members.size(); ++i) {
        const ars::GroupMember &m = g.members[i];
        const bool port = m.target.kind == ars::EgressTarget::Kind::kPort;
        bool link = port && board.link_up(m.target.id);
        if (!port)
            for (std::uint16_t p : ctx.ars.lags.at(m.target.id).ports) link = link || board.link_up(p);
        Json j{{"index", i},
               {"role", i < g.primary_count ? "primary" : "alternate"},
               {port ? "port" : "lag", m.target.id},
               {"usable", m.usable},
               {"link_up", link},
               {"quality", port ? board.port_quality(m.target.id) : board.lag_quality(m.target.id)}};
        // ARN's band for the path beyond the port: the member counts with the lower of the two.
        if (m.remote_slot < board.remote_slot_count())
            j["remote_quality"] = board.remote_quality(m.remote_slot);
        members.push_back(std::move(j));
    }
    Json counters{{"packets", pkts}, {"bytes", bytes}};
    counters.update(
        counters_record(ctx.stats.ars_nhg(ctx.dp->ars_workers(), id)));  // since `clear nhg stats`
    return Json{{"nhg", id},
                {"ars_object", g.ars_object == ars::kNoArsObject ? -1 : static_cast<int>(g.ars_object)},
                {"mode", o != nullptr ? std::string(ars::to_string(o->mode)) : "static-hash"},
                {"threshold", g.path_selection.primary_quality_threshold},
                {"cost", g.path_selection.alternate_cost},
                {"bias", g.path_selection.alternate_bias},
                {"members", members},
                {"counters", counters}};
}

void print_nhg_text(struct cmdline *cl, const Json &r) {
    cmdline_printf(cl, "ars nhg %s: object %s, mode %s, threshold %s cost %s bias %s\n",
                   r["nhg"].dump().c_str(), r["ars_object"] == -1 ? "none" : r["ars_object"].dump().c_str(),
                   r["mode"].get<std::string>().c_str(), r["threshold"].dump().c_str(),
                   r["cost"].dump().c_str(), r["bias"].dump().c_str());
    for (const Json &m : r["members"]) {
        const bool port = m.contains("port");
        cmdline_printf(cl, "  member %s %-9s %s %s  quality %s  link %s%s\n", m["index"].dump().c_str(),
                       m["role"].get<std::string>().c_str(), port ? "port" : "lag",
                       m[port ? "port" : "lag"].dump().c_str(), m["quality"].dump().c_str(),
                       m["link_up"].get<bool>() ? "up" : "down",
                       m["usable"].get<bool>() ? "" : "  (not usable: admin down or ARS off)");
    }
    const Json &c = r["counters"];
    cmdline_printf(cl, "  packets %s bytes %s %s\n", c["packets"].dump().c_str(), c["bytes"].dump().c_str(),
                   counters_text(c).c_str());
}

struct ShowArsCmd {
    cmdline_fixed_string_t show, ars, what, which, json;
};
WEFT_TOK_STR(ShowArsCmd, show, "show");
WEFT_TOK_STR(ShowArsCmd, ars, "ars");
WEFT_TOK_STR(ShowArsCmd, what, "quality#object#profile#port");
static cmdline_parse_token_string_t ShowArsCmd_nhg = TOKEN_STRING_INITIALIZER(ShowArsCmd, what, "nhg");
WEFT_TOK_STR(ShowArsCmd, which, nullptr);
WEFT_TOK_STR(ShowArsCmd, json, "json");

void show_nhg(CommandContext &ctx, struct cmdline *cl, const std::string &which, bool json) {
    const ars::Config *c = ctx.ars_config.get();
    Json records = Json::array();
    if (which == "all") {
        for (const auto &[id, n] : ctx.ars.nhgs)
            if (const ars::SelectionGroup *g = c != nullptr ? c->nhg(id) : nullptr)
                records.push_back(nhg_record(ctx, id, *g));
    } else {
        const auto id = number(which, 0xFFFFFFFFu);
        const ars::SelectionGroup *g = id && c != nullptr ? c->nhg(static_cast<std::uint32_t>(*id)) : nullptr;
        if (g == nullptr) return refuse(ctx, cl, "no ARS nhg " + which);
        const Json r = nhg_record(ctx, static_cast<std::uint32_t>(*id), *g);
        return json ? print_json(cl, r) : print_nhg_text(cl, r);
    }
    if (json) return print_json(cl, Json{{"nhgs", records}});
    for (const Json &r : records) print_nhg_text(cl, r);
}
void show_nhg_text(void *res, struct cmdline *cl, void *data) {
    show_nhg(context_of(data), cl, static_cast<ShowArsCmd *>(res)->which, false);
}
void show_nhg_json(void *res, struct cmdline *cl, void *data) {
    show_nhg(context_of(data), cl, static_cast<ShowArsCmd *>(res)->which, true);
}

// ---- show ars quality [json] ----
void show_quality(CommandContext &ctx, struct cmdline *cl, bool json) {
    if (ctx.sampler == nullptr) return refuse(ctx, cl, "no quality sampler");
    const auto ports = ctx.sampler->ports();
    Json records = Json::array();
    for (std::size_t p = 0; p < ports.size(); ++p) {
        const dp::ArsPortQuality &q = ports[p];
        records.push_back(Json{{"port", p},
                               {"past_mbps", q.load.past_mbps},
                               {"future_mbps", q.load.future_mbps},
                               {"combined_mbps", q.load.combined_mbps},
                               {"scaled_mbps", q.load.scaled_mbps},
                               {"quality", q.band},
                               {"link_up", q.link_up},
                               {"tx_bytes", q.tx_bytes},
                               {"backlog_bytes", q.backlog_bytes}});
    }
    const std::uint64_t rounds = ctx.sampler->rounds();
    if (json) return print_json(cl, Json{{"rounds", rounds}, {"ports", records}});
    for (const Json &q : records)
        cmdline_printf(
            cl,
            "port %s: past %s Mbps future %s Mbps combined %s scaled %s quality %s link %s tx-bytes %s "
            "backlog %s\n",
            q["port"].dump().c_str(), q["past_mbps"].dump().c_str(), q["future_mbps"].dump().c_str(),
            q["combined_mbps"].dump().c_str(), q["scaled_mbps"].dump().c_str(), q["quality"].dump().c_str(),
            q["link_up"].get<bool>() ? "up" : "down", q["tx_bytes"].dump().c_str(),
            q["backlog_bytes"].dump().c_str());
    cmdline_printf(cl, "%llu sampling rounds\n", ull(rounds));
}

// ---- show ars object [json] ----
void show_objects(CommandContext &ctx, struct cmdline *cl, bool json) {
    Json records = Json::array();
    for (const auto &[id, o] : ctx.ars.objects)
        records.push_back(Json{{"id", id},
                               {"mode", mode_word(o.mode)},
                               {"idle_time_us", o.idle_time_us},
                               {"max_flows", o.max_flows},
                               {"monitor", o.monitoring}});
    if (json) return print_json(cl, Json{{"objects", records}});
    for (const auto &[id, o] : ctx.ars.objects)
        cmdline_printf(cl, "ars object %s\n", object_words(o).c_str());
    cmdline_printf(cl, "%zu ARS objects\n", ctx.ars.objects.size());
}

// ---- show ars profile [json] ----
void show_profile(CommandContext &ctx, struct cmdline *cl, bool json) {
    const ars::Profile &p = ctx.ars.profile;
    Json bands = Json::array();
    for (std::size_t b = 0; b < p.bands.size(); ++b)
        bands.push_back(
            Json{{"band", b}, {"min_mbps", p.bands[b].min_mbps}, {"max_mbps", p.bands[b].max_mbps}});
    const Json r{{"sampling_interval_us", p.sampling_interval_us},
                 {"seed", p.random_seed},
                 {"past_load", p.past_load_enabled},
                 {"past_weight", p.past_load_weight},
                 {"future_load", p.future_load_enabled},
                 {"future_weight", p.future_load_weight},
                 {"current_load", p.current_load_enabled},
                 {"ewma_exponent", p.ewma_exponent},
                 {"bands", bands}};
    if (json) return print_json(cl, r);
    cmdline_printf(
        cl,
        "ars profile: sampling-interval %u us, seed %u, past-load %s weight %u, future-load %s weight %u, "
        "current-load %s, ewma-exponent %u\n",
        p.sampling_interval_us, p.random_seed, p.past_load_enabled ? "on" : "off", p.past_load_weight,
        p.future_load_enabled ? "on" : "off", p.future_load_weight, p.current_load_enabled ? "on" : "off",
        p.ewma_exponent);
    for (const Json &b : bands)
        cmdline_printf(cl, "  band %s: %s..%s Mbps\n", b["band"].dump().c_str(), b["min_mbps"].dump().c_str(),
                       b["max_mbps"].dump().c_str());
}

// ---- show ars port [json] ----
void show_ars_ports(CommandContext &ctx, struct cmdline *cl, bool json) {
    Json records = Json::array();
    for (const auto &[id, pc] : ctx.ars.ports)
        records.push_back(Json{{"port", id},
                               {"ars", pc.ars_enabled},
                               {"scale_tenths", pc.scale_tenths},
                               {"past_weight_percent", pc.past_weight_percent},
                               {"future_weight_percent", pc.future_weight_percent}});
    if (json) return print_json(cl, Json{{"ports", records}});
    for (const auto &[id, pc] : ctx.ars.ports)
        cmdline_printf(cl, "ars port %u: %s, scale %u tenths, weights past %u%% future %u%%\n", id,
                       pc.ars_enabled ? "enabled" : "disabled", pc.scale_tenths, pc.past_weight_percent,
                       pc.future_weight_percent);
}

void show_ars(void *res, struct cmdline *cl, void *data, bool json) {
    CommandContext &ctx = context_of(data);
    const std::string what = static_cast<ShowArsCmd *>(res)->what;
    if (what == "quality") return show_quality(ctx, cl, json);
    if (what == "object") return show_objects(ctx, cl, json);
    if (what == "profile") return show_profile(ctx, cl, json);
    show_ars_ports(ctx, cl, json);
}
void show_ars_text(void *res, struct cmdline *cl, void *data) {
    show_ars(res, cl, data, false);
}
void show_ars_json(void *res, struct cmdline *cl, void *data) {
    show_ars(res, cl, data, true);
}

Inst<4> inst_show_nhg{show_nhg_text,
                      nullptr,
                      "show ars nhg <id>|all",
                      {WEFT_HDR(ShowArsCmd_show), WEFT_HDR(ShowArsCmd_ars), WEFT_HDR(ShowArsCmd_nhg),
                       WEFT_HDR(ShowArsCmd_which), nullptr}};
Inst<5> inst_show_nhg_json{show_nhg_json,
                           nullptr,
                           "show ars nhg <id>|all json",
                           {WEFT_HDR(ShowArsCmd_show), WEFT_HDR(ShowArsCmd_ars), WEFT_HDR(ShowArsCmd_nhg),
                            WEFT_HDR(ShowArsCmd_which), WEFT_HDR(ShowArsCmd_json), nullptr}};
Inst<3> inst_show_ars{
    show_ars_text,
    nullptr,
    "show ars quality|object|profile|port",
    {WEFT_HDR(ShowArsCmd_show), WEFT_HDR(ShowArsCmd_ars), WEFT_HDR(ShowArsCmd_what), nullptr}};
Inst<4> inst_show_ars_json{show_ars_json,
                           nullptr,
                           "show ars quality|object|profile|port json",
                           {WEFT_HDR(ShowArsCmd_show), WEFT_HDR(ShowArsCmd_ars), WEFT_HDR(ShowArsCmd_what),
                            WEFT_HDR(ShowArsCmd_json), nullptr}};

// ---- show lag [json] | show acl [json] ----
void show_lags(CommandContext &ctx, struct cmdline *cl, bool json) {
    const auto workers = ctx.dp->ars_workers();
    const ars::PortBoard &board = ctx.dp->ars_board();
    Json records = Json::array();
    for (const auto &[id, l] : ctx.ars.lags) {
        Json r{{"id", id},
               {"ports", l.ports},
               {"ars_object", l.ars_object == ars::kNoArsObject ? Json() : Json(l.ars_object)},
               {"quality", board.lag_quality(id)},
               {"counters", counters_record(ars::sum_lag_counters(workers, id))}};
        if (!json)
            cmdline_printf(cl, "lag %s  quality %s\n  %s\n", lag_words(l).c_str(),
                           r["quality"].dump().c_str(), counters_text(r["counters"]).c_str());
        records.push_back(std::move(r));
    }
    if (json) return print_json(cl, Json{{"lags", records}});
    cmdline_printf(cl, "%zu LAGs\n", ctx.ars.lags.size());
}

Json acl_record(const ars::AclRule &rule) {
    const ars::AclMatch &m = rule.match;
    Json match = Json::object();
    if (m.ether_type) match["ethertype"] = *m.ether_type;
    if (m.ip_version) match["ip_version"] = *m.ip_version;
    if (m.ip_protocol) match["proto"] = *m.ip_protocol;
    if (m.l4_src_ports)
        match["sport"] = Json{{"first", m.l4_src_ports->first}, {"last", m.l4_src_ports->last}};
    if (m.l4_dst_ports)
        match["dport"] = Json{{"first", m.l4_dst_ports->first}, {"last", m.l4_dst_ports->last}};
    if (m.dscp_set) {
        Json dscp = Json::array();
        for (unsigned d = 0; d < 64; ++d)
            if (((*m.dscp_set >> d) & 1) != 0) dscp.push_back(d);
        match["dscp"] = dscp;
    }
    const ars::AclAction &a = rule.action;
    return Json{{"priority", rule.priority},
                {"match", match},
                {"action",
                 {{"disable_ars", a.disable_ars},
                  {"set_ars", a.set_ars ? Json(*a.set_ars) : Json()},
                  {"monitor", a.set_monitoring ? Json(*a.set_monitoring) : Json()}}}};
}

void show_acl(CommandContext &ctx, struct cmdline *cl, bool json) {
    Json records = Json::array();
    for (const ars::AclRule &r : ctx.ars.acl) records.push_back(acl_record(r));
    if (json) return print_json(cl, Json{{"rules", records}});
    for (const ars::AclRule &r : ctx.ars.acl) cmdline_printf(cl, "acl %s\n", acl_words(r).c_str());
    cmdline_printf(cl, "%zu ACL rules (higher priority first; equal priorities in the order given)\n",
                   ctx.ars.acl.size());
}

struct ShowWordCmd {
    cmdline_fixed_string_t show, what, json;
};
WEFT_TOK_STR(ShowWordCmd, show, "show");
WEFT_TOK_STR(ShowWordCmd, what, "lag#acl");
WEFT_TOK_STR(ShowWordCmd, json, "json");
void show_word(void *res, struct cmdline *cl, void *data, bool json) {
    CommandContext &ctx = context_of(data);
    if (std::string(static_cast<ShowWordCmd *>(res)->what) == "lag") return show_lags(ctx, cl, json);
    show_acl(ctx, cl, json);
}
void show_word_text(void *res, struct cmdline *cl, void *data) {
    show_word(res, cl, data, false);
}
void show_word_json(void *res, struct cmdline *cl, void *data) {
    show_word(res, cl, data, true);
}
Inst<2> inst_show_word{show_word_text,
                       nullptr,
                       "show lag|acl",
                       {WEFT_HDR(ShowWordCmd_show), WEFT_HDR(ShowWordCmd_what), nullptr}};
Inst<3> inst_show_word_json{
    show_word_json,
    nullptr,
    "show lag|acl json",
    {WEFT_HDR(ShowWordCmd_show), WEFT_HDR(ShowWordCmd_what), WEFT_HDR(ShowWordCmd_json), nullptr}};

}  // namespace

InstList ars_show_commands() {
    return {as_inst(inst_show_nhg),      as_inst(inst_show_nhg_json), as_inst(inst_show_ars),
            as_inst(inst_show_ars_json), as_inst(inst_show_word),     as_inst(inst_show_word_json)};
}

}  // namespace weft::control::cli
