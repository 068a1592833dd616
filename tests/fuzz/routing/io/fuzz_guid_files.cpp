// libFuzzer target: GUID lists and guid2lid files, then LID assignment with what was read.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        (void)weft::routing::read_guid_list(text, "fuzz");
    } catch (const weft::routing::ParseError &) {
    }
    try {
        weft::routing::LidOptions o;
        o.lmc = 1;
        o.guid2lid = weft::routing::read_guid2lid(text, "fuzz");
        weft::routing::Fabric f = weft::routing::make_kary_ntree(2, 2);
        weft::routing::assign_lids(f, o);
    } catch (const weft::routing::ParseError &) {
    }
    return 0;
}
