// libFuzzer target: topology format detection and the reader it picks (read_topology_string).
// Whatever the content, detection names a format or none, and the reader it leads to accepts or
// throws ParseError, never crashes; an accepted fabric has nodes and is writable in every format.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "weft/routing/topology_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    using namespace weft::routing;
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const auto format = detect_topology_format(text);
    try {
        const Fabric f = read_topology_string(text, "fuzz");
        if (!format || f.node_count() == 0) std::abort();  // read without a format, or empty
        (void)write_topology_json(f);
        (void)write_ibnetdiscover(f);
        (void)write_ibsim_net(f);
    } catch (const ParseError &) {
    }
    return 0;
}
