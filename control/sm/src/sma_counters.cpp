#include "weft/sm/sma_counters.hpp"

#include <numeric>

namespace weft::sm {

const char *drop_name(SmaDrop reason) {
    switch (reason) {
        case SmaDrop::kNotFabricPort:
            return "not a fabric port";
        case SmaDrop::kBadPort:
            return "no such port";
        case SmaDrop::kPortDown:
            return "port down";
        case SmaDrop::kMalformed:
            return "malformed";
        case SmaDrop::kBadHopPointer:
            return "bad hop pointer";
        case SmaDrop::kNotASwitch:
            return "directed route through a CA";
        case SmaDrop::kBadPathPort:
            return "bad port in path";
        case SmaDrop::kNoRoute:
            return "no route for LID";
        case SmaDrop::kNotForUs:
            return "not for this node";
        case SmaDrop::kMKey:
            return "M_Key";
        case SmaDrop::kUnexpected:
            return "unexpected";
        case SmaDrop::kNoReturnAddress:
            return "no return address";
        case SmaDrop::kCount:
            break;
    }
    return "?";
}

std::uint64_t SmaCounters::dropped_total() const {
    return std::accumulate(dropped.begin(), dropped.end(), std::uint64_t{0});
}

}  // namespace weft::sm
