// libFuzzer target: read_ibnetdiscover must accept or reject any input with a ParseError, never crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "weft/routing/topology_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        weft::routing::Fabric f = weft::routing::read_ibnetdiscover(text, "fuzz");
        (void)weft::routing::write_topology_json(f);  // whatever was accepted must be writable
    } catch (const weft::routing::ParseError &) {
    }
    return 0;
}
