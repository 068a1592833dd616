// What every in-process fabric test checks after a heavy sweep: each node's SMA holds what the
// sweep programmed (the switches' LFTs equal the routing's, their LIDs and the SM's LID), and
// every cabled port is ACTIVE.
#pragma once

#include <functional>

#include "weft/routing/fabric.hpp"
#include "weft/sm/heavy_sweep.hpp"
#include "weft/sm/sma.hpp"

namespace weft::sm::test {

// `sma_of` gives the SMA of a node of `topo` (the fabric the test built, in its node order).
void expect_programmed(const routing::Fabric &topo,
                       const std::function<const Sma &(routing::NodeIdx)> &sma_of, const SweepReport &r);

}  // namespace weft::sm::test
