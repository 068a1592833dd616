// weft [EAL args] -- [app args]: the switch. Order of start-up: EAL, ports configured and
// started, an empty FIB published, --cmdline-file applied, then the workers launch, so the
// first frame forwarded already sees the configured tables.
#include <cmdline.h>
#include <cmdline_socket.h>
#include <poll.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_mbuf.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <exception>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "app_options.hpp"
#include "weft/control/arn_apply.hpp"
#include "weft/control/cli.hpp"
#include "weft/control/fabric/sm_service.hpp"
#include "weft/control/fabric/switch_agent.hpp"
#include "weft/control/fpm_server.hpp"
#include "weft/control/input_line.hpp"
#include "weft/control/lcp/linux_cp.hpp"
#include "weft/control/script.hpp"
#include "weft/dataplane/arn_agent.hpp"
#include "weft/dataplane/dataplane.hpp"
#include "weft/dataplane/fib_builder.hpp"
#include "weft/dataplane/telemetry.hpp"
#include "weft/routing/mcast_groups.hpp"
#include "weft/routing/text_file.hpp"
#include "weft/routing/vswitch.hpp"

namespace {

std::atomic<bool> g_signalled{false};

// How often the control loop looks at the punt rings between its rounds.
constexpr unsigned kSmaStepUs = 1000;

void on_signal(int) {
    g_signalled.store(true);
}

// Runs every complete line waiting on a non-terminal stdin; false at end of input.
bool feed_lines(weft::control::CommandContext &ctx, cmdline *cl, std::string &pending) {
    pollfd pfd{STDIN_FILENO, POLLIN, 0};
    while (!ctx.quit && poll(&pfd, 1, 0) > 0) {
        char buf[512];
        const ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
        if (n <= 0) {
            if (!pending.empty()) weft::control::run_input_line(ctx, cl, pending);
            return false;
        }
        pending.append(buf, static_cast<std::size_t>(n));
        for (std::size_t nl; !ctx.quit && (nl = pending.find('\n')) != std::string::npos;) {
            const std::string line = pending.substr(0, nl);
            pending.erase(0, nl + 1);
            weft::control::run_input_line(ctx, cl, line);
        }
    }
    return true;
}

// Hands whatever the terminal has typed to the prompt without blocking; false at end of input.
// The line editor would drop a NUL (Ctrl-@) without a word; it is refused and counted instead.
bool feed_stdin(weft::control::CommandContext &ctx, cmdline *cl) {
    pollfd pfd{STDIN_FILENO, POLLIN, 0};
    while (poll(&pfd, 1, 0) > 0) {
        char buf[512];
        const ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
        if (n <= 0) return false;
        for (std::string_view rest(buf, static_cast<std::size_t>(n)); !rest.empty();) {
            const std::string_view text = rest.substr(0, rest.find('\0'));
            if (!text.empty() && cmdline_in(cl, text.data(), static_cast<int>(text.size())) < 0) return false;
            rest.remove_prefix(text.size());
            if (rest.empty()) break;
            rest.remove_prefix(1);  // the NUL
            ++ctx.errors;
            cmdline_printf(cl, "\nerror: a NUL byte is not part of a command; refused\n");
            rdline_redisplay(cmdline_get_rdline(cl));
        }
    }
    return true;
}

// The SM's configuration from its options: the routing options' files are read here, once (a
// bad one stops weft at start); the guid2lid file before every heavy sweep, as weft-sm does.
weft::control::fabric::SmServiceConfig sm_config(const weft::app::SmOptions &o) {
    using namespace weft;
    control::fabric::SmServiceConfig c;
    c.engine = o.engine;
    c.runner.chain = o.route.chain;
    c.runner.routing = routing::tools::routing_options(o.route);
    // The SM runs on the control lcore: its routing and verification stay on it rather than
    // taking the workers' CPUs.
    c.runner.verify_threads = 1;
    if (c.runner.routing.nue_threads == 0) c.runner.routing.nue_threads = 1;
    c.runner.ignore_existing_lfts = o.route.ignore_existing_lfts;
    c.runner.sweep_interval = std::chrono::seconds(o.sweep_seconds);
    if (!o.vms.empty()) c.runner.vms = routing::parse_vm_spec(o.vms);
    if (!o.route.mcast_groups.empty())
        c.runner.mcast_groups =
            routing::read_mcast_groups(routing::read_text_file(o.route.mcast_groups), o.route.mcast_groups);
    if (!o.route.guid2lid.empty())
        c.runner.guid2lid = [file = o.route.guid2lid] {
            return std::ifstream(file).good() ? routing::read_guid2lid(routing::read_text_file(file), file)
                                              : std::vector<routing::Guid2LidEntry>{};
        };
    if (o.ethernet) {
        sm::EthernetOptions e;
        e.ars.max_extra_hops = o.route.ars_max_extra_hops;
        e.ars.max_alternates = o.route.ars_max_alternates;
        c.runner.ethernet = e;
    }
    return c;
}

int run(int argc, char **argv) {
    using namespace weft;
    const int eal_args = rte_eal_init(argc, argv);
    if (eal_args < 0) {
        std::fprintf(stderr, "weft: cannot initialise EAL\n");
        return 1;
    }
    // What follows `--` (EAL consumed it) is ours; keep argv[0] as the program name.
    argv[eal_args] = argv[0];
    const app::AppOptionsParse parsed_options = app::parse_app_options(argc - eal_args, argv + eal_args);
    if (parsed_options.help) {
        app::print_app_usage(argv[0]);
        return 0;
    }
    if (!parsed_options.options) {
        std::fprintf(stderr, "weft: %s (weft -- --help lists the options)\n", parsed_options.error.c_str());
        return 2;
    }
    const app::AppOptions *options = &*parsed_options.options;

    dataplane::DataplaneConfig dp_config = options->dataplane;
    dp_config.punt_arp = options->linux_cp;  // the kernel mirror answers ARP
    auto dp = std::make_unique<dataplane::Dataplane>(dp_config);
    dataplane::FibConfig fib_config = options->fib;
    fib_config.num_ports = dp->num_ports();
    fib_config.rcu = dp->publisher().qsbr();  // groups the tables drop wait for the workers
    auto fib_owner = std::make_unique<dataplane::FibBuilder>(fib_config);
    dataplane::FibBuilder &fib = *fib_owner;
    control::CommandContext ctx;
    ctx.dp = dp.get();
    ctx.fib = &fib;
    // ARS: the quality sampler thread, per-worker monitoring logs, the first configuration.
    auto sampler = std::make_unique<dataplane::ArsSampler>(*dp);
    ctx.sampler = sampler.get();
    ctx.ticks_per_us = std::max<std::uint64_t>(1, rte_get_tsc_hz() / 1000000);
    for (unsigned w = 0; w < dp->num_workers(); ++w)
        ctx.monitor_logs.push_back(std::make_unique<control::MonitorLog>());
    dp->set_ars_monitor(&control::monitor_hook_for, &ctx.monitor_logs);
    control::ars_init(ctx);
    cmdline_parse_ctx_t *commands = control::command_set(ctx);
    if (!control::commit(ctx, nullptr)) return 1;
    for (std::uint16_t p = 0; p < dp->num_ports(); ++p) {
        if (auto s = dp->port_start(p); !s.ok()) {
            std::fprintf(stderr, "weft: %s\n", s.message().c_str());
            return 1;
        }
    }
    // Every weft is a managed switch: its SMA answers SMPs on the fabric ports.
    control::fabric::SwitchAgentConfig sma_config;
    sma_config.node_guid = options->node_guid;
    sma_config.description = options->node_desc;
    sma_config.ethernet = options->ethernet;
    sma_config.iboe_ethertype = options->dataplane.parser.iboe_ethertype;
    if (options->fabric_all)
        for (std::uint16_t p = 0; p < dp->num_ports(); ++p) sma_config.fabric_ports.push_back(p);
    else
        sma_config.fabric_ports = options->fabric_ports;
    auto agent = std::make_unique<control::fabric::SwitchAgent>(ctx, std::move(sma_config));
    ctx.sma = agent.get();
    // The SM inside this switch: always there for `sm start`, running from here with --sm.
    auto sm_service = std::make_unique<control::fabric::SmService>(*agent, sm_config(options->sm));
    ctx.sm = sm_service.get();
    if (options->sm.enabled) sm_service->start();
    // The FPM server for FRR's zebra: polled by the control loop, listening from the start with --fpm.
    control::FpmConfig fpm_config;
    fpm_config.address = options->fpm_address;
    fpm_config.port = options->fpm_port;
    fpm_config.grace = std::chrono::seconds(options->fpm_grace_s);
    fpm_config.allow_remote = options->fpm_allow_remote;
    fpm_config.kernel_routes = !options->linux_cp;  // the mirror owns connected subnets
    auto fpm = std::make_unique<control::FpmServer>(ctx, fpm_config);
    ctx.fpm = fpm.get();
    if (options->fpm) {
        if (auto s = fpm->listen(); !s.ok()) {
            std::fprintf(stderr, "weft: %s\n", s.message().c_str());
            return 1;
        }
        std::printf("weft: fpm listening on %s port %u\n", fpm_config.address.c_str(), fpm_config.port);
    }
    // The kernel mirror: a TAP per port, after the ports have their MACs and the SMA its frame
    // ports (it takes the punted frames that are not SMPs).
    std::unique_ptr<control::lcp::LinuxCp> lcp;
    if (options->linux_cp) {
        control::lcp::LinuxCpConfig lc;
        lc.names = options->linux_cp_names;
        lc.iboe_ethertype = options->dataplane.parser.iboe_ethertype;
        lcp = std::make_unique<control::lcp::LinuxCp>(ctx, std::move(lc));
        ctx.lcp = lcp.get();
        for (std::uint16_t p = 0; p < dp->num_ports(); ++p)
            if (!dp->port_status(p).control_tx)
                std::fprintf(stderr,
                             "weft: warning: port %u has no control TX queue, the kernel's frames cannot "
                             "leave it\n",
                             p);
    }
    for (std::uint16_t p = 0; p < dp->num_ports(); ++p)
        if (agent->fabric_port(p) && !dp->port_status(p).control_tx)
            std::fprintf(
                stderr,
                "weft: warning: fabric port %u has no control TX queue, SMPs cannot leave it (the PMD "
                "must take one TX queue more than the workers use; net_af_packet: qpairs = --rxq = "
                "--nb-cores x --txq + 1)\n",
                p);
    // ARN: its state's owner runs on the sampler's thread; the tables follow the SMA's fabric
    // ports and node GUID.
    auto arn_agent = std::make_unique<dataplane::ArnAgent>(*dp, ctx.ticks_per_us);
    sampler->set_arn_agent(arn_agent.get());
    ctx.arn_agent = arn_agent.get();
    control::refresh_arn(ctx);
    dataplane::register_telemetry(*dp);
    dataplane::register_arn_telemetry(*dp, *arn_agent);
    if (!control::register_fpm_telemetry()) std::fprintf(stderr, "weft: warning: /weft/fpm not registered\n");
    std::printf("weft: %u ports, %u workers, %u RX queues per port, %u TX queues per worker\n",
                dp->num_ports(), dp->num_workers(), dp->config().rx_queues, dp->config().tx_queues);
    std::fflush(stdout);  // the commands' output goes straight to the file descriptor

    if (!options->cmdline_file.empty()) {
        std::ifstream in(options->cmdline_file);
        if (!in) {
            std::fprintf(stderr, "weft: cannot read %s\n", options->cmdline_file.c_str());
            return 1;
        }
        // No prompt: cmdline_new prints it at once, and each line is echoed with one below.
        cmdline *cl = cmdline_new(commands, "", -1, STDOUT_FILENO);
        if (cl == nullptr) return 1;
        for (std::string line; !ctx.quit && std::getline(in, line);) control::run_input_line(ctx, cl, line);
        cmdline_free(cl);
        std::printf("weft: cmdline-file %s done, %u errors\n", options->cmdline_file.c_str(), ctx.errors);
    }
    std::fflush(stdout);

    // The script is read whole before forwarding starts, so a bad one stops weft right here.
    std::optional<control::ScriptRunner> script;
    if (!options->script.empty()) {
        std::ifstream in(options->script);
        if (!in) {
            std::fprintf(stderr, "weft: cannot read %s\n", options->script.c_str());
            return 1;
        }
        std::ostringstream text;
        text << in.rdbuf();
        control::ScriptParse parsed = control::parse_script(text.str(), options->script);
        if (!parsed.ok()) {
            std::fprintf(stderr, "weft: %s\n", parsed.error.c_str());
            return 2;
        }
        script.emplace(std::move(parsed.steps));
    }

    if (!ctx.quit) {
        if (auto s = dp->start(); !s.ok()) {
            std::fprintf(stderr, "weft: %s\n", s.message().c_str());
            return 1;
        }
        sampler->start();
        std::signal(SIGINT, on_signal);
        std::signal(SIGTERM, on_signal);
        // A terminal gets DPDK's line editor (completion, history); piped input is read line by
        // line so that every refused line is counted and answered with the usage. The prompt
        // opens once the script, if any, is done.
        const bool tty = isatty(STDIN_FILENO) != 0;
        cmdline *cl = nullptr;
        cmdline *piped = nullptr;
        auto open_prompt = [&] {
            if (!options->interactive) return;
            if (tty)
                cl = cmdline_stdin_new(commands, "weft> ");
            else
                piped = cmdline_new(commands, "", -1, STDOUT_FILENO);  // echoes itself
        };
        if (!script) open_prompt();
        std::string pending;
        cmdline *monitor_out = cmdline_new(commands, "", -1, STDOUT_FILENO);
        const std::uint64_t hz = rte_get_tsc_hz();
        const std::uint64_t t0 = rte_get_tsc_cycles();
        // run_time_s is at most a year (the option refuses more), which fits 64-bit TSC cycles.
        const auto deadline =
            options->run_time_s > 0
                ? t0 + static_cast<std::uint64_t>(options->run_time_s * static_cast<double>(hz))
                : 0;
        // The control loop: script or commands, link state, reclamation of old snapshots.
        std::vector<int> watched;  // the sockets its sleep also wakes for
        while (!ctx.quit && !g_signalled.load()) {
            if (script && monitor_out != nullptr) {
                const double now_s = static_cast<double>(rte_get_tsc_cycles() - t0) / static_cast<double>(hz);
                if (!script->run(ctx, monitor_out, now_s)) {
                    script.reset();
                    std::printf("weft: script %s done, %u errors\n", options->script.c_str(), ctx.errors);
                    std::fflush(stdout);
                    if (ctx.quit || !options->interactive) break;
                    open_prompt();
                }
            }
            if (cl != nullptr && !feed_stdin(ctx, cl)) break;
            if (piped != nullptr && !feed_lines(ctx, piped, pending)) break;
            dp->poll_links();
            dp->publisher().reclaim();
            control::refresh_fpm_telemetry(fpm.get());
            if (monitor_out != nullptr) control::print_monitor_events(ctx, monitor_out);
            if (deadline != 0 && rte_get_tsc_cycles() >= deadline) break;
            // The SMA between rounds: punted frames answered as soon as the workers ring the
            // doorbell (an SMP crosses the fabric hop by hop through every switch's control
            // thread), zebra's messages, the kernel's frames and netlink news as soon as their
            // sockets are readable; the rest of the loop at least every link_poll_ms.
            const auto round_end =
                std::chrono::steady_clock::now() + std::chrono::milliseconds(options->link_poll_ms);
            while (std::chrono::steady_clock::now() < round_end) {
                agent->poll();  // punted frames: SMPs to the SMA, the rest to the mirror
                if (lcp) lcp->poll();
                sm_service->poll();  // a heavy sweep, when one is due, runs to its end here
                fpm->poll();         // zebra's messages waiting, applied as one commit
                watched.clear();
                if (lcp) lcp->watched_fds(watched);
                fpm->watched_fds(watched);
                dp->wait_punted(std::chrono::microseconds(kSmaStepUs), watched);
            }
        }
        if (cl != nullptr) cmdline_stdin_exit(cl);
        if (piped != nullptr) cmdline_free(piped);
        if (monitor_out != nullptr) {
            control::print_monitor_events(ctx, monitor_out);
            cmdline_free(monitor_out);
        }
    }

    sampler->stop();
    dp->stop();
    cmdline *out = cmdline_new(commands, "", -1, STDOUT_FILENO);
    if (out != nullptr) {
        control::print_port_stats(ctx, out);
        cmdline_free(out);
    }
    std::printf("weft: bye (%u command errors)\n", ctx.errors);
    ctx.fpm = nullptr;
    control::refresh_fpm_telemetry(nullptr);
    fpm.reset();
    ctx.lcp = nullptr;
    lcp.reset();
    ctx.sm = nullptr;
    sm_service.reset();
    ctx.sma = nullptr;
    agent.reset();  // it holds mbufs of the dataplane's pool
    sampler.reset();
    dp.reset();
    fib_owner.reset();  // its DPDK tables must go before EAL does
    rte_eal_cleanup();
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "weft: %s\n", e.what());
        return 1;
    }
}
