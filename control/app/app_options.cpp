#include "app_options.hpp"

#include <getopt.h>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace weft::app {

namespace {

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
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v < min || v > max) return false;
    out = static_cast<T>(v);
    return true;
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
};

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
        "  --run-time SECONDS       exit after this long (default: until quit or a signal)\n"
        "  -h, --help               this text\n",
        prog, dataplane::kMaxTxQueuesPerWorker, dataplane::kMaxBurst);
}

std::optional<AppOptions> parse_app_options(int argc, char **argv) {
    static const option longopts[] = {
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
        {nullptr, 0, nullptr, 0},
    };
    AppOptions o;
    auto &dp = o.dataplane;
    optind = 1;  // EAL has consumed its part; parse ours from the start
    for (int c; (c = getopt_long(argc, argv, "ih", longopts, nullptr)) != -1;) {
        bool ok = true;
        switch (c) {
            case 'i':
                o.interactive = true;
                break;
            case kNbCores:
                ok = to_number<unsigned>(optarg, dp.nb_workers, 1, RTE_MAX_LCORE);
                break;
            case kRxq:
                ok = to_number<std::uint16_t>(optarg, dp.rx_queues, 1, 1024);
                break;
            case kTxq:
                ok = to_number<std::uint16_t>(optarg, dp.tx_queues, 1, dataplane::kMaxTxQueuesPerWorker);
                break;
            case kBurst:
                ok = to_number<std::uint16_t>(optarg, dp.burst, 1, dataplane::kMaxBurst);
                break;
            case kRxd:
                ok = to_number<std::uint16_t>(optarg, dp.rx_desc, 32, 32768);
                break;
            case kTxd:
                ok = to_number<std::uint16_t>(optarg, dp.tx_desc, 32, 32768);
                break;
            case kMbufs:
                ok = to_number<unsigned>(optarg, dp.mbufs, 1024, 1u << 24);
                break;
            case kIboeEtherType:
                ok = to_number<std::uint16_t>(optarg, dp.parser.iboe_ethertype, 0x0600, 0xFFFF) &&
                     dp.parser.iboe_ethertype != 0x0800 && dp.parser.iboe_ethertype != 0x86DD &&
                     dp.parser.iboe_ethertype != 0x8100 && dp.parser.iboe_ethertype != 0x88A8;
                break;
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
            case kRunTime: {
                char *end = nullptr;
                o.run_time_s = std::strtod(optarg, &end);
                ok = end != optarg && *end == '\0' && o.run_time_s > 0;
                break;
            }
            case 'h':
                print_app_usage(argv[0]);
                return std::nullopt;
            default:
                ok = false;
                break;
        }
        if (!ok) {
            if (c != '?' && optarg != nullptr) std::fprintf(stderr, "weft: bad value '%s'\n", optarg);
            print_app_usage(argv[0]);
            return std::nullopt;
        }
    }
    if (optind < argc) {
        std::fprintf(stderr, "weft: unexpected argument '%s'\n", argv[optind]);
        print_app_usage(argv[0]);
        return std::nullopt;
    }
    return o;
}

}  // namespace weft::app
