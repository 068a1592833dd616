// libFuzzer target: generator specs (weft-route --gen), numbers as given. The generators bound
// what they build themselves (no more switches and host ports than the unicast LID space holds),
// so any spec must build a fabric or throw ParseError (or, for random graphs, runtime_error: no
// simple connected graph for these numbers).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "weft/routing/fabric.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/parse_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size > 256) return 0;
    const std::string_view spec(reinterpret_cast<const char *>(data), size);
    try {
        const weft::routing::Fabric f = weft::routing::generate(spec);
        std::size_t lid_owners = 0;
        for (weft::routing::NodeIdx n = 0; n < f.node_count(); ++n)
            lid_owners += f.node(n).is_switch() ? 1 : f.node(n).num_ports;
        if (lid_owners > weft::routing::kMaxUnicastLid) std::abort();
    } catch (const weft::routing::ParseError &) {
    } catch (const std::runtime_error &) {
    }
    return 0;
}
