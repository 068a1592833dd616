// torus-2QoS's report of what changed since the torus it routed last (OpenSM's
// report_torus_changes and the max_changes keyword of torus-2QoS.conf): radices, switches new,
// lost or replaced at a coordinate, port counts, and what each port is cabled to. The report
// only informs; it neither refuses nor rebuilds anything. Booting a large fabric changes much
// at once, so after more than max_changes changes the report stops early (counted per switch,
// as OpenSM does: a switch's changes are listed whole before the limit is checked).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "engines/torus/torus_topology.hpp"

namespace weft::routing::torus {

// What a routed torus looked like, kept by the engine for the next run's report.
struct TorusSnapshot {
    struct Remote {
        Guid node = 0;  // 0: port not cabled
        PortNum port = 0;
        bool is_switch = false;
    };
    struct Switch {
        Guid guid = 0;               // 0: no switch at this coordinate
        unsigned ports = 0;          // including port 0
        std::vector<Remote> remote;  // by port number
    };
    std::array<unsigned, kTorusDims> radix{1, 1, 1};
    std::vector<Switch> at;  // by position index (x fastest)
};

TorusSnapshot snapshot(const Fabric &f, const Torus &t);

// One line per change of `now` against `before`, in OpenSM's order (radices, then positions
// with z slowest); when the count passes max_changes, a last line says the report stopped early.
std::vector<std::string> torus_changes(const TorusSnapshot &now, const TorusSnapshot &before,
                                       unsigned max_changes);

}  // namespace weft::routing::torus
