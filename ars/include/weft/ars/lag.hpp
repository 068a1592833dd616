// An ARS LAG as configured: member ports and the ARS object it is bound to (SAI_LAG_ATTR_ARS_*).
#pragma once

#include <vector>

#include "weft/ars/types.hpp"

namespace weft::ars {

struct LagConfig {
    LagId id = 0;
    ArsObjectId ars_object = kNoArsObject;  // none: static hash over the up member ports
    std::vector<PortId> ports;
};

}  // namespace weft::ars
