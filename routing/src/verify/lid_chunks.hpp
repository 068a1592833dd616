// Private: how the per-destination checks spread the LID space over threads. Chunks of whole
// LFT blocks (DestWalker::kBlock) go to whichever thread is free; each thread keeps its own
// walker and partial result, which the caller merges in an order that does not depend on who
// took what.
#pragma once

#include <functional>

#include "weft/routing/fabric.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing::verify {

// The threads to use for `wanted` (0: one per hardware thread) on fabric f: one when the fabric
// is too small for a second to pay for itself.
unsigned check_threads(unsigned wanted, const Fabric &f);

// Calls job(worker, first, last) for consecutive LID ranges covering 1..f.max_lid(), on
// `threads` workers (0 .. threads-1, worker 0 being the caller); reports progress as LIDs done
// out of max_lid, from the caller only.
void for_lid_chunks(const Fabric &f, unsigned threads, const ProgressFn &progress,
                    const std::function<void(unsigned worker, Lid first, Lid last)> &job);

}  // namespace weft::routing::verify
