// libFuzzer target: the torus-2QoS.conf reader on arbitrary text. Malformed input must end in
// ParseError naming a line and what was expected; accepted input must satisfy the reader's
// promises, and torus-2QoS routing a small 3x3 torus with it must either refuse with a reason
// or produce routes that reach every LID without loops.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "weft/routing/engine.hpp"
#include "weft/routing/torus_config.hpp"
#include "weft/routing/verification.hpp"

using namespace weft::routing;

namespace {

// 3x3 torus, switch (x,y) GUID 0x1000 + x + 3y, port 1 +x, 2 -x, 3 +y, 4 -y, a host on port 5.
Fabric small_torus() {
    Fabric f;
    NodeIdx sw[9];
    for (unsigned i = 0; i < 9; ++i)
        sw[i] = f.add_node(NodeType::Switch, 0x1000 + i, 5, "sw" + std::to_string(i));
    for (unsigned y = 0; y < 3; ++y)
        for (unsigned x = 0; x < 3; ++x) {
            f.connect(sw[x + 3 * y], 1, sw[(x + 1) % 3 + 3 * y], 2);
            f.connect(sw[x + 3 * y], 3, sw[x + 3 * ((y + 1) % 3)], 4);
        }
    Lid lid = 1;
    for (unsigned i = 0; i < 9; ++i) f.set_lid(sw[i], 0, lid++, 0);
    for (unsigned i = 0; i < 9; ++i) {
        const NodeIdx h = f.add_node(NodeType::Ca, 0x100000 + 0x10 * i, 1, "h" + std::to_string(i));
        f.set_port_guid(h, 1, 0x100001 + 0x10 * i);
        f.connect(sw[i], 5, h, 1);
        f.set_lid(h, 1, lid++, 0);
    }
    return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    static const Fabric f = small_torus();
    static const std::string path =
        (std::filesystem::temp_directory_path() / ("weft-fuzz-torus-" + std::to_string(::getpid()) + ".conf"))
            .string();
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    TorusConfig c;
    try {
        c = read_torus_config(text, "fuzz.conf");
    } catch (const ParseError &e) {
        if (e.line() == 0 || e.expected().empty() || e.file() != "fuzz.conf") std::abort();
        return 0;
    }
    if (c.seeds.empty() || c.portgroup_max_ports < 1) std::abort();
    for (unsigned r : c.radix)
        if (r < 1 || r > 255) std::abort();
    for (const auto &s : c.seeds)
        if (s.origin() == 0 || s.line == 0) std::abort();
    for (std::size_t i = 0; i < c.port_order.size(); ++i)
        if (c.port_order[i] == 0 ||
            std::count(c.port_order.begin(), c.port_order.end(), c.port_order[i]) != 1)
            std::abort();
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    // Removed on every way out, so a run leaves nothing in the temp directory.
    struct RemoveOnExit {
        const std::string &p;
        ~RemoveOnExit() { std::remove(p.c_str()); }
    } const cleanup{path};
    RoutingOptions o;
    o.qos = true;
    o.no_fallback = true;
    o.torus_config = path;
    RoutingTables t;
    const ChainResult r = run_chain("torus-2QoS", f, o, t);
    if (!r.ok) {
        if (r.failures.empty() || r.failures[0].size() < 12) std::abort();  // refused, with a reason
        return 0;
    }
    const PathReport rep = trace_paths(f, t);
    if (!rep.ok() || rep.switch_unreachable) std::abort();
    return 0;
}
