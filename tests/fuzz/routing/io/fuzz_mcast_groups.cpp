// libFuzzer target: multicast group files, then the groups resolved in a small fabric.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "weft/routing/generators.hpp"
#include "weft/routing/mcast_groups.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        const auto specs = weft::routing::read_mcast_groups(text, "fuzz");
        static const weft::routing::Fabric f = weft::routing::make_kary_ntree(2, 2);
        (void)weft::routing::resolve_mcast_groups(specs, f);
    } catch (const weft::routing::ParseError &) {
    }
    return 0;
}
