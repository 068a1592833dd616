// Monitoring: `monitor start|stop` switches monitoring of every ARS object (events printed by
// the control loop), `file <path>` adds a pcapng capture of each reassigned packet written by
// the dataplane's capture thread; `show monitor` reports both.
#include <cmdline.h>

#include <string>

#include "cli_internal.hpp"
#include "weft/dataplane/reassign_capture.hpp"

namespace weft::control::cli {

namespace dp = weft::dataplane;

namespace {

const char kMonitorUsage[] = "monitor start [file <path>] | monitor stop | monitor file <path>|off";

std::string json_string(const std::string &s) {
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) continue;  // control characters are not kept
        out += c;
    }
    return out + "\"";
}

// Starts the capture into `path`; prints and counts a failure, which changes nothing else.
bool start_capture(CommandContext &ctx, struct cmdline *cl, const std::string &path) {
    const dp::Status s = ctx.dp->capture().start(path);
    if (!s.ok()) return bad(ctx, cl, s.message());
    cmdline_printf(cl, "monitor: capturing reassigned packets to %s\n", path.c_str());
    return true;
}

void stop_capture(CommandContext &ctx, struct cmdline *cl) {
    dp::ReassignCapture &capture = ctx.dp->capture();
    if (!capture.stats().active) return;
    capture.stop();
    const dp::CaptureStats st = capture.stats();
    cmdline_printf(cl, "monitor: %s closed, %llu records (%llu not captured, %llu lost writing)\n",
                   st.path.c_str(), ull(st.written), ull(st.dropped), ull(st.write_errors));
}

bool monitor_command(CommandContext &ctx, struct cmdline *cl, const Words &w) {
    // w[0] is "monitor".
    if (w.size() == 2 && w[1] == "start") return set_monitoring(ctx, cl, true);
    if (w.size() == 2 && w[1] == "stop") {
        stop_capture(ctx, cl);
        return set_monitoring(ctx, cl, false);
    }
    if (w.size() == 4 && w[1] == "start" && w[2] == "file") {
        if (!start_capture(ctx, cl, w[3])) return false;
        if (set_monitoring(ctx, cl, true)) return true;
        stop_capture(ctx, cl);  // monitoring refused: no capture either
        return false;
    }
    if (w.size() == 3 && w[1] == "file") {
        if (w[2] == "off") {
            stop_capture(ctx, cl);
            return true;
        }
        return start_capture(ctx, cl, w[2]);
    }
    return bad(ctx, cl, kMonitorUsage);
}

void show_monitor(CommandContext &ctx, struct cmdline *cl, bool json) {
    const dp::CaptureStats st = ctx.dp->capture().stats();
    if (json) {
        cmdline_printf(cl,
                       "{\"monitor\": %s, \"capture\": {\"active\": %s, \"file\": %s, \"captured\": %llu, "
                       "\"dropped\": %llu, \"written\": %llu, \"write_errors\": %llu, \"per_worker\": [",
                       ctx.ars.monitor ? "true" : "false", st.active ? "true" : "false",
                       json_string(st.path).c_str(), ull(st.captured), ull(st.dropped), ull(st.written),
                       ull(st.write_errors));
        for (std::size_t w = 0; w < st.captured_per_worker.size(); ++w)
            cmdline_printf(cl, "%s%llu", w ? ", " : "", ull(st.captured_per_worker[w]));
        cmdline_printf(cl, "]}}\n");
        return;
    }
    cmdline_printf(cl, "monitoring: %s\n",
                   ctx.ars.monitor ? "every ARS object" : "objects and ACL rules that ask");
    if (st.path.empty()) {
        cmdline_printf(cl, "capture: none\n");
        return;
    }
    cmdline_printf(cl,
                   "capture: %s %s, %llu records written, %llu captured, %llu dropped (ring or pool full), "
                   "%llu lost writing\n",
                   st.active ? "running into" : "closed,", st.path.c_str(), ull(st.written), ull(st.captured),
                   ull(st.dropped), ull(st.write_errors));
    for (std::size_t w = 0; w < st.captured_per_worker.size(); ++w)
        cmdline_printf(cl, "  worker %zu: %llu captured\n", w, ull(st.captured_per_worker[w]));
}

// ---- monitor ... ----
struct MonitorCmd {
    cmdline_fixed_string_t monitor;
    cmdline_multi_string_t rest;
};
WEFT_TOK_STR(MonitorCmd, monitor, "monitor");
WEFT_TOK_STR(MonitorCmd, rest, TOKEN_STRING_MULTI);
void monitor_cmd(void *res, struct cmdline *cl, void *data) {
    monitor_command(context_of(data), cl, words_after({"monitor"}, static_cast<MonitorCmd *>(res)->rest));
}
Inst<2> inst_monitor{monitor_cmd,
                     nullptr,
                     "monitor start [file <path>] | monitor stop | monitor file <path>|off",
                     {WEFT_HDR(MonitorCmd_monitor), WEFT_HDR(MonitorCmd_rest), nullptr}};

// ---- show monitor [json] ----
struct ShowMonitorCmd {
    cmdline_fixed_string_t show, monitor, json;
};
WEFT_TOK_STR(ShowMonitorCmd, show, "show");
WEFT_TOK_STR(ShowMonitorCmd, monitor, "monitor");
WEFT_TOK_STR(ShowMonitorCmd, json, "json");
void show_monitor_text(void *, struct cmdline *cl, void *data) {
    show_monitor(context_of(data), cl, false);
}
void show_monitor_json(void *, struct cmdline *cl, void *data) {
    show_monitor(context_of(data), cl, true);
}
Inst<2> inst_show_monitor{show_monitor_text,
                          nullptr,
                          "show monitor",
                          {WEFT_HDR(ShowMonitorCmd_show), WEFT_HDR(ShowMonitorCmd_monitor), nullptr}};
Inst<3> inst_show_monitor_json{show_monitor_json,
                               nullptr,
                               "show monitor json",
                               {WEFT_HDR(ShowMonitorCmd_show), WEFT_HDR(ShowMonitorCmd_monitor),
                                WEFT_HDR(ShowMonitorCmd_json), nullptr}};

}  // namespace

InstList monitor_commands() {
    return {as_inst(inst_monitor), as_inst(inst_show_monitor), as_inst(inst_show_monitor_json)};
}

}  // namespace weft::control::cli
