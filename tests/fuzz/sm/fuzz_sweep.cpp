// libFuzzer target: a whole heavy sweep (discovery, LIDs, routing, verification, programming)
// over a small in-process fabric whose replies the input spoils. The input is a list of
// three-byte edits (reply number, offset, value): the n-th request to reach a node is dropped
// when the offset's top bit is set, else the value is XORed into its reply's attribute data at
// the offset. Whatever the fabric says — GUIDs that collide, port counts that change, states,
// LIDs, table capacities and tops out of the ordinary — the sweep must end with every request
// completed and a consistent fabric (every link seen from both ends), never crash.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "sim_fabric.hpp"
#include "weft/sm/heavy_sweep.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size) {
    using namespace weft::sm;
    using namespace std::chrono_literals;
    if (size > 3 * 64) return 0;
    struct Edit {
        std::uint8_t reply, offset, value;
    };
    std::vector<Edit> edits;
    for (std::size_t i = 0; i + 3 <= size; i += 3) edits.push_back({bytes[i], bytes[i + 1], bytes[i + 2]});

    test::SimFabric fabric;
    test::build_tree(fabric, 1, 2, 2, 4);
    fabric.time_passes_on_wait = true;
    unsigned n = 0;
    fabric.drop_at = [&](std::size_t, const Smp &) {
        ++n;
        for (const Edit &e : edits)
            if (e.reply == (n & 0xFF) && (e.offset & 0x80)) return true;
        return false;
    };
    fabric.alter_reply = [&](std::size_t, Smp &r) {
        for (const Edit &e : edits)
            if (e.reply == (n & 0xFF) && !(e.offset & 0x80)) r.data[e.offset % kSmpDataSize] ^= e.value;
    };
    SmpEngine engine(fabric, {4, 50ms, 1});
    SweepOptions o;
    o.chain = "minhop";
    const SweepReport r = heavy_sweep(
        engine, [&] { return fabric.now(); }, o);
    if (!engine.idle()) std::abort();
    const weft::routing::Fabric &f = r.discovery.fabric;
    if (r.discovery.nodes.size() != f.node_count()) std::abort();
    for (weft::routing::NodeIdx i = 0; i < f.node_count(); ++i)
        for (PortNum p = 1; p <= f.node(i).num_ports; ++p) {
            const weft::routing::Port &x = f.port(i, p);
            if (x.peer == weft::routing::kNoNode) continue;
            const weft::routing::Port &back = f.port(x.peer, x.peer_port);
            if (back.peer != i || back.peer_port != p) std::abort();
        }
    return 0;
}
