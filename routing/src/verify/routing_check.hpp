// Private: one pass over the destination LIDs for the path trace and the credit-loop check
// together: each LID is walked once (DestWalker) and every check asked for reads the walk.
// LFT blocks are spread over threads (lid_chunks.hpp).
#pragma once

#include "weft/routing/verification.hpp"

namespace weft::routing::verify {

RoutingCheck run_checks(const Fabric &f, const RoutingTables &t, const ProgressFn &progress, unsigned threads,
                        bool paths, bool credit_loops);

}  // namespace weft::routing::verify
