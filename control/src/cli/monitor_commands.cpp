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

// Starts the capture into `path`; prints and counts a failure, which changes nothing else.
bool start_capture(CommandContext &ctx, struct cmdline *cl, const std::string &path) {
    const dp::Status s = ctx.dp->capture().start(path);
    if (!s.ok()) return bad(ctx, cl, s.message());
    cmdline_printf(cl, "monitor: capturing reassigned packets to %s\n", one_line(path).c_str());
    return true;
}

void stop_capture(CommandContext &ctx, struct cmdline *cl) {
    dp::ReassignCapture &capture = ctx.dp->capture();
    if (!capture.stats().active) return;
    capture.stop();
    const dp::CaptureStats st = capture.stats();
    cmdline_printf(cl, "monitor: %s closed, %llu records (%llu not captured, %llu lost writing)\n",
                   one_line(st.path).c_str(), ull(st.written), ull(st.dropped), ull(st.write_errors));
}

// What `show monitor` shows, as one record.
Json monitor_record(const CommandContext &ctx, const dp::CaptureStats &st) {
    return Json{{"monitor", ctx.ars.monitor},
                {"capture",
                 {{"active", st.active},
                  {"file", st.path},
                  {"captured", st.captured},
                  {"dropped", st.dropped},
                  {"written", st.written},
                  {"write_errors", st.write_errors},
                  {"per_worker", st.captured_per_worker}}}};
}

void show_monitor(CommandContext &ctx, struct cmdline *cl, bool json) {
    const dp::CaptureStats st = ctx.dp->capture().stats();
    if (json) return print_json(cl, monitor_record(ctx, st));
    cmdline_printf(cl, "monitoring: %s\n",
                   ctx.ars.monitor ? "every ARS object" : "objects and ACL rules that ask");
    if (st.path.empty()) {
        cmdline_printf(cl, "capture: none\n");
        return;
    }
    cmdline_printf(cl,
                   "capture: %s %s, %llu records written, %llu captured, %llu dropped (ring or pool full), "
                   "%llu lost writing\n",
                   st.active ? "running into" : "closed,", one_line(st.path).c_str(), ull(st.written),
                   ull(st.captured), ull(st.dropped), ull(st.write_errors));
    for (std::size_t w = 0; w < st.captured_per_worker.size(); ++w)
        cmdline_printf(cl, "  worker %zu: %llu captured\n", w, ull(st.captured_per_worker[w]));
}

// ---- monitor start [file <path>] | monitor stop | monitor file <path>|off ----
struct MonitorCmd {
    cmdline_fixed_string_t monitor, op, file_kw, path;
};
WEFT_TOK_STR(MonitorCmd, monitor, "monitor");
WEFT_TOK_STR(MonitorCmd, op, "start#stop");
static cmdline_parse_token_string_t MonitorCmd_start = TOKEN_STRING_INITIALIZER(MonitorCmd, op, "start");
static cmdline_parse_token_string_t MonitorCmd_file = TOKEN_STRING_INITIALIZER(MonitorCmd, op, "file");
WEFT_TOK_STR(MonitorCmd, file_kw, "file");
WEFT_TOK_STR(MonitorCmd, path, nullptr);

void monitor_switch(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const bool start = std::string(static_cast<MonitorCmd *>(res)->op) == "start";
    if (!start) stop_capture(ctx, cl);
    set_monitoring(ctx, cl, start);
}
void monitor_start_file(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    if (!start_capture(ctx, cl, static_cast<MonitorCmd *>(res)->path)) return;
    if (!set_monitoring(ctx, cl, true)) stop_capture(ctx, cl);  // monitoring refused: no capture either
}
void monitor_file(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const std::string path = static_cast<MonitorCmd *>(res)->path;
    if (path == "off") return stop_capture(ctx, cl);
    start_capture(ctx, cl, path);
}
Inst<2> inst_monitor{monitor_switch,
                     nullptr,
                     "monitor start|stop",
                     {WEFT_HDR(MonitorCmd_monitor), WEFT_HDR(MonitorCmd_op), nullptr}};
Inst<4> inst_monitor_start_file{monitor_start_file,
                                nullptr,
                                "monitor start file <path>",
                                {WEFT_HDR(MonitorCmd_monitor), WEFT_HDR(MonitorCmd_start),
                                 WEFT_HDR(MonitorCmd_file_kw), WEFT_HDR(MonitorCmd_path), nullptr}};
Inst<3> inst_monitor_file{
    monitor_file,
    nullptr,
    "monitor file <path>|off",
    {WEFT_HDR(MonitorCmd_monitor), WEFT_HDR(MonitorCmd_file), WEFT_HDR(MonitorCmd_path), nullptr}};

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
    return {as_inst(inst_monitor), as_inst(inst_monitor_start_file), as_inst(inst_monitor_file),
            as_inst(inst_show_monitor), as_inst(inst_show_monitor_json)};
}

}  // namespace weft::control::cli
