// A worker's ARN counters (each worker the only writer, like WorkerCounters). A received ARN
// frame that is not forwarded or taken is also counted under one DropReason (arn_*), so the
// worker's totals still add up; these say more: the frames seen, the copies sent, the news
// handed to the BPT's owner, and the refused messages by the codec's reason.
#pragma once

#include <rte_common.h>

#include <array>
#include <cstdint>
#include <vector>

#include "weft/arn/decode_error.hpp"
#include "weft/dataplane/counters.hpp"

namespace weft::dataplane {

struct alignas(RTE_CACHE_LINE_SIZE) ArnWorkerCounters {
    Counter received;   // frames of the ARN EtherType while ARN is on
    Counter forwarded;  // copies handed to a TX buffer (on toward the rest of the group)
    Counter delivered;  // news handed to the BPT's owner
    std::array<Counter, arn::kArnDropCount> malformed;  // by the decoder's reason
};

struct ArnWorkerTotals {
    std::uint64_t received = 0, forwarded = 0, delivered = 0;
    std::array<std::uint64_t, arn::kArnDropCount> malformed{};
};

inline ArnWorkerTotals sum_arn(const std::vector<const ArnWorkerCounters *> &workers) noexcept {
    ArnWorkerTotals t;
    for (const ArnWorkerCounters *w : workers) {
        t.received += w->received.get();
        t.forwarded += w->forwarded.get();
        t.delivered += w->delivered.get();
        for (std::size_t i = 0; i < t.malformed.size(); ++i) t.malformed[i] += w->malformed[i].get();
    }
    return t;
}

}  // namespace weft::dataplane
