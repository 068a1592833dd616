// The forwarding tables as published: show route|nhg|drops|neigh|lft|mft|sl2vl [json]. Every
// object is one record (nlohmann JSON) that both the text and the json form print; the tables
// come from the snapshot the workers forward with, the neighbours and the groups' members as
// configured from the FIB builder.
#include <cmdline.h>

#include <map>
#include <string>

#include "cli_internal.hpp"
#include "weft/dataplane/counters.hpp"
#include "weft/dataplane/fib_builder.hpp"
#include "weft/dataplane/fib_snapshot.hpp"
#include "weft/dataplane/limits.hpp"

namespace weft::control::cli {

namespace dp = weft::dataplane;

namespace {

std::string mac_text(const rte_ether_addr &mac) {
    char s[RTE_ETHER_ADDR_FMT_SIZE];
    rte_ether_format_addr(s, sizeof s, &mac);
    return s;
}

// ---- route ----
void show_route(CommandContext &ctx, struct cmdline *cl, bool json) {
    // The builder's routes are the published ones between commands (each commits what it changes).
    const dp::FibSnapshot *s = ctx.dp->publisher().current();  // control thread: the writer itself
    Json records = Json::array();
    for (const auto &r : ctx.fib->sorted_routes())
        records.push_back(Json{{"prefix", r.prefix.to_string()}, {"nhg", r.nhg_id}});
    if (json) return print_json(cl, Json{{"routes", records}});
    cmdline_printf(cl, "%-44s %s\n", "prefix", "nhg");
    for (const Json &r : records)
        cmdline_printf(cl, "%-44s %s\n", r["prefix"].get<std::string>().c_str(), r["nhg"].dump().c_str());
    cmdline_printf(cl, "%zu routes (snapshot generation %llu)\n", records.size(), ull(s->generation()));
}

// ---- nhg ----
void show_nhg(CommandContext &ctx, struct cmdline *cl, bool json) {
    const dp::FibSnapshot *s = ctx.dp->publisher().current();
    const auto counters = ctx.dp->counters();
    Json records = Json::array();
    for (const auto &[id, spec] : ctx.fib->nhgs()) {
        const std::uint32_t index = *ctx.fib->nhg_index(id);
        const auto [pkts, bytes] = ctx.stats.nhg(counters, id, index);  // since `clear nhg stats`
        const dp::NhgEntry *e = s->nhg(index);
        const auto members = e != nullptr ? s->members(*e) : std::span<const dp::ResolvedMember>{};
        Json ms = Json::array();
        for (std::size_t i = 0; i < spec.members.size(); ++i) {
            const dp::NhgMemberSpec &m = spec.members[i];
            ms.push_back(Json{{"port", m.port},
                              {"via", m.via ? Json(m.via->to_string()) : Json()},
                              {"weight", m.weight},
                              {"resolved", i < members.size() && members[i].resolved}});
        }
        records.push_back(Json{{"id", id},
                               {"mode", dp::nhg_mode_name(spec.mode)},
                               {"members", ms},
                               {"packets", pkts},
                               {"bytes", bytes}});
    }
    if (json) return print_json(cl, Json{{"nhgs", records}});
    for (const Json &g : records) {
        std::string members;
        for (const Json &m : g["members"])
            members += " " + m["port"].dump() +
                       (m["via"].is_null() ? "" : "@" + m["via"].get<std::string>()) +
                       (m["weight"] == 1 ? "" : "*" + m["weight"].dump()) +
                       (m["resolved"].get<bool>() ? "" : "(unresolved)");
        cmdline_printf(cl, "nhg %s: members%s  packets %s bytes %s%s\n", g["id"].dump().c_str(),
                       members.c_str(), g["packets"].dump().c_str(), g["bytes"].dump().c_str(),
                       g["mode"] == "ars" ? "  (ars)" : "");
    }
}

// ---- drops ----
void show_drops(CommandContext &ctx, struct cmdline *cl, bool json) {
    const dp::Totals t = ctx.stats.totals(ctx.dp->counters());  // since `clear port stats all`
    Json r = Json::object();
    for (std::size_t i = 1; i < dp::kDropReasonCount; ++i)
        r[dp::drop_reason_name(static_cast<dp::DropReason>(i))] = t.drops[i];
    r["total"] = t.dropped();
    if (json) return print_json(cl, r);
    for (const auto &[reason, n] : r.items())
        if (n != 0 || reason == "total") cmdline_printf(cl, "  %-32s %s\n", reason.c_str(), n.dump().c_str());
}

// ---- neigh ----
void show_neigh(CommandContext &ctx, struct cmdline *cl, bool json) {
    Json records = Json::array();
    for (const auto &[key, n] : ctx.fib->neighbours())
        records.push_back(Json{{"ip", key.ip.to_string()}, {"mac", mac_text(n.mac)}, {"port", n.port}});
    if (json) return print_json(cl, Json{{"neighbours", records}});
    cmdline_printf(cl, "%-40s %-18s %s\n", "ip", "mac", "port");
    for (const Json &n : records)
        cmdline_printf(cl, "%-40s %-18s %s\n", n["ip"].get<std::string>().c_str(),
                       n["mac"].get<std::string>().c_str(), n["port"].dump().c_str());
    cmdline_printf(cl, "%zu neighbours\n", records.size());
}

// ---- lft ----
void show_lft(CommandContext &ctx, struct cmdline *cl, bool json) {
    const dp::FibSnapshot *s = ctx.dp->publisher().current();
    std::map<std::uint32_t, std::uint32_t> id_of;  // NHG index -> id
    for (const auto &[id, spec] : ctx.fib->nhgs()) id_of[*ctx.fib->nhg_index(id)] = id;
    Json records = Json::array();
    std::size_t vlids = 0;
    for (const auto &[lid, t] : s->lft_entries()) {
        // "vlid": the entry is in the secondary LFT (seed 002's extended LID space).
        Json e{{"lid", lid}, {"vlid", lid >= dp::kFirstVlid}};
        vlids += lid >= dp::kFirstVlid;
        if (t.kind == dp::LftTarget::Kind::Port) e["port"] = t.value;
        if (t.kind == dp::LftTarget::Kind::Nhg) {
            const auto it = id_of.find(t.value);
            e["nhg"] = it != id_of.end() ? Json(it->second) : Json();
        }
        records.push_back(std::move(e));
    }
    if (json) return print_json(cl, Json{{"lft", records}});
    for (const Json &e : records)
        cmdline_printf(cl, "%s 0x%04x -> %s %s\n", e["vlid"].get<bool>() ? "vlid" : "lid",
                       e["lid"].get<unsigned>(), e.contains("port") ? "port" : "nhg",
                       e.contains("port") ? e["port"].dump().c_str() : e["nhg"].dump().c_str());
    cmdline_printf(cl, "%zu LFT entries (%zu vLIDs)\n", records.size(), vlids);
}

// ---- mft ----
void show_mft(CommandContext &ctx, struct cmdline *cl, bool json) {
    const dp::FibSnapshot *s = ctx.dp->publisher().current();
    Json records = Json::array();
    for (std::uint32_t mlid = dp::kFirstMulticastLid; mlid <= dp::kLastMulticastLid; ++mlid) {
        const dp::PortMask &mask = s->mft(static_cast<std::uint16_t>(mlid));
        if (mask.none()) continue;
        Json ports = Json::array();
        mask.for_each([&](std::uint16_t p) { ports.push_back(p); });
        records.push_back(Json{{"mlid", mlid}, {"ports", ports}});
    }
    if (json) return print_json(cl, Json{{"mft", records}});
    for (const Json &e : records) {
        std::string ports;
        for (const Json &p : e["ports"]) ports += " " + p.dump();
        cmdline_printf(cl, "mlid 0x%04x -> ports%s\n", e["mlid"].get<unsigned>(), ports.c_str());
    }
    cmdline_printf(cl, "%zu MFT entries\n", records.size());
}

// ---- sl2vl ----
void show_sl2vl(CommandContext &ctx, struct cmdline *cl, bool json) {
    const dp::FibSnapshot *s = ctx.dp->publisher().current();
    Json records = Json::array();
    for (std::uint16_t p = 0; p < ctx.dp->num_ports(); ++p) {
        Json vl = Json::array();
        for (std::uint8_t sl = 0; sl < dp::kNumSl; ++sl) vl.push_back(s->sl2vl(p, sl));
        records.push_back(Json{{"port", p}, {"vl", vl}});
    }
    if (json) return print_json(cl, Json{{"ports", records}});
    cmdline_printf(cl, "SL:     ");
    for (unsigned sl = 0; sl < dp::kNumSl; ++sl) cmdline_printf(cl, " %2u", sl);
    cmdline_printf(cl, "\n");
    for (const Json &e : records) {
        cmdline_printf(cl, "port %-3s", e["port"].dump().c_str());
        for (const Json &vl : e["vl"]) cmdline_printf(cl, " %2s", vl.dump().c_str());
        cmdline_printf(cl, "\n");
    }
}

struct ShowCmd {
    cmdline_fixed_string_t show, what, json;
};
WEFT_TOK_STR(ShowCmd, show, "show");
WEFT_TOK_STR(ShowCmd, what, "route#nhg#drops#neigh#lft#mft#sl2vl");
WEFT_TOK_STR(ShowCmd, json, "json");

void show(void *res, struct cmdline *cl, void *data, bool json) {
    CommandContext &ctx = context_of(data);
    const std::string what = static_cast<ShowCmd *>(res)->what;
    if (what == "route") return show_route(ctx, cl, json);
    if (what == "nhg") return show_nhg(ctx, cl, json);
    if (what == "drops") return show_drops(ctx, cl, json);
    if (what == "neigh") return show_neigh(ctx, cl, json);
    if (what == "lft") return show_lft(ctx, cl, json);
    if (what == "mft") return show_mft(ctx, cl, json);
    show_sl2vl(ctx, cl, json);
}
void show_text(void *res, struct cmdline *cl, void *data) {
    show(res, cl, data, false);
}
void show_json(void *res, struct cmdline *cl, void *data) {
    show(res, cl, data, true);
}

Inst<2> inst_show{show_text,
                  nullptr,
                  "show route|nhg|drops|neigh|lft|mft|sl2vl",
                  {WEFT_HDR(ShowCmd_show), WEFT_HDR(ShowCmd_what), nullptr}};
Inst<3> inst_show_json{show_json,
                       nullptr,
                       "show route|nhg|drops|neigh|lft|mft|sl2vl json",
                       {WEFT_HDR(ShowCmd_show), WEFT_HDR(ShowCmd_what), WEFT_HDR(ShowCmd_json), nullptr}};

}  // namespace

InstList show_commands() {
    return {as_inst(inst_show), as_inst(inst_show_json)};
}

}  // namespace weft::control::cli
