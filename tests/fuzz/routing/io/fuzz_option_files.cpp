// libFuzzer target: OpenSM's option files (-w hop weights, -O port search ordering, -i ignore
// GUIDs, -m IDs). Each reader either returns values or throws a located ParseError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "weft/routing/option_files.hpp"
#include "weft/routing/parse_error.hpp"

namespace {
template <class F>
void guarded(F &&read) {
    try {
        (void)read();
    } catch (const weft::routing::ParseError &) {
    }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    guarded([&] { return weft::routing::read_hop_weights(text, "fuzz"); });
    guarded([&] { return weft::routing::read_port_search_ordering(text, "fuzz"); });
    guarded([&] { return weft::routing::read_ignore_guids(text, "fuzz"); });
    guarded([&] { return weft::routing::read_ids_guids(text, "fuzz"); });
    return 0;
}
