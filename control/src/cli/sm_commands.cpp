// The SM inside the switch: sm start|stop, show sm [json], show sm log, show fabric [json];
// with --sm-vms, the VMs (show sm vms [json]) and their live migration (sm migrate).
// `show sm` is the state and the last heavy sweep phase by phase (seconds, SMPs sent), the
// engine that routed and what the SM did since it started; `show fabric` the fabric as the last
// heavy sweep found it (switches and CAs with their LIDs, the links between them).
#include <cmdline.h>

#include <cstdio>

#include "cli_internal.hpp"
#include "weft/control/fabric/sm_service.hpp"
#include "weft/routing/parse_error.hpp"
#include "weft/routing/reconfig.hpp"
#include "weft/routing/vswitch.hpp"

namespace weft::control::cli {

namespace {

using fabric::SmService;

std::string hex(std::uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%016llx", ull(v));
    return b;
}

double since(sm::SmTime t) {
    return std::chrono::duration<double>(SmService::now() - t).count();
}

Json sm_record(const SmService &s) {
    Json j;
    j["state"] = s.running() ? "running" : "stopped";
    j["chain"] = s.config().runner.chain;
    j["sweep_interval_s"] = std::chrono::duration<double>(s.config().runner.sweep_interval).count();
    j["ethernet"] = s.config().runner.ethernet.has_value();
    const sm::SmRunner *r = s.runner();
    if (r == nullptr) return j;
    const sm::SmRunnerStats &st = r->stats();
    j["heavy_sweeps"] = st.heavy_sweeps;
    j["programmed_sweeps"] = st.programmed;
    j["failed_sweeps"] = st.failed;
    j["light_sweeps"] = st.light_sweeps;
    j["traps"] = st.traps;
    j["traps_undecodable"] = st.traps_undecodable;
    j["trap_to_programmed_ms"] = st.trap_to_programmed ? Json(*st.trap_to_programmed * 1e3) : Json(nullptr);
    const sm::SmpCounters &c = s.engine()->counters();
    const sm::SmpKindCounters total = c.total();
    j["smps"] = {{"sent", total.sent},
                 {"received", total.received},
                 {"retried", total.retried},
                 {"timed_out", total.timed_out},
                 {"malformed", total.malformed}};
    if (!r->last_heavy()) {
        j["last_sweep"] = nullptr;
        return j;
    }
    const sm::SweepReport &h = *r->last_heavy();
    Json last;
    last["outcome"] = sm::sweep_outcome_name(h.outcome);
    last["why"] = h.why;
    last["engine"] = h.chain.engine;
    last["seconds"] = h.seconds;
    last["ago_s"] = r->last_heavy_at() ? since(*r->last_heavy_at()) : 0.0;
    last["switches"] = h.discovery.stats.switches;
    last["cas"] = h.discovery.stats.cas;
    last["links"] = h.discovery.stats.links;
    last["smps_sent"] = h.smps.total().sent;
    last["program_failures"] = h.program.failures;
    Json phases = Json::array();
    for (const sm::PhaseReport &p : h.phases)
        phases.push_back({{"name", p.name}, {"seconds", p.seconds}, {"smps_sent", p.smps.total().sent}});
    last["phases"] = phases;
    // The switches whose whole table the SM knows to be the routing's.
    Json programmed = Json::array();
    const routing::Fabric &f = h.discovery.fabric;
    for (routing::NodeIdx n = 0; n < f.node_count(); ++n)
        if (f.node(n).is_switch() && h.program.programmed.count(f.node(n).guid))
            programmed.push_back(hex(f.node(n).guid));
    last["programmed_switches"] = programmed;
    j["last_sweep"] = last;
    if (r->last_light())
        j["last_light_sweep"] = {{"changed", r->last_light()->changed},
                                 {"why", r->last_light()->why},
                                 {"switches", r->last_light()->switches},
                                 {"seconds", r->last_light()->seconds}};
    return j;
}

Json fabric_record(const SmService &s) {
    Json j;
    const sm::SmRunner *r = s.runner();
    if (r == nullptr || !r->last_heavy() || !r->last_heavy()->discovery.reached)
        return Json{{"nodes", Json::array()}};
    const routing::Fabric &f = r->last_heavy()->discovery.fabric;
    Json nodes = Json::array(), links = Json::array();
    for (routing::NodeIdx n = 0; n < f.node_count(); ++n) {
        const routing::Node &node = f.node(n);
        Json lids = Json::array();
        if (node.is_switch())
            lids.push_back(f.port(n, 0).lid);
        else
            for (sm::PortNum p = 1; p <= node.num_ports; ++p) lids.push_back(f.port(n, p).lid);
        nodes.push_back({{"guid", hex(node.guid)},
                         {"type", node.is_switch() ? "switch" : "ca"},
                         {"desc", node.desc},
                         {"ports", node.num_ports},
                         {"lids", lids}});
        for (sm::PortNum p = 1; p <= node.num_ports; ++p) {
            const routing::Port &x = f.port(n, p);
            // Each link once, from its lower end.
            if (x.peer == routing::kNoNode || std::make_pair(x.peer, x.peer_port) < std::make_pair(n, p))
                continue;
            links.push_back({{"a", hex(node.guid)},
                             {"a_port", p},
                             {"b", hex(f.node(x.peer).guid)},
                             {"b_port", x.peer_port}});
        }
    }
    j["nodes"] = nodes;
    j["links"] = links;
    return j;
}

// The hypervisors' VMs as the SM placed and moved them.
Json vms_record(const SmService &s) {
    Json j;
    const sm::SmRunner *r = s.runner();
    const auto &vms = s.config().runner.vms;
    j["vfs"] = vms ? vms->vfs : 0;
    j["vms"] = Json::array();
    if (r == nullptr || !r->last_heavy() || !r->last_heavy()->discovery.reached) return j;
    const routing::Fabric &f = r->last_heavy()->discovery.fabric;
    j["vlids"] = f.extended_vlids;
    j["scheme"] = f.vf_lid_scheme == routing::VfLidScheme::Prepopulated ? "prepopulated" : "dynamic";
    j["hypervisors"] = routing::hypervisors(f).size();
    for (const routing::VirtualMachine &vm : f.vms())
        j["vms"].push_back({{"name", vm.name},
                            {"hypervisor", f.node(vm.hypervisor).desc},
                            {"hypervisor_guid", hex(f.node(vm.hypervisor).guid)},
                            {"vf", vm.vf},
                            {"lid", vm.lid}});
    j["migrations"] = r->stats().migrations;
    j["migrations_refused"] = r->stats().migrations_refused;
    return j;
}

SmService *service(CommandContext &ctx, struct cmdline *cl) {
    if (ctx.sm == nullptr) refuse(ctx, cl, "this switch has no SMA (no --fabric-ports), so no SM");
    return ctx.sm;
}

struct SmCmd {
    cmdline_fixed_string_t sm, action;
};
WEFT_TOK_STR(SmCmd, sm, "sm");
WEFT_TOK_STR(SmCmd, action, "start#stop");
void sm_cmd(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    SmService *s = service(ctx, cl);
    if (s == nullptr) return;
    const std::string action = static_cast<SmCmd *>(res)->action;
    if (action == "start") {
        if (s->running()) return refuse(ctx, cl, "the SM is running already");
        s->start();
        cmdline_printf(cl, "sm: started (engine chain %s)\n", s->config().runner.chain.c_str());
    } else {
        if (!s->running()) return refuse(ctx, cl, "the SM is not running");
        s->stop();
        cmdline_printf(cl, "sm: stopped\n");
    }
}
Inst<2> inst_sm{sm_cmd, nullptr, "sm start|stop", {WEFT_HDR(SmCmd_sm), WEFT_HDR(SmCmd_action), nullptr}};

struct ShowSmCmd {
    cmdline_fixed_string_t show, sm, what;
};
WEFT_TOK_STR(ShowSmCmd, show, "show");
WEFT_TOK_STR(ShowSmCmd, sm, "sm");
WEFT_TOK_STR(ShowSmCmd, what, "json");
static cmdline_parse_token_string_t ShowSmCmd_log = TOKEN_STRING_INITIALIZER(ShowSmCmd, what, "log");
static cmdline_parse_token_string_t ShowSmCmd_fabric = TOKEN_STRING_INITIALIZER(ShowSmCmd, sm, "fabric");

void show_sm(void *, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    SmService *s = service(ctx, cl);
    if (s == nullptr) return;
    const Json j = sm_record(*s);
    cmdline_printf(cl, "sm: %s, engine chain %s, light sweeps every %.0f s%s\n",
                   j["state"].get<std::string>().c_str(), s->config().runner.chain.c_str(),
                   j["sweep_interval_s"].get<double>(),
                   s->config().runner.ethernet ? ", Ethernet/RoCE tables" : "");
    if (!s->running()) return;
    cmdline_printf(cl, "sweeps: %llu heavy (%llu programmed, %llu failed), %llu light; %llu traps",
                   ull(j["heavy_sweeps"]), ull(j["programmed_sweeps"]), ull(j["failed_sweeps"]),
                   ull(j["light_sweeps"]), ull(j["traps"]));
    if (!j["trap_to_programmed_ms"].is_null())
        cmdline_printf(cl, ", last trap to re-programmed %.3f ms", j["trap_to_programmed_ms"].get<double>());
    cmdline_printf(cl, "\nSMPs: %llu sent, %llu received, %llu retried, %llu timed out\n",
                   ull(j["smps"]["sent"]), ull(j["smps"]["received"]), ull(j["smps"]["retried"]),
                   ull(j["smps"]["timed_out"]));
    if (j["last_sweep"].is_null()) return (void)cmdline_printf(cl, "no heavy sweep yet\n");
    const Json &l = j["last_sweep"];
    cmdline_printf(cl,
                   "last heavy sweep: %s%s%s, %.3f s ago, took %.3f s, engine %s; %zu switches (%zu "
                   "programmed), %zu CAs, %zu links\n",
                   l["outcome"].get<std::string>().c_str(), l["why"].get<std::string>().empty() ? "" : ": ",
                   l["why"].get<std::string>().c_str(), l["ago_s"].get<double>(), l["seconds"].get<double>(),
                   l["engine"].get<std::string>().c_str(), l["switches"].get<std::size_t>(),
                   l["programmed_switches"].size(), l["cas"].get<std::size_t>(),
                   l["links"].get<std::size_t>());
    for (const Json &p : l["phases"])
        cmdline_printf(cl, "  %-13s %9.3f ms  %6llu SMPs\n", p["name"].get<std::string>().c_str(),
                       p["seconds"].get<double>() * 1e3, ull(p["smps_sent"]));
}
void show_sm_json(void *, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    if (SmService *s = service(ctx, cl)) print_json(cl, sm_record(*s));
}
void show_sm_log(void *, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    SmService *s = service(ctx, cl);
    if (s == nullptr) return;
    for (const fabric::SmLogLine &l : s->log())
        cmdline_printf(cl, "[%9.3f] %s%s\n", l.seconds,
                       l.level == sm::SmLogLevel::kProblem ? "problem: " : "", one_line(l.text).c_str());
}
void show_fabric_json(void *, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    if (SmService *s = service(ctx, cl)) print_json(cl, fabric_record(*s));
}
void show_fabric(void *, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    SmService *s = service(ctx, cl);
    if (s == nullptr) return;
    const Json j = fabric_record(*s);
    if (j["nodes"].empty()) return (void)cmdline_printf(cl, "no fabric discovered (is the SM running?)\n");
    for (const Json &n : j["nodes"]) {
        std::string lids;
        for (const Json &lid : n["lids"])
            lids += (lids.empty() ? "" : ",") + std::to_string(lid.get<unsigned>());
        cmdline_printf(cl, "%-6s %s  LID %-8s %2u ports  %s\n", n["type"].get<std::string>().c_str(),
                       n["guid"].get<std::string>().c_str(), lids.c_str(), n["ports"].get<unsigned>(),
                       one_line(n["desc"].get<std::string>()).c_str());
    }
    for (const Json &l : j["links"])
        cmdline_printf(cl, "link   %s/%u - %s/%u\n", l["a"].get<std::string>().c_str(),
                       l["a_port"].get<unsigned>(), l["b"].get<std::string>().c_str(),
                       l["b_port"].get<unsigned>());
}

void show_sm_vms(SmService &s, struct cmdline *cl, bool json) {
    const Json j = vms_record(s);
    if (json) return print_json(cl, j);
    if (!s.config().runner.vms) return (void)cmdline_printf(cl, "no VMs (weft runs without --sm-vms)\n");
    if (!j.contains("vlids")) return (void)cmdline_printf(cl, "no fabric programmed yet\n");
    cmdline_printf(cl, "%zu VMs on %zu hypervisors of %u VFs, %s LIDs (%s); %llu migrations, %llu refused\n",
                   j["vms"].size(), j["hypervisors"].get<std::size_t>(), j["vfs"].get<unsigned>(),
                   j["vlids"].get<bool>() ? "vLIDs for their" : "16-bit",
                   j["scheme"].get<std::string>().c_str(), ull(j["migrations"]),
                   ull(j["migrations_refused"]));
    for (const Json &vm : j["vms"])
        cmdline_printf(cl, "%-12s LID 0x%05x  VF %-4u %s\n", one_line(vm["name"].get<std::string>()).c_str(),
                       vm["lid"].get<unsigned>(), vm["vf"].get<unsigned>(),
                       one_line(vm["hypervisor"].get<std::string>()).c_str());
}

struct ShowSmVmsCmd {
    cmdline_fixed_string_t show, sm, vms, json;
};
WEFT_TOK_STR(ShowSmVmsCmd, show, "show");
WEFT_TOK_STR(ShowSmVmsCmd, sm, "sm");
WEFT_TOK_STR(ShowSmVmsCmd, vms, "vms");
WEFT_TOK_STR(ShowSmVmsCmd, json, "json");
void show_sm_vms_text(void *, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    if (SmService *s = service(ctx, cl)) show_sm_vms(*s, cl, false);
}
void show_sm_vms_json(void *, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    if (SmService *s = service(ctx, cl)) show_sm_vms(*s, cl, true);
}
Inst<3> inst_show_sm_vms{
    show_sm_vms_text,
    nullptr,
    "show sm vms: the VMs, their LIDs and hypervisors (with --sm-vms)",
    {WEFT_HDR(ShowSmVmsCmd_show), WEFT_HDR(ShowSmVmsCmd_sm), WEFT_HDR(ShowSmVmsCmd_vms), nullptr}};
Inst<4> inst_show_sm_vms_json{show_sm_vms_json,
                              nullptr,
                              "show sm vms json",
                              {WEFT_HDR(ShowSmVmsCmd_show), WEFT_HDR(ShowSmVmsCmd_sm),
                               WEFT_HDR(ShowSmVmsCmd_vms), WEFT_HDR(ShowSmVmsCmd_json), nullptr}};

// ---- sm migrate VM to HYPERVISOR [method M] ----
struct SmMigrateCmd {
    cmdline_fixed_string_t sm, migrate, vm, to, hypervisor, method_kw, method;
};
WEFT_TOK_STR(SmMigrateCmd, sm, "sm");
WEFT_TOK_STR(SmMigrateCmd, migrate, "migrate");
WEFT_TOK_STR(SmMigrateCmd, vm, nullptr);
WEFT_TOK_STR(SmMigrateCmd, to, "to");
WEFT_TOK_STR(SmMigrateCmd, hypervisor, nullptr);
WEFT_TOK_STR(SmMigrateCmd, method_kw, "method");
WEFT_TOK_STR(SmMigrateCmd, method, "full#itrc#ftree-minrc#ftree-minrc-rebalance");
void migrate(void *res, struct cmdline *cl, void *data, const std::string &method) {
    CommandContext &ctx = context_of(data);
    SmService *s = service(ctx, cl);
    if (s == nullptr) return;
    const auto *r = static_cast<SmMigrateCmd *>(res);
    if (!s->config().runner.vms) return refuse(ctx, cl, "the SM places no VMs (weft runs without --sm-vms)");
    const sm::SmRunner *runner = s->runner();
    if (runner == nullptr || !runner->last_heavy() ||
        runner->last_heavy()->outcome != sm::SweepOutcome::kProgrammed)
        return refuse(ctx, cl, "the SM has no programmed fabric to move a VM in (yet)");
    // The names as a migration file line says them: the same lookup and the same errors.
    std::vector<routing::Migration> steps;
    try {
        steps = routing::read_migrations(std::string("migrate ") + r->vm + " to " + r->hypervisor,
                                         "sm migrate", runner->last_heavy()->discovery.fabric);
    } catch (const routing::ParseError &e) {
        return refuse(ctx, cl, e.what());
    }
    if (steps.size() != 1) return refuse(ctx, cl, "sm migrate VM to HYPERVISOR: one VM, one hypervisor");
    const routing::Fabric &f = runner->last_heavy()->discovery.fabric;
    const std::string from = f.node(f.vms()[steps.front().vm].hypervisor).desc;
    const sm::LiveMigrationReport x = s->migrate(steps.front(), method);
    if (!x.plan.ok()) return refuse(ctx, cl, x.plan.error);
    cmdline_printf(
        cl, "sm: migrate %s\n",
        one_line(sm::migration_summary(x, s->runner()->last_heavy()->discovery.fabric, from)).c_str());
    if (x.failures) refuse(ctx, cl, x.problems.empty() ? "a Set failed" : x.problems.front());
}
void sm_migrate(void *res, struct cmdline *cl, void *data) {
    migrate(res, cl, data, "");
}
void sm_migrate_method(void *res, struct cmdline *cl, void *data) {
    migrate(res, cl, data, static_cast<SmMigrateCmd *>(res)->method);
}
Inst<6> inst_sm_migrate{sm_migrate,
                        nullptr,
                        "sm migrate VM to HYPERVISOR [method full|itrc|ftree-minrc|ftree-minrc-rebalance]: a "
                        "VM's live migration (HYPERVISOR: node description or GUID)",
                        {WEFT_HDR(SmMigrateCmd_sm), WEFT_HDR(SmMigrateCmd_migrate), WEFT_HDR(SmMigrateCmd_vm),
                         WEFT_HDR(SmMigrateCmd_to), WEFT_HDR(SmMigrateCmd_hypervisor), nullptr}};
Inst<8> inst_sm_migrate_method{
    sm_migrate_method,
    nullptr,
    "sm migrate VM to HYPERVISOR method M",
    {WEFT_HDR(SmMigrateCmd_sm), WEFT_HDR(SmMigrateCmd_migrate), WEFT_HDR(SmMigrateCmd_vm),
     WEFT_HDR(SmMigrateCmd_to), WEFT_HDR(SmMigrateCmd_hypervisor), WEFT_HDR(SmMigrateCmd_method_kw),
     WEFT_HDR(SmMigrateCmd_method), nullptr}};

Inst<2> inst_show_sm{
    show_sm, nullptr, "show sm", {WEFT_HDR(ShowSmCmd_show), WEFT_HDR(ShowSmCmd_sm), nullptr}};
Inst<3> inst_show_sm_json{
    show_sm_json,
    nullptr,
    "show sm json",
    {WEFT_HDR(ShowSmCmd_show), WEFT_HDR(ShowSmCmd_sm), WEFT_HDR(ShowSmCmd_what), nullptr}};
Inst<3> inst_show_sm_log{
    show_sm_log,
    nullptr,
    "show sm log: the SM's last lines",
    {WEFT_HDR(ShowSmCmd_show), WEFT_HDR(ShowSmCmd_sm), WEFT_HDR(ShowSmCmd_log), nullptr}};
Inst<2> inst_show_fabric{
    show_fabric, nullptr, "show fabric", {WEFT_HDR(ShowSmCmd_show), WEFT_HDR(ShowSmCmd_fabric), nullptr}};
Inst<3> inst_show_fabric_json{
    show_fabric_json,
    nullptr,
    "show fabric json",
    {WEFT_HDR(ShowSmCmd_show), WEFT_HDR(ShowSmCmd_fabric), WEFT_HDR(ShowSmCmd_what), nullptr}};

}  // namespace

InstList sm_commands() {
    return {as_inst(inst_sm),           as_inst(inst_show_sm),
            as_inst(inst_show_sm_json), as_inst(inst_show_sm_log),
            as_inst(inst_show_fabric),  as_inst(inst_show_fabric_json),
            as_inst(inst_show_sm_vms),  as_inst(inst_show_sm_vms_json),
            as_inst(inst_sm_migrate),   as_inst(inst_sm_migrate_method)};
}

}  // namespace weft::control::cli
