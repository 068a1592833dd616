// The order OpenSM visits nodes and ports in when it walks its GUID tables (cl_qmap keyed by the
// GUID in network byte order, compared as a host integer): on a little-endian host that is the
// order of the byte-reversed GUID, so 0x...0100 comes before 0x...0001. Engines that reproduce
// an order OpenSM takes from those tables sort by this key, not by the GUID's value.
#pragma once

#include <cstdint>

#include "weft/routing/fabric.hpp"

namespace weft::routing::engines {

constexpr std::uint64_t osm_table_key(Guid g) {
    return __builtin_bswap64(g);  // GCC/Clang; the byte-reversed GUID
}

}  // namespace weft::routing::engines
