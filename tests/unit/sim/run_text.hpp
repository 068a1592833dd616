// Runs a scenario given as text (tests write their fabrics inline).
#pragma once

#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "weft/sim/results.hpp"
#include "weft/sim/scenario.hpp"
#include "weft/sim/simulator.hpp"

namespace weft::sim::test {

inline Results run_text(const std::string &ini, const std::string &name = "test.ini") {
    Simulator sim(read_scenario(ini, name));
    return sim.run();
}

// Writes `text` to the file `name` in the tests' temporary folder (scenarios there name it by a
// relative path) and returns the folder.
inline std::string write_temp(const std::string &name, const std::string &text) {
    const std::string dir = ::testing::TempDir();
    std::ofstream(dir + "/" + name) << text;
    return dir;
}

inline const LinkRecord *link(const Results &r, const std::string &from, const std::string &to) {
    for (const LinkRecord &l : r.links)
        if (l.from == from && l.to == to) return &l;
    return nullptr;
}

}  // namespace weft::sim::test
