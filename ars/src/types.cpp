#include "weft/ars/types.hpp"

namespace weft::ars {

std::string_view to_string(Mode mode) {
    switch (mode) {
        case Mode::kFlowletQuality:
            return "FLOWLET_QUALITY";
        case Mode::kFlowletRandom:
            return "FLOWLET_RANDOM";
        case Mode::kPerPacketQuality:
            return "PER_PACKET_QUALITY";
        case Mode::kPerPacketRandom:
            return "PER_PACKET_RANDOM";
        case Mode::kFixed:
            return "FIXED";
    }
    return "UNKNOWN";
}

}  // namespace weft::ars
