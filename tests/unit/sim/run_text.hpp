// Runs a scenario given as text (tests write their fabrics inline).
#pragma once

#include <string>

#include "weft/sim/results.hpp"
#include "weft/sim/scenario.hpp"
#include "weft/sim/simulator.hpp"

namespace weft::sim::test {

inline Results run_text(const std::string &ini, const std::string &name = "test.ini") {
    Simulator sim(read_scenario(ini, name));
    return sim.run();
}

inline const LinkRecord *link(const Results &r, const std::string &from, const std::string &to) {
    for (const LinkRecord &l : r.links)
        if (l.from == from && l.to == to) return &l;
    return nullptr;
}

}  // namespace weft::sim::test
