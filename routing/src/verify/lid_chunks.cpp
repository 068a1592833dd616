#include "lid_chunks.hpp"

#include <algorithm>
#include <atomic>

#include "dest_walk.hpp"
#include "engines/nue/workers.hpp"

namespace weft::routing::verify {
namespace {

constexpr Lid kChunk = 16 * DestWalker::kBlock;
// Below this many (switch, LID) steps a second thread costs more than it saves.
constexpr std::uint64_t kThreadedSteps = std::uint64_t{1} << 24;

}  // namespace

unsigned check_threads(unsigned wanted, const Fabric &f) {
    if (std::uint64_t{f.switch_count()} * f.max_lid() < kThreadedSteps && !wanted) return 1;
    const unsigned n = engines::nue::Workers::resolve(wanted);
    const Lid chunks = f.max_lid() / kChunk + 1;
    return std::max(1u, std::min<unsigned>(n, chunks));
}

void for_lid_chunks(const Fabric &f, unsigned threads, const ProgressFn &progress,
                    const std::function<void(unsigned, Lid, Lid)> &job) {
    const Lid max = f.max_lid();
    std::atomic<Lid> claimed{0}, done{0};
    auto work = [&](unsigned worker) {
        for (;;) {
            const Lid start = claimed.fetch_add(kChunk);
            if (start > max) return;
            const Lid first = std::max<Lid>(start, 1), last = std::min<Lid>(start + kChunk - 1, max);
            if (first <= last) job(worker, first, last);
            const Lid now = done.fetch_add(last - start + 1) + (last - start + 1);
            if (worker == 0 && progress) progress(std::min(now, max), max);
        }
    };
    if (threads <= 1) {
        work(0);
    } else {
        engines::nue::Workers workers(threads);
        workers.run(work);
    }
    if (progress) progress(max, max);
}

}  // namespace weft::routing::verify
