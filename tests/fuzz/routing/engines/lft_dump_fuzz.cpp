// libFuzzer target: the opensm-lfts.dump reader on arbitrary text. Malformed input must end in
// ParseError (never a crash or another exception); accepted input must survive being applied
// to a small fabric and written back, and the written dump must read back to the same LFTs.
// The reader's shortcut for OpenSM's entry shape must agree with its general line reader: the
// same text with a space before every line (which only the general reader takes) must give the
// same entries, or fail on the same line expecting the same thing. So must the reader that
// expects the lines of the fabric below (one compare for a line equal to the expected one but for
// its port digits; every other line read as always). Applying a dump must not
// depend on the headers' switch LIDs (a shortcut to the switch, checked against its GUID).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "weft/routing/lft_dump.hpp"

using namespace weft::routing;

namespace {

Fabric small_fabric() {
    Fabric f;
    const NodeIdx s1 = f.add_node(NodeType::Switch, 0x200000, 8, "sw1");
    const NodeIdx s2 = f.add_node(NodeType::Switch, 0x200001, 8, "sw2");
    const NodeIdx h1 = f.add_node(NodeType::Ca, 0x100000, 1, "h1");
    f.set_port_guid(h1, 1, 0x100001);
    f.connect(s1, 1, s2, 1);
    f.connect(s1, 3, h1, 1);
    f.set_lid(s1, 0, 1, 0);
    f.set_lid(s2, 0, 2, 0);
    f.set_lid(h1, 1, 4, 1);
    return f;
}

std::string indented(std::string_view text) {
    std::string out = " ";
    for (const char c : text) {
        out += c;
        if (c == '\n') out += ' ';
    }
    return out;
}

bool same_entries(const LftDump &a, const LftDump &b) {
    if (a.switches.size() != b.switches.size()) return false;
    for (std::size_t i = 0; i < a.switches.size(); ++i) {
        const auto &x = a.switches[i].entries, &y = b.switches[i].entries;
        if (x.size() != y.size() || a.switches[i].guid != b.switches[i].guid) return false;
        for (std::size_t k = 0; k < x.size(); ++k)
            if (x[k].lid != y[k].lid || x[k].port != y[k].port || x[k].port_guid != y[k].port_guid ||
                x[k].line != y[k].line)
                return false;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    static const Fabric f = small_fabric();
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    LftDump d, general;
    std::size_t error_line = 0, error_column = 0;
    std::string error_expected;
    try {
        d = read_lft_dump(text, "fuzz.dump");
    } catch (const ParseError &e) {
        if (e.line() == 0 || e.expected().empty()) std::abort();
        error_line = e.line();
        error_column = e.column();
        error_expected = e.expected();
    }
    try {
        general = read_lft_dump(indented(text), "fuzz.dump");
        if (error_line != 0 || !same_entries(d, general)) std::abort();
    } catch (const ParseError &e) {
        if (e.line() != error_line || e.expected() != error_expected) std::abort();
    }
    try {
        const LftDump with_expected = read_lft_dump(text, "fuzz.dump", &f);
        if (error_line != 0 || !same_entries(d, with_expected)) std::abort();
    } catch (const ParseError &e) {
        if (e.line() != error_line || e.column() != error_column || e.expected() != error_expected)
            std::abort();
    }
    if (error_line != 0) return 0;
    RoutingTables t;
    t.reset(f);
    const auto rep = apply_lft_dump(d, f, t);
    if (rep.switches_applied > d.switches.size()) std::abort();
    // The applier finds a switch by its header's LID when that LID's owner has the header's GUID;
    // without the LIDs (only the lookup by GUID) it must apply the same entries to the same switches.
    LftDump by_guid = d;
    for (auto &sw : by_guid.switches) sw.lid = 0;
    RoutingTables t2;
    t2.reset(f);
    const auto rep2 = apply_lft_dump(by_guid, f, t2);
    if (t2.lft != t.lft || rep2.switches_applied != rep.switches_applied ||
        rep2.switches_unknown != rep.switches_unknown || rep2.entries != rep.entries ||
        rep2.rejected != rep.rejected || rep2.remapped != rep.remapped)
        std::abort();
    for (const auto &row : t.lft)
        for (PortNum p : row)
            if (p != kNoPort && p > 8) std::abort();
    const std::string out = write_lft_dump(f, t);
    RoutingTables back;
    back.reset(f);
    apply_lft_dump(read_lft_dump(out, "rewritten"), f, back);
    if (back.lft != t.lft) std::abort();
    return 0;
}
