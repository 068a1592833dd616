#include "ca_args.hpp"

#include <getopt.h>

#include <cstring>
#include <vector>

#include "weft/sm/iboe_frame.hpp"

namespace weft::sm::tools {

namespace rt = weft::routing::tools;

namespace {

const char *const kHead = R"(usage: weft-ca --if IFACE --guid GUID [options]

An InfiniBand CA end node on a Linux interface, in weft's IB-over-Ethernet frames: answers the
SM's SMPs (NodeInfo, PortInfo, ...) as a CA, takes the LID the SM gives it, and sends and counts
data frames addressed by LID (UD SEND_ONLY to QP 2, a sequence number in each).

Node
  --if IFACE               the interface (one port, port 1); needs CAP_NET_RAW
  --ethertype N            of weft's IBoE frames (default 0x88B5)
  --guid GUID              node GUID (non-zero)
  --port-guid GUID         port GUID (default GUID + 1)
  --desc TEXT              NodeDescription (default "weft-ca IFACE")

Subnet manager
  --sm                     also be the SM (on port 1): heavy sweeps with -R's engines
  --sweep MS               between heavy sweeps (default 1000)
  --max_wire_smps N --transaction_timeout MS --transaction_retries N  (defaults 4, 100 ms, 3)

Traffic
  --send-to LID[,LID...]   send data frames to each LID in turn once the port is ACTIVE
  --count N                that many to each (default: until --duration ends)
  --rate N                 frames per second (default 1000)
  --payload N              bytes per frame, 24..8156 (default 64)
  --sl N                   service level (default 0)
  --receive                count the data frames addressed to this port's LID
  --expect N               done once N frames arrived
  --duration S             stop after S seconds (default: when done; exit 1 if not done)
  --linger MS              once done, go on answering SMPs this long (default 500)
  --report MS              also print the summary as one JSON line every MS while running
  --json                   the summary as JSON

)";

const char *const kTail = R"(
Exit status: 0 done (sent --count and received --expect), 1 not done when --duration ended,
2 usage, 3 the interface cannot be opened.
)";

}  // namespace

CaArgs parse_ca_args(int argc, char **argv) {
    enum {
        kIf = rt::kOptFirstTool,
        kEthertype,
        kGuid,
        kPortGuid,
        kDesc,
        kSm,
        kSweep,
        kMaxWire,
        kTimeout,
        kRetries,
        kSendTo,
        kCount,
        kRate,
        kPayload,
        kSl,
        kReceive,
        kExpect,
        kDuration,
        kLinger,
        kJson,
        kReport,
    };
    std::vector<option> opts = {
        {"if", required_argument, nullptr, kIf},
        {"ethertype", required_argument, nullptr, kEthertype},
        {"guid", required_argument, nullptr, kGuid},
        {"port-guid", required_argument, nullptr, kPortGuid},
        {"desc", required_argument, nullptr, kDesc},
        {"sm", no_argument, nullptr, kSm},
        {"sweep", required_argument, nullptr, kSweep},
        {"max_wire_smps", required_argument, nullptr, kMaxWire},
        {"transaction_timeout", required_argument, nullptr, kTimeout},
        {"transaction_retries", required_argument, nullptr, kRetries},
        {"send-to", required_argument, nullptr, kSendTo},
        {"count", required_argument, nullptr, kCount},
        {"rate", required_argument, nullptr, kRate},
        {"payload", required_argument, nullptr, kPayload},
        {"sl", required_argument, nullptr, kSl},
        {"receive", no_argument, nullptr, kReceive},
        {"expect", required_argument, nullptr, kExpect},
        {"duration", required_argument, nullptr, kDuration},
        {"linger", required_argument, nullptr, kLinger},
        {"json", no_argument, nullptr, kJson},
        {"report", required_argument, nullptr, kReport},
        {"help", no_argument, nullptr, 'h'},
    };
    opts.insert(opts.end(), rt::engine_long_options().begin(), rt::engine_long_options().end());
    opts.push_back({nullptr, 0, nullptr, 0});
    const std::string shorts = std::string(":") + rt::kEngineShortOptions + "h";
    CaArgs a;
    a.route.chain = "minhop";
    optind = 0;
    opterr = 0;
    auto num = [](const char *opt, std::uint64_t max) { return rt::parse_number(opt, optarg, max); };
    int c;
    while ((c = getopt_long(argc, argv, shorts.c_str(), opts.data(), nullptr)) != -1) {
        if (rt::parse_engine_option(c, optarg, a.route)) continue;
        switch (c) {
            case kIf:
                a.ifname = optarg;
                break;
            case kEthertype:
                a.ethertype = static_cast<std::uint16_t>(num("--ethertype", 0xFFFF));
                if (a.ethertype < 0x0600) throw rt::UsageError("--ethertype: 0x0600..0xFFFF (an EtherType)");
                break;
            case kGuid:
                a.guid = num("--guid", ~0ull);
                if (a.guid == 0) throw rt::UsageError("--guid: non-zero");
                break;
            case kPortGuid:
                a.port_guid = num("--port-guid", ~0ull);
                break;
            case kDesc:
                a.description = optarg;
                if (a.description.size() > 64) throw rt::UsageError("--desc: at most 64 bytes");
                break;
            case kSm:
                a.sm = true;
                break;
            case kSweep:
                a.sweep_ms = static_cast<unsigned>(num("--sweep", 3'600'000));
                break;
            case kMaxWire:
                a.engine.max_wire_smps = num("--max_wire_smps", 4096);
                if (a.engine.max_wire_smps == 0) throw rt::UsageError("--max_wire_smps: at least 1");
                break;
            case kTimeout:
                a.engine.timeout = std::chrono::milliseconds(num("--transaction_timeout", 60000));
                break;
            case kRetries:
                a.engine.max_retries = static_cast<unsigned>(num("--transaction_retries", 100));
                break;
            case kSendTo:
                a.send_to.clear();
                for (const char *p = optarg; *p != '\0';) {
                    const char *comma = std::strchr(p, ',');
                    const std::string one = comma ? std::string(p, comma) : std::string(p);
                    const auto lid =
                        static_cast<Lid>(rt::parse_number("--send-to", one.c_str(), kMaxUnicastLid));
                    if (lid == 0) throw rt::UsageError("--send-to: a unicast LID, 1..0xBFFF");
                    a.send_to.push_back(lid);
                    if (!comma) break;
                    p = comma + 1;
                    if (*p == '\0') throw rt::UsageError("--send-to: a LID after the comma");
                }
                break;
            case kCount:
                a.count = num("--count", ~0ull);
                break;
            case kRate:
                a.rate = static_cast<unsigned>(num("--rate", 10'000'000));
                if (a.rate == 0) throw rt::UsageError("--rate: at least 1");
                break;
            case kPayload:
                a.payload = static_cast<unsigned>(num("--payload", kMaxIboePayload));
                if (a.payload < 24) throw rt::UsageError("--payload: 24..8156");
                break;
            case kSl:
                a.sl = static_cast<std::uint8_t>(num("--sl", 15));
                break;
            case kReceive:
                a.receive = true;
                break;
            case kExpect:
                a.expect = num("--expect", ~0ull);
                a.receive = true;
                break;
            case kDuration:
                a.duration_s = static_cast<unsigned>(num("--duration", 86400));
                break;
            case kLinger:
                a.linger_ms = static_cast<unsigned>(num("--linger", 600'000));
                break;
            case kReport:
                a.report_ms = static_cast<unsigned>(num("--report", 600'000));
                break;
            case kJson:
                a.json = true;
                break;
            case 'h':
                a.route.help = true;
                return a;
            default:
                rt::throw_getopt_error(c, argv);
        }
    }
    rt::check_no_operands(argc, argv);
    if (a.ifname.empty()) throw rt::UsageError("--if: required");
    if (a.guid == 0) throw rt::UsageError("--guid: required");
    rt::check_chain(a.route.chain);
    return a;
}

std::string ca_usage() {
    return std::string(kHead) + rt::kEngineUsage + kTail;
}

}  // namespace weft::sm::tools
