// The scenario reader: INI-style sections of `key = value` lines, every key checked against the
// table of its section, every value read by its type (value.hpp), errors located at line and
// column. The key tables below are the file format; sim/scenarios/README.md describes them.
#include "weft/sim/scenario.hpp"

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "line_reader.hpp"
#include "value.hpp"
#include "weft/routing/parse_error.hpp"
#include "weft/routing/text_file.hpp"

namespace weft::sim {
namespace {

template <class T>
struct Key {
    std::string_view name;
    void (*set)(T &, const Value &);
};

template <class E, std::size_t N>
E choose(const Value &v, const std::array<std::pair<std::string_view, E>, N> &names) {
    for (const auto &[name, e] : names)
        if (v.text == name) return e;
    std::string expected = "one of";
    for (const auto &[name, e] : names) expected += std::string(" ") + std::string(name);
    v.fail(expected);
}

std::uint8_t byte_value(const Value &v, unsigned min, unsigned max) {
    return static_cast<std::uint8_t>(v.uint(min, max));
}
std::uint32_t u32(const Value &v, std::uint32_t min, std::uint32_t max) {
    return static_cast<std::uint32_t>(v.uint(min, max));
}
std::uint32_t whole_us(const Value &v, std::uint32_t min, std::uint32_t max) {
    const Time t = v.time();
    if (t % kUs != 0 || t / kUs < min || t / kUs > max)
        v.fail("a whole number of microseconds " + std::to_string(min) + "us.." + std::to_string(max) + "us");
    return static_cast<std::uint32_t>(t / kUs);
}

constexpr std::array<std::pair<std::string_view, Balancing>, 7> kBalancing{{
    {"ecmp", Balancing::kEcmp},
    {"flowlet_quality", Balancing::kFlowletQuality},
    {"flowlet_random", Balancing::kFlowletRandom},
    {"packet_quality", Balancing::kPacketQuality},
    {"packet_random", Balancing::kPacketRandom},
    {"spray", Balancing::kPacketRandom},
    {"fixed", Balancing::kFixed},
}};

const Key<FabricSettings> kFabricKeys[] = {
    {"topology",
     [](FabricSettings &f, const Value &v) {
         f.topology = std::string(v.word());
         f.topology_line = v.line;
     }},
    {"topology_file",
     [](FabricSettings &f, const Value &v) {
         f.topology_file = std::string(v.text);
         f.topology_line = v.line;
     }},
    {"routing", [](FabricSettings &f, const Value &v) { f.routing = std::string(v.word()); }},
    {"host_rate", [](FabricSettings &f, const Value &v) { f.host_rate = v.rate(); }},
    {"fabric_rate", [](FabricSettings &f, const Value &v) { f.fabric_rate = v.rate(); }},
    {"link_delay",
     [](FabricSettings &f, const Value &v) {
         f.link_delay = v.time();
         if (f.link_delay > 1 * kSec) v.fail("a delay of at most 1s");
     }},
    {"switch_latency",
     [](FabricSettings &f, const Value &v) {
         f.switch_latency = v.time();
         if (f.switch_latency > 1 * kSec) v.fail("a latency of at most 1s");
     }},
    {"alternates", [](FabricSettings &f, const Value &v) { f.alternates = u32(v, 0, 8); }},
    {"max_alternates", [](FabricSettings &f, const Value &v) { f.max_alternates = u32(v, 0, 64); }},
};

const Key<SwitchSettings> kSwitchKeys[] = {
    {"balancing", [](SwitchSettings &s, const Value &v) { s.balancing = choose(v, kBalancing); }},
    {"idle_time", [](SwitchSettings &s, const Value &v) { s.idle_time_us = whole_us(v, 1, 1000000); }},
    {"max_flows",
     [](SwitchSettings &s, const Value &v) {
         s.max_flows = u32(v, 1, 1u << 20);
         if ((s.max_flows & (s.max_flows - 1)) != 0) v.fail("a power of two 1..1048576");
     }},
    {"sampling_interval",
     [](SwitchSettings &s, const Value &v) { s.sampling_interval_us = whole_us(v, 1, 65535); }},
    {"ewma_exponent", [](SwitchSettings &s, const Value &v) { s.ewma_exponent = byte_value(v, 1, 16); }},
    {"past_load_weight",
     [](SwitchSettings &s, const Value &v) { s.past_load_weight = byte_value(v, 0, 255); }},
    {"future_load_weight",
     [](SwitchSettings &s, const Value &v) { s.future_load_weight = byte_value(v, 0, 255); }},
    {"current_load", [](SwitchSettings &s, const Value &v) { s.current_load = v.boolean(); }},
    {"primary_threshold", [](SwitchSettings &s, const Value &v) { s.primary_threshold = u32(v, 0, 16); }},
    {"alternate_cost", [](SwitchSettings &s, const Value &v) { s.alternate_cost = u32(v, 0, 16); }},
    {"alternate_bias", [](SwitchSettings &s, const Value &v) { s.alternate_bias = u32(v, 0, 16); }},
    {"buffer",
     [](SwitchSettings &s, const Value &v) {
         s.buffer_bytes = v.bytes();
         if (s.buffer_bytes < 1000 || s.buffer_bytes > 10000000000ull) v.fail("a buffer of 1000 bytes..10GB");
     }},
    {"ecn_kmin", [](SwitchSettings &s, const Value &v) { s.ecn_kmin = v.bytes(); }},
    {"ecn_kmax", [](SwitchSettings &s, const Value &v) { s.ecn_kmax = v.bytes(); }},
    {"ecn_pmax", [](SwitchSettings &s, const Value &v) { s.ecn_pmax = v.number(0, 1); }},
    {"pfc_xoff", [](SwitchSettings &s, const Value &v) { s.pfc_xoff = v.bytes(); }},
    {"pfc_xon", [](SwitchSettings &s, const Value &v) { s.pfc_xon = v.bytes(); }},
    {"link_detect",
     [](SwitchSettings &s, const Value &v) {
         s.link_detect = v.time();
         if (s.link_detect > 1 * kSec) v.fail("a delay of at most 1s");
     }},
};

const Key<ArnSettings> kArnKeys[] = {
    {"enabled", [](ArnSettings &a, const Value &v) { a.enabled = v.boolean(); }},
    {"util_on", [](ArnSettings &a, const Value &v) { a.util_on = u32(v, 1, 100); }},
    {"util_off", [](ArnSettings &a, const Value &v) { a.util_off = u32(v, 0, 100); }},
    {"queue_on",
     [](ArnSettings &a, const Value &v) {
         a.queue_on = v.bytes();
         if (a.queue_on == 0 || a.queue_on > (1ull << 40)) v.fail("a queue depth of 1 byte..1TB");
     }},
    {"queue_off", [](ArnSettings &a, const Value &v) { a.queue_off = v.bytes(); }},
    {"repeat_interval",
     [](ArnSettings &a, const Value &v) { a.repeat_interval_us = whole_us(v, 1, 10000000); }},
    {"min_gap", [](ArnSettings &a, const Value &v) { a.min_gap_us = whole_us(v, 0, 10000000); }},
    {"budget_burst", [](ArnSettings &a, const Value &v) { a.budget_burst = u32(v, 1, 1u << 20); }},
    {"budget_refill", [](ArnSettings &a, const Value &v) { a.budget_refill_us = whole_us(v, 1, 10000000); }},
    {"hold_intervals", [](ArnSettings &a, const Value &v) { a.hold_intervals = u32(v, 1, 1000); }},
    {"action",
     [](ArnSettings &a, const Value &v) {
         a.action = choose(v, std::array<std::pair<std::string_view, ArnAction>, 2>{
                                  {{"remove", ArnAction::kRemove}, {"penalize", ArnAction::kPenalize}}});
     }},
    {"penalty", [](ArnSettings &a, const Value &v) { a.penalty = u32(v, 1, 1000); }},
};

const Key<TransportSettings> kTransportKeys[] = {
    {"type",
     [](TransportSettings &t, const Value &v) {
         t.kind = choose(v, std::array<std::pair<std::string_view, TransportKind>, 2>{
                                {{"dctcp", TransportKind::kDctcp}, {"roce", TransportKind::kRoce}}});
     }},
    {"mtu",
     [](TransportSettings &t, const Value &v) { t.mtu = static_cast<std::uint32_t>(v.uint(256, 65536)); }},
    // At most 200 of at least 256: a packet always carries payload.
    {"header", [](TransportSettings &t, const Value &v) { t.header = u32(v, 0, 200); }},
    {"ack_size", [](TransportSettings &t, const Value &v) { t.ack_size = u32(v, 1, 1500); }},
    {"ack_every", [](TransportSettings &t, const Value &v) { t.ack_every = u32(v, 1, 64); }},
    {"min_rto",
     [](TransportSettings &t, const Value &v) {
         t.min_rto = v.time();
         if (t.min_rto < 1 * kUs || t.min_rto > 10 * kSec) v.fail("a timeout of 1us..10s");
     }},
    {"init_cwnd", [](TransportSettings &t, const Value &v) { t.init_cwnd = v.number(1, 1000); }},
    {"dctcp_g", [](TransportSettings &t, const Value &v) { t.dctcp_g = v.number(0.0001, 1); }},
    {"dupack_threshold", [](TransportSettings &t, const Value &v) { t.dupack_threshold = u32(v, 1, 1000); }},
    {"ooo_receive", [](TransportSettings &t, const Value &v) { t.ooo_receive = v.boolean(); }},
    {"dcqcn", [](TransportSettings &t, const Value &v) { t.dcqcn = v.boolean(); }},
    {"cnp_interval",
     [](TransportSettings &t, const Value &v) {
         t.cnp_interval = v.time();
         if (t.cnp_interval > 1 * kSec) v.fail("an interval of at most 1s");
     }},
    {"dcqcn_g", [](TransportSettings &t, const Value &v) { t.dcqcn_g = v.number(0.0001, 1); }},
    {"dcqcn_alpha_period",
     [](TransportSettings &t, const Value &v) {
         t.dcqcn_alpha_period = v.time();
         if (t.dcqcn_alpha_period < 1 * kUs || t.dcqcn_alpha_period > 1 * kSec) v.fail("a period of 1us..1s");
     }},
    {"dcqcn_increase_period",
     [](TransportSettings &t, const Value &v) {
         t.dcqcn_increase_period = v.time();
         if (t.dcqcn_increase_period < 1 * kUs || t.dcqcn_increase_period > 1 * kSec)
             v.fail("a period of 1us..1s");
     }},
    {"dcqcn_fast_recovery",
     [](TransportSettings &t, const Value &v) { t.dcqcn_fast_recovery = u32(v, 0, 100); }},
    {"dcqcn_ai", [](TransportSettings &t, const Value &v) { t.dcqcn_ai_fraction = v.number(0, 1); }},
    {"dcqcn_min", [](TransportSettings &t, const Value &v) { t.dcqcn_min_fraction = v.number(0.00001, 1); }},
};

const Key<WorkloadSettings> kWorkloadKeys[] = {
    {"type",
     [](WorkloadSettings &w, const Value &v) {
         w.kind = choose(v, std::array<std::pair<std::string_view, WorkloadKind>, 7>{{
                                {"permutation", WorkloadKind::kPermutation},
                                {"all_to_all", WorkloadKind::kAllToAll},
                                {"incast", WorkloadKind::kIncast},
                                {"ring_allreduce", WorkloadKind::kRingAllreduce},
                                {"tree_allreduce", WorkloadKind::kTreeAllreduce},
                                {"poisson", WorkloadKind::kPoisson},
                                {"file", WorkloadKind::kFile},
                            }});
     }},
    {"size",
     [](WorkloadSettings &w, const Value &v) {
         w.size = v.bytes();
         if (w.size == 0) v.fail("a size of at least 1 byte");
     }},
    {"start", [](WorkloadSettings &w, const Value &v) { w.start = v.time(); }},
    {"first_host", [](WorkloadSettings &w, const Value &v) { w.first_host = u32(v, 0, 1u << 24); }},
    {"hosts", [](WorkloadSettings &w, const Value &v) { w.host_count = u32(v, 0, 1u << 24); }},
    {"to_first_host", [](WorkloadSettings &w, const Value &v) { w.to_first_host = u32(v, 0, 1u << 24); }},
    {"to_hosts", [](WorkloadSettings &w, const Value &v) { w.to_hosts = u32(v, 0, 1u << 24); }},
    {"shift", [](WorkloadSettings &w, const Value &v) { w.shift = u32(v, 0, 1u << 24); }},
    {"senders", [](WorkloadSettings &w, const Value &v) { w.senders = u32(v, 1, 1u << 24); }},
    {"receiver", [](WorkloadSettings &w, const Value &v) { w.receiver = u32(v, 0, 1u << 24); }},
    {"cdf", [](WorkloadSettings &w, const Value &v) { w.cdf = std::string(v.text); }},
    {"file", [](WorkloadSettings &w, const Value &v) { w.file = std::string(v.text); }},
    {"load", [](WorkloadSettings &w, const Value &v) { w.load = v.number(0.001, 1); }},
    {"duration",
     [](WorkloadSettings &w, const Value &v) {
         w.duration = v.time();
         if (w.duration == 0) v.fail("a duration above 0");
     }},
};

const Key<FailureSettings> kFailureKeys[] = {
    {"at", [](FailureSettings &f, const Value &v) { f.at = v.time(); }},
    {"link",
     [](FailureSettings &f, const Value &v) {
         // node:port, the node by description or as #index.
         const std::string_view t = v.word();
         const std::size_t colon = t.rfind(':');
         if (colon == std::string_view::npos || colon == 0)
             v.fail("a link as node:port (node by description or #index)");
         Value port = v;
         port.text = t.substr(colon + 1);
         port.column = v.column + colon + 1;
         f.port = u32(port, 1, 254);
         f.node = std::string(t.substr(0, colon));
         f.link_line = v.line;
         f.link_column = v.column;
     }},
    {"action",
     [](FailureSettings &f, const Value &v) {
         f.action = choose(
             v, std::array<std::pair<std::string_view, FailureAction>, 3>{{{"down", FailureAction::kDown},
                                                                           {"up", FailureAction::kUp},
                                                                           {"rate", FailureAction::kRate}}});
     }},
    {"rate", [](FailureSettings &f, const Value &v) { f.rate = v.rate(); }},
    {"reroute_after", [](FailureSettings &f, const Value &v) { f.reroute_after = v.time(); }},
};

const Key<RunSettings> kRunKeys[] = {
    {"seed", [](RunSettings &r, const Value &v) { r.seed = v.uint(0, ~std::uint64_t{0}); }},
    {"stop",
     [](RunSettings &r, const Value &v) {
         r.stop = v.time();
         if (r.stop == 0) v.fail("a time above 0");
     }},
};

enum class Section { kNone, kFabric, kSwitch, kTransport, kWorkload, kFailure, kRun, kArn };

template <class T, std::size_t N>
bool set_key(const Key<T> (&keys)[N], T &target, std::string_view key, const Value &v) {
    for (const Key<T> &k : keys)
        if (k.name == key) {
            k.set(target, v);
            return true;
        }
    return false;
}

template <class T, std::size_t N>
std::string key_list(const Key<T> (&keys)[N]) {
    std::string s;
    for (const Key<T> &k : keys) s += (s.empty() ? "" : " ") + std::string(k.name);
    return s;
}

// Sets `key` of the current section; false when the section has no such key.
bool set(Scenario &s, Section section, std::string_view key, const Value &v) {
    switch (section) {
        case Section::kFabric:
            return set_key(kFabricKeys, s.fabric, key, v);
        case Section::kSwitch:
            return set_key(kSwitchKeys, s.sw, key, v);
        case Section::kTransport:
            return set_key(kTransportKeys, s.transport, key, v);
        case Section::kWorkload:
            return set_key(kWorkloadKeys, s.workloads.back(), key, v);
        case Section::kFailure:
            return set_key(kFailureKeys, s.failures.back(), key, v);
        case Section::kRun:
            return set_key(kRunKeys, s.run, key, v);
        case Section::kArn:
            return set_key(kArnKeys, s.arn, key, v);
        case Section::kNone:
            break;
    }
    return false;
}

std::string keys_of(Section section) {
    switch (section) {
        case Section::kFabric:
            return key_list(kFabricKeys);
        case Section::kSwitch:
            return key_list(kSwitchKeys);
        case Section::kTransport:
            return key_list(kTransportKeys);
        case Section::kWorkload:
            return key_list(kWorkloadKeys);
        case Section::kFailure:
            return key_list(kFailureKeys);
        case Section::kRun:
            return key_list(kRunKeys);
        case Section::kArn:
            return key_list(kArnKeys);
        case Section::kNone:
            break;
    }
    return {};
}

Section section_named(std::string_view name) {
    if (name == "fabric") return Section::kFabric;
    if (name == "switch") return Section::kSwitch;
    if (name == "transport") return Section::kTransport;
    if (name == "workload") return Section::kWorkload;
    if (name == "failure") return Section::kFailure;
    if (name == "run") return Section::kRun;
    if (name == "arn") return Section::kArn;
    return Section::kNone;
}

bool blank(char c) {
    return c == ' ' || c == '\t';
}

bool key_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// Settings that only make sense together, checked once the whole file is read.
void check_whole(const Scenario &s) {
    const std::string &file = s.file;
    if (s.fabric.topology.empty() == s.fabric.topology_file.empty())
        throw routing::ParseError(file, s.fabric.line, 0, "[fabric] with one of topology or topology_file");
    if (s.workloads.empty()) throw routing::ParseError(file, 0, 0, "at least one [workload] section");
    for (const WorkloadSettings &w : s.workloads)
        if (w.kind == WorkloadKind::kPoisson && w.cdf.empty())
            throw routing::ParseError(file, w.line, 0, "a cdf for a poisson workload");
    for (const WorkloadSettings &w : s.workloads)
        if (w.kind == WorkloadKind::kFile && w.file.empty())
            throw routing::ParseError(file, w.line, 0, "a file for a file workload");
    for (const FailureSettings &f : s.failures) {
        if (f.node.empty()) throw routing::ParseError(file, f.line, 0, "a link for a failure");
        if (f.action == FailureAction::kRate && f.rate.bps() == 0)
            throw routing::ParseError(file, f.line, 0, "a rate for a failure with action rate");
        if (f.at == 0 && f.action != FailureAction::kDown)
            throw routing::ParseError(file, f.line, 0, "a time above 0 for an action other than down");
    }
    if (s.sw.ecn_kmax != 0 && s.sw.ecn_kmax < s.sw.ecn_kmin)
        throw routing::ParseError(file, 0, 0, "ecn_kmax at least ecn_kmin");
    if (s.sw.pfc_xoff != 0 && s.sw.pfc_xon > s.sw.pfc_xoff)
        throw routing::ParseError(file, 0, 0, "pfc_xon at most pfc_xoff");
    if (s.arn.util_off >= s.arn.util_on)
        throw routing::ParseError(file, s.arn.line, 0, "[arn] util_off below util_on");
    if (s.arn.queue_off >= s.arn.queue_on)
        throw routing::ParseError(file, s.arn.line, 0, "[arn] queue_off below queue_on");
}

}  // namespace

std::string_view to_string(Balancing b) {
    for (const auto &[name, value] : kBalancing)
        if (value == b) return name;
    return "?";
}

std::string_view to_string(TransportKind t) {
    return t == TransportKind::kDctcp ? "dctcp" : "roce";
}

std::string_view to_string(WorkloadKind w) {
    switch (w) {
        case WorkloadKind::kPermutation:
            return "permutation";
        case WorkloadKind::kAllToAll:
            return "all_to_all";
        case WorkloadKind::kIncast:
            return "incast";
        case WorkloadKind::kRingAllreduce:
            return "ring_allreduce";
        case WorkloadKind::kTreeAllreduce:
            return "tree_allreduce";
        case WorkloadKind::kPoisson:
            return "poisson";
        case WorkloadKind::kFile:
            return "file";
    }
    return "?";
}

Scenario read_scenario(std::string_view text, const std::string &name) {
    Scenario s;
    s.file = name;
    const std::size_t slash = name.rfind('/');
    s.dir = slash == std::string::npos ? "." : name.substr(0, slash == 0 ? 1 : slash);

    Section section = Section::kNone;
    std::vector<std::string> seen;  // keys of the current section
    unsigned sections_seen = 0;
    LineReader lines(text);
    for (std::string_view line; lines.next(line);) {
        const std::size_t line_no = lines.number();
        for (std::size_t i = 0; i < line.size(); ++i) {
            const unsigned char c = static_cast<unsigned char>(line[i]);
            if ((c < 0x20 && c != '\t') || c == 0x7f)
                throw routing::ParseError(name, line_no, i + 1, "printable text", "\\x" + std::to_string(c));
        }
        // A comment starts at '#' at the line's start or after a blank.
        for (std::size_t i = 0; i < line.size(); ++i)
            if (line[i] == '#' && (i == 0 || blank(line[i - 1]))) {
                line = line.substr(0, i);
                break;
            }
        std::size_t first = 0;
        while (first < line.size() && blank(line[first])) ++first;
        while (!line.empty() && blank(line.back())) line.remove_suffix(1);
        if (first >= line.size()) continue;
        const std::size_t col = first + 1;

        if (line[first] == '[') {
            if (line.back() != ']') throw routing::ParseError(name, line_no, line.size() + 1, "']'");
            std::string_view title = line.substr(first + 1, line.size() - first - 2);
            while (!title.empty() && blank(title.front())) title.remove_prefix(1);
            while (!title.empty() && blank(title.back())) title.remove_suffix(1);
            const Section next = section_named(title);
            if (next == Section::kNone)
                throw routing::ParseError(
                    name, line_no, col + 1,
                    "a section: fabric, switch, arn, transport, workload, failure or run",
                    std::string(title));
            const bool repeatable = next == Section::kWorkload || next == Section::kFailure;
            const unsigned bit = 1u << static_cast<unsigned>(next);
            if (!repeatable && (sections_seen & bit) != 0)
                throw routing::ParseError(name, line_no, col + 1,
                                          "each of [fabric], [switch], [arn], [transport], [run] once",
                                          std::string(title));
            sections_seen |= bit;
            if (next == Section::kWorkload) {
                s.workloads.emplace_back();
                s.workloads.back().line = line_no;
            } else if (next == Section::kFailure) {
                s.failures.emplace_back();
                s.failures.back().line = line_no;
            } else if (next == Section::kFabric) {
                s.fabric.line = line_no;
            } else if (next == Section::kArn) {
                s.arn.line = line_no;
            }
            section = next;
            seen.clear();
            continue;
        }

        if (section == Section::kNone)
            throw routing::ParseError(name, line_no, col, "a [section] before the first setting",
                                      std::string(line.substr(first, 32)));
        const std::size_t eq = line.find('=', first);
        if (eq == std::string_view::npos)
            throw routing::ParseError(name, line_no, col, "key = value", std::string(line.substr(first, 32)));
        std::string_view key = line.substr(first, eq - first);
        while (!key.empty() && blank(key.back())) key.remove_suffix(1);
        for (std::size_t i = 0; i < key.size(); ++i)
            if (!key_char(key[i]))
                throw routing::ParseError(name, line_no, col + i, "a key of a-z, 0-9 and _",
                                          std::string(key));
        if (key.empty()) throw routing::ParseError(name, line_no, col, "a key before '='");
        std::size_t vstart = eq + 1;
        while (vstart < line.size() && blank(line[vstart])) ++vstart;
        if (vstart >= line.size()) throw routing::ParseError(name, line_no, eq + 2, "a value after '='");
        for (const std::string &k : seen)
            if (k == key)
                throw routing::ParseError(name, line_no, col, "each key once per section", std::string(key));
        seen.emplace_back(key);
        const Value v{line.substr(vstart), &name, line_no, vstart + 1};
        if (!set(s, section, key, v))
            throw routing::ParseError(name, line_no, col, "a key of this section: " + keys_of(section),
                                      std::string(key));
    }
    check_whole(s);
    return s;
}

Scenario read_scenario_file(const std::string &path) {
    routing::TextLimits limits;
    limits.max_bytes = std::size_t{1} << 20;
    limits.max_line = 4096;
    return read_scenario(routing::read_text_file(path, limits), path);
}

void apply_override(Scenario &s, std::string_view setting, const std::string &origin) {
    const std::size_t dot = setting.find('.');
    const std::size_t eq = setting.find('=');
    if (dot == std::string_view::npos || eq == std::string_view::npos || dot > eq)
        throw routing::ParseError(origin, 1, 1, "section.key=value", std::string(setting.substr(0, 64)));
    const std::string_view section_name = setting.substr(0, dot);
    const std::string_view key = setting.substr(dot + 1, eq - dot - 1);
    const Section section = section_named(section_name);
    if (section == Section::kNone)
        throw routing::ParseError(origin, 1, 1,
                                  "a section: fabric, switch, arn, transport, workload, failure or run",
                                  std::string(section_name));
    const Value v{setting.substr(eq + 1), &origin, 1, eq + 2};
    if (v.text.empty()) throw routing::ParseError(origin, 1, eq + 2, "a value after '='");
    bool known = false;
    if (section == Section::kWorkload || section == Section::kFailure) {
        const std::size_t count = section == Section::kWorkload ? s.workloads.size() : s.failures.size();
        if (count == 0)
            throw routing::ParseError(origin, 1, 1,
                                      "a scenario with a [" + std::string(section_name) + "] section");
        // Each section in turn as the last one, which is the one set() writes.
        if (section == Section::kWorkload) {
            for (std::size_t i = 0; i < count; ++i) {
                std::swap(s.workloads[i], s.workloads.back());
                known = set(s, section, key, v);
                std::swap(s.workloads[i], s.workloads.back());
                if (!known) break;
            }
        } else {
            for (std::size_t i = 0; i < count; ++i) {
                std::swap(s.failures[i], s.failures.back());
                known = set(s, section, key, v);
                std::swap(s.failures[i], s.failures.back());
                if (!known) break;
            }
        }
    } else {
        known = set(s, section, key, v);
    }
    if (!known)
        throw routing::ParseError(origin, 1, dot + 2,
                                  "a key of [" + std::string(section_name) + "]: " + keys_of(section),
                                  std::string(key));
    check_whole(s);
}

}  // namespace weft::sim
