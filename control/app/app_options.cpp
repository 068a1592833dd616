#include "app_options.hpp"

#include "weft/dataplane/ip_addr.hpp"

#include <getopt.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <vector>

namespace weft::app {

namespace {

// Decimal, or hexadecimal with an explicit 0x: a leading 0 is not octal ("010" is ten).
// `min` is not negative.
template <typename T>
bool to_number(const char *text, T &out, T min, T max) {
    std::string_view s(text);
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s.remove_prefix(2);
        base = 16;
    }
    unsigned long long v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() ||
        v < static_cast<unsigned long long>(min) || v > static_cast<unsigned long long>(max))
        return false;
    out = static_cast<T>(v);
    return true;
}

// Seconds: a plain decimal number (no inf, nan or hex float), 0 < s <= kMaxRunTimeSeconds.
bool to_seconds(const char *text, double &out) {
    const std::string_view s(text);
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::general);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v) || !(v > 0) ||
        v > kMaxRunTimeSeconds)
        return false;
    out = v;
    return true;
}

std::string range(unsigned long long min, unsigned long long max) {
    return "a number " + std::to_string(min) + ".." + std::to_string(max);
}

enum Opt {
    kNbCores = 256,
    kRxq,
    kTxq,
    kBurst,
    kCmdlineFile,
    kIboeEtherType,
    kRunTime,
    kRxd,
    kTxd,
    kMbufs,
    kNoCsum,
    kNoCsumOffload,
    kScript,
    kFib4Routes,
    kFib4Tbl8,
    kFib6Routes,
    kFib6Tbl8,
    kIdleSleepMax,
    kNodeGuid,
    kNodeDesc,
    kFabricPorts,
    kEthernet,
    kFpm,
    kFpmAddress,
    kFpmPort,
    kFpmGrace,
    kFpmAllowRemote,
    kLinuxCp,
    kLinuxCpNames,
};

// "all", or port numbers separated by commas ("0,2,3").
bool to_port_list(const char *text, bool &all, std::vector<std::uint16_t> &out) {
    const std::string_view s(text);
    if (s == "all") {
        all = true;
        return true;
    }
    std::vector<std::uint16_t> ports;
    std::size_t start = 0;
    while (start <= s.size()) {
        const std::size_t comma = std::min(s.find(',', start), s.size());
        const std::string item(s.substr(start, comma - start));
        std::uint16_t p = 0;
        if (!to_number<std::uint16_t>(item.c_str(), p, 0, RTE_MAX_ETHPORTS - 1)) return false;
        ports.push_back(p);
        start = comma + 1;
    }
    all = false;
    out = std::move(ports);
    return true;
}

}  // namespace

void print_app_usage(const char *prog) {
    std::printf(
        "usage: %s [EAL options] -- [options]\n"
        "  -i, --interactive        testpmd-style weft> prompt\n"
        "  --cmdline-file FILE      run the commands in FILE before forwarding starts\n"
        "  --script FILE            run FILE's commands while forwarding (`sleep <s>` lines pause it),\n"
        "                           then give the prompt (-i) or exit\n"
        "  --nb-cores N             worker lcores (default: every worker lcore EAL has)\n"
        "  --rxq N                  RX queues per port, spread by RSS (default 1)\n"
        "  --txq N                  TX queues per worker per port, one per VL class (default 1, max %u)\n"
        "  --burst N                RX/TX burst size (default 32, max %u)\n"
        "  --rxd N / --txd N        descriptors per RX / TX queue (default 1024)\n"
        "  --mbufs N                mbufs in the pool (default 16383)\n"
        "  --iboe-ethertype T       EtherType of IB-over-Ethernet frames (default 0x88B5)\n"
        "  --no-ipv4-csum-check     accept IPv4 headers without verifying their checksum\n"
        "  --no-rx-csum-offload     verify IPv4 header checksums in software even where the NIC can\n"
        "  --fib4-max-routes N      IPv4 routes the FIB holds (default %d)\n"
        "  --fib4-tbl8-groups N     IPv4 tbl8 groups: one per /24 holding routes longer than /24\n"
        "                           (default %u, max %u)\n"
        "  --fib6-max-routes N      IPv6 routes the FIB holds (default %d)\n"
        "  --fib6-tbl8-groups N     IPv6 tbl8 groups: one per byte-aligned prefix of 16..120 bits holding\n"
        "                           longer routes (default %u, max %u; 1.25 kB each)\n"
        "  --idle-sleep-max-us N    idle back-off: a worker whose RX queues are all empty sleeps 1, 2, 4 "
        "...\n"
        "                           up to N microseconds between polls; a frame resets it (default 0: off,\n"
        "                           max %u)\n"
        "  --run-time SECONDS       exit after this long (default: until quit or a signal)\n"
        "subnet management (every weft is a managed switch; IB port p is port p - 1 here):\n"
        "  --fabric-ports all|LIST  ports that take SMPs (LIST: 0,1,3; default none; `port N fabric on`)\n"
        "  --node-guid GUID         the switch's node GUID (default: EUI-64 of port 0's MAC)\n"
        "  --node-desc TEXT         NodeDescription, at most 64 bytes (default: the host name)\n"
        "  --ethernet               Ethernet/RoCE mode from the start: take the SM's routes and groups\n"
        "                           (also turned on by the first `port N ip A/len`)\n"
        "FRR (zebra's dplane_fpm_nl module connects to weft's FPM server):\n"
        "  --fpm                    listen for zebra (default 127.0.0.1 port 2620; `fpm listen`)\n"
        "  --fpm-address ADDR       listen on ADDR (implies --fpm)\n"
        "  --fpm-port N             listen on port N (implies --fpm)\n"
        "  --fpm-grace SECONDS      a reconnected zebra's time to replay before stale routes go (default "
        "30)\n"
        "  --fpm-allow-remote       take FPM connections from non-loopback addresses too\n"
        "Linux control-plane mirror (a kernel TAP per port for FRR and the kernel's stack):\n"
        "  --linux-cp               on: port N is interface weftN, addresses and neighbours from the kernel\n"
        "  --linux-cp-names LIST    on, with these interface names for ports 0, 1, ... (the rest weftN)\n"
        "  -h, --help               this text\n"
        "numbers are decimal, or hexadecimal with 0x (the routing options: also 0 octal, as "
        "weft-route's)\n\n",
        prog, dataplane::kMaxTxQueuesPerWorker, dataplane::kMaxBurst, dataplane::FibConfig{}.max_routes4,
        dataplane::FibConfig{}.tbl8_groups4, dataplane::kMaxTbl8Groups, dataplane::FibConfig{}.max_routes6,
        dataplane::FibConfig{}.tbl8_groups6, dataplane::kMaxTbl8Groups6, kMaxIdleSleepUs);
    std::fputs(sm_usage().c_str(), stdout);
}

AppOptionsParse parse_app_options(int argc, char **argv) {
    static const option own[] = {
        {"interactive", no_argument, nullptr, 'i'},
        {"help", no_argument, nullptr, 'h'},
        {"nb-cores", required_argument, nullptr, kNbCores},
        {"rxq", required_argument, nullptr, kRxq},
        {"txq", required_argument, nullptr, kTxq},
        {"burst", required_argument, nullptr, kBurst},
        {"cmdline-file", required_argument, nullptr, kCmdlineFile},
        {"script", required_argument, nullptr, kScript},
        {"iboe-ethertype", required_argument, nullptr, kIboeEtherType},
        {"run-time", required_argument, nullptr, kRunTime},
        {"rxd", required_argument, nullptr, kRxd},
        {"txd", required_argument, nullptr, kTxd},
        {"mbufs", required_argument, nullptr, kMbufs},
        {"no-ipv4-csum-check", no_argument, nullptr, kNoCsum},
        {"no-rx-csum-offload", no_argument, nullptr, kNoCsumOffload},
        {"fib4-max-routes", required_argument, nullptr, kFib4Routes},
        {"fib4-tbl8-groups", required_argument, nullptr, kFib4Tbl8},
        {"fib6-max-routes", required_argument, nullptr, kFib6Routes},
        {"fib6-tbl8-groups", required_argument, nullptr, kFib6Tbl8},
        {"idle-sleep-max-us", required_argument, nullptr, kIdleSleepMax},
        {"node-guid", required_argument, nullptr, kNodeGuid},
        {"node-desc", required_argument, nullptr, kNodeDesc},
        {"fabric-ports", required_argument, nullptr, kFabricPorts},
        {"ethernet", no_argument, nullptr, kEthernet},
        {"fpm", no_argument, nullptr, kFpm},
        {"fpm-address", required_argument, nullptr, kFpmAddress},
        {"fpm-port", required_argument, nullptr, kFpmPort},
        {"fpm-grace", required_argument, nullptr, kFpmGrace},
        {"fpm-allow-remote", no_argument, nullptr, kFpmAllowRemote},
        {"linux-cp", no_argument, nullptr, kLinuxCp},
        {"linux-cp-names", required_argument, nullptr, kLinuxCpNames},
    };
    // weft's own options, then the SM's (--sm and the routing options).
    static const std::vector<option> all = [] {
        std::vector<option> v(std::begin(own), std::end(own));
        v.insert(v.end(), sm_long_options().begin(), sm_long_options().end());
        v.push_back({nullptr, 0, nullptr, 0});
        return v;
    }();
    const option *longopts = all.data();
    static const std::string shorts = std::string(":ih") + kSmShortOptions;
    AppOptionsParse r;
    AppOptions o;
    auto &dp = o.dataplane;
    // getopt's state is global: 0 re-initialises it fully (EAL has run getopt before us, and a
    // cluster like -ix left half-read would otherwise carry over). Its own messages are off: ours
    // name the option.
    optind = 0;
    opterr = 0;
    for (int c, index = -1; (c = getopt_long(argc, argv, shorts.c_str(), longopts, &index)) != -1;
         index = -1) {
        const std::string name = index >= 0 ? std::string("--") + longopts[index].name : std::string();
        std::string expected;
        if (c != ':' && c != '?') {
            try {
                if (parse_sm_option(c, optarg, o.sm)) continue;
            } catch (const routing::tools::UsageError &e) {
                r.error = e.what();
                return r;
            }
        }
        switch (c) {
            case 'i':
                o.interactive = true;
                break;
            case kNbCores:
                if (!to_number<unsigned>(optarg, dp.nb_workers, 1, RTE_MAX_LCORE))
                    expected = range(1, RTE_MAX_LCORE);
                break;
            case kRxq:
                if (!to_number<std::uint16_t>(optarg, dp.rx_queues, 1, 1024)) expected = range(1, 1024);
                break;
            case kTxq:
                if (!to_number<std::uint16_t>(optarg, dp.tx_queues, 1, dataplane::kMaxTxQueuesPerWorker))
                    expected = range(1, dataplane::kMaxTxQueuesPerWorker);
                break;
            case kBurst:
                if (!to_number<std::uint16_t>(optarg, dp.burst, 1, dataplane::kMaxBurst))
                    expected = range(1, dataplane::kMaxBurst);
                break;
            case kRxd:
                if (!to_number<std::uint16_t>(optarg, dp.rx_desc, 32, 32768)) expected = range(32, 32768);
                break;
            case kTxd:
                if (!to_number<std::uint16_t>(optarg, dp.tx_desc, 32, 32768)) expected = range(32, 32768);
                break;
            case kMbufs:
                if (!to_number<unsigned>(optarg, dp.mbufs, 1024, 1u << 24)) expected = range(1024, 1u << 24);
                break;
            case kIboeEtherType:
                if (!to_number<std::uint16_t>(optarg, dp.parser.iboe_ethertype, 0x0600, 0xFFFF) ||
                    dp.parser.iboe_ethertype == 0x0800 || dp.parser.iboe_ethertype == 0x86DD ||
                    dp.parser.iboe_ethertype == 0x8100 || dp.parser.iboe_ethertype == 0x88A8)
                    expected = "an EtherType 0x0600..0xFFFF other than IPv4's, IPv6's and the VLAN tags'";
                break;
            case kFib4Routes:
                if (!to_number<int>(optarg, o.fib.max_routes4, 16, dataplane::kMaxFibRoutes))
                    expected = range(16, dataplane::kMaxFibRoutes);
                break;
            case kFib4Tbl8:
                if (!to_number<std::uint32_t>(optarg, o.fib.tbl8_groups4, 2, dataplane::kMaxTbl8Groups))
                    expected = range(2, dataplane::kMaxTbl8Groups);
                break;
            case kFib6Routes:
                if (!to_number<int>(optarg, o.fib.max_routes6, 16, dataplane::kMaxFibRoutes))
                    expected = range(16, dataplane::kMaxFibRoutes);
                break;
            case kFib6Tbl8:
                if (!to_number<std::uint32_t>(optarg, o.fib.tbl8_groups6, 2, dataplane::kMaxTbl8Groups6))
                    expected = range(2, dataplane::kMaxTbl8Groups6);
                break;
            case kIdleSleepMax:
                if (!to_number<unsigned>(optarg, dp.idle_sleep_max_us, 0, kMaxIdleSleepUs))
                    expected = range(0, kMaxIdleSleepUs);
                break;
            case kNodeGuid:
                if (!to_number<std::uint64_t>(optarg, o.node_guid, 1, UINT64_MAX))
                    expected = "a non-zero 64-bit GUID";
                break;
            case kNodeDesc:
                o.node_desc = optarg;
                if (o.node_desc.size() > 64) expected = "at most 64 bytes";
                break;
            case kFabricPorts:
                if (!to_port_list(optarg, o.fabric_all, o.fabric_ports))
                    expected = "all, or port numbers 0.." + std::to_string(RTE_MAX_ETHPORTS - 1) +
                               " separated by commas";
                break;
            case kEthernet:
                o.ethernet = true;
                break;
            case kFpm:
                o.fpm = true;
                break;
            case kFpmAddress:
                o.fpm = true;
                o.fpm_address = optarg;
                if (!dataplane::IpAddr::parse(o.fpm_address)) expected = "an IPv4 or IPv6 address";
                break;
            case kFpmPort:
                o.fpm = true;
                if (!to_number<std::uint16_t>(optarg, o.fpm_port, 1, 65535)) expected = range(1, 65535);
                break;
            case kFpmGrace:
                if (!to_number<unsigned>(optarg, o.fpm_grace_s, 1, kMaxFpmGraceS))
                    expected = range(1, kMaxFpmGraceS);
                break;
            case kFpmAllowRemote:
                o.fpm_allow_remote = true;
                break;
            case kLinuxCp:
                o.linux_cp = true;
                break;
            case kLinuxCpNames: {
                o.linux_cp = true;
                o.linux_cp_names.clear();
                const std::string text = optarg;
                for (std::size_t start = 0;;) {
                    const std::size_t comma = text.find(',', start);
                    o.linux_cp_names.push_back(text.substr(start, comma - start));
                    const std::string &n = o.linux_cp_names.back();
                    if (n.empty() || n.size() > 15 || n.find_first_of("/ \t\n:") != std::string::npos)
                        expected =
                            "interface names of 1..15 characters (no '/', ':' or blanks) separated by commas";
                    if (comma == std::string::npos) break;
                    start = comma + 1;
                }
                break;
            }
            case kNoCsum:
                dp.parser.verify_ipv4_checksum = false;
                break;
            case kNoCsumOffload:
                dp.rx_ipv4_cksum_offload = false;
                break;
            case kCmdlineFile:
                o.cmdline_file = optarg;
                break;
            case kScript:
                o.script = optarg;
                break;
            case kRunTime:
                if (!to_seconds(optarg, o.run_time_s))
                    expected = "seconds, more than 0 and at most " +
                               std::to_string(static_cast<unsigned long long>(kMaxRunTimeSeconds));
                break;
            case 'h':
                r.help = true;
                return r;
            case ':':  // a value is missing
                r.error = std::string(argv[optind - 1]) + ": expected a value after it";
                return r;
            default: {  // '?': not one of ours, an ambiguous abbreviation, or a value given to a flag
                for (const option *l = longopts; l->name != nullptr; ++l)
                    if (optopt != 0 && l->val == optopt && l->has_arg == no_argument) {
                        r.error = std::string("--") + l->name + ": takes no value";
                        return r;
                    }
                r.error = (optopt != 0 ? std::string("-") + static_cast<char>(optopt)
                                       : std::string(argv[optind - 1])) +
                          ": unknown option";
                return r;
            }
        }
        if (!expected.empty()) {
            r.error = name + ": expected " + expected + ", got '" + optarg + "'";
            return r;
        }
    }
    if (optind < argc) {
        r.error = std::string("unexpected argument '") + argv[optind] + "' (options start with --)";
        return r;
    }
    try {
        check_sm_options(o.sm);
    } catch (const routing::tools::UsageError &e) {
        r.error = e.what();
        return r;
    }
    r.options = std::move(o);
    return r;
}

}  // namespace weft::app
