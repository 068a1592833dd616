// show route|nhg|drops [json]: the published tables and the drop counters.
#include <cmdline.h>

#include <string>

#include "cli_internal.hpp"
#include "weft/dataplane/counters.hpp"
#include "weft/dataplane/fib_snapshot.hpp"

namespace weft::control::cli {

namespace dp = weft::dataplane;

namespace {

struct ShowCmd {
    cmdline_fixed_string_t show, what, json;
};
WEFT_TOK_STR(ShowCmd, show, "show");
WEFT_TOK_STR(ShowCmd, what, "route#nhg#drops");
WEFT_TOK_STR(ShowCmd, json, "json");

void show_json(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const std::string what = static_cast<ShowCmd *>(res)->what;
    const dp::FibSnapshot *s = ctx.dp->publisher().current();  // control thread: the writer itself
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
        const auto counters = ctx.dp->counters();
        cmdline_printf(cl, "{\"nhgs\": [");
        bool first = true;
        for (const auto &[id, spec] : ctx.fib->nhgs()) {
            const std::uint32_t index = *ctx.fib->nhg_index(id);
            const auto [pkts, bytes] = ctx.stats.nhg(counters, id, index);  // since `clear nhg stats`
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
        const dp::Totals t = ctx.stats.totals(ctx.dp->counters());  // since `clear port stats all`
        cmdline_printf(cl, "{");
        for (std::size_t i = 1; i < dp::kDropReasonCount; ++i)
            cmdline_printf(cl, "\"%s\": %llu, ", dp::drop_reason_name(static_cast<dp::DropReason>(i)),
                           ull(t.drops[i]));
        cmdline_printf(cl, "\"total\": %llu}\n", ull(t.dropped()));
    }
}

void show_text(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const std::string what = static_cast<ShowCmd *>(res)->what;
    const dp::FibSnapshot *s = ctx.dp->publisher().current();
    if (what == "route") {
        cmdline_printf(cl, "%-44s %s\n", "prefix", "nhg");
        for (const auto &r : s->routes())
            cmdline_printf(cl, "%-44s %u\n", r.prefix.to_string().c_str(), r.nhg_id);
        cmdline_printf(cl, "%zu routes (snapshot generation %llu)\n", s->routes().size(),
                       ull(s->generation()));
    } else if (what == "nhg") {
        const auto counters = ctx.dp->counters();
        for (const auto &[id, spec] : ctx.fib->nhgs()) {
            const std::uint32_t index = *ctx.fib->nhg_index(id);
            const auto [pkts, bytes] = ctx.stats.nhg(counters, id, index);  // since `clear nhg stats`
            std::string members;
            const dp::NhgEntry *e = s->nhg(index);
            if (e != nullptr)
                for (const auto &m : s->members(*e))
                    members += " " + std::to_string(m.port) + (m.resolved ? "" : "(unresolved)");
            cmdline_printf(cl, "nhg %u: members%s  packets %llu bytes %llu%s\n", id, members.c_str(),
                           ull(pkts), ull(bytes), spec.mode == dp::NhgMode::Ars ? "  (ars)" : "");
        }
    } else {
        const dp::Totals t = ctx.stats.totals(ctx.dp->counters());  // since `clear port stats all`
        for (std::size_t i = 1; i < dp::kDropReasonCount; ++i)
            if (t.drops[i] != 0)
                cmdline_printf(cl, "  %-32s %llu\n", dp::drop_reason_name(static_cast<dp::DropReason>(i)),
                               ull(t.drops[i]));
        cmdline_printf(cl, "  %-32s %llu\n", "total", ull(t.dropped()));
    }
}

Inst<2> inst_show{
    show_text, nullptr, "show route|nhg|drops", {WEFT_HDR(ShowCmd_show), WEFT_HDR(ShowCmd_what), nullptr}};
Inst<3> inst_show_json{show_json,
                       nullptr,
                       "show route|nhg|drops json",
                       {WEFT_HDR(ShowCmd_show), WEFT_HDR(ShowCmd_what), WEFT_HDR(ShowCmd_json), nullptr}};

}  // namespace

InstList show_commands() {
    return {as_inst(inst_show), as_inst(inst_show_json)};
}

}  // namespace weft::control::cli
