// libFuzzer target: what weft-ca does with a data frame from the wire: the frame decoder, then
// the receiver's payload decoder and per-source counting (its own LID from the first byte). A
// frame is counted exactly once, under one heading.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "ca_traffic.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    using namespace weft::sm;
    const IboeDecode d = decode_iboe_frame(std::span(data, size), IboeFrameConfig{kIboeEtherType, false});
    if (!d) return 0;
    tools::CaReceiver r;
    r.take(d.packet, size ? data[0] : 0);
    const tools::CaReceiveCounters &c = r.counters();
    if (c.taken + c.misdelivered + c.other_qp + c.not_ca_data != 1) std::abort();
    for (const auto &[slid, f] : r.flows())
        if (f.received != 1 || f.missing() != f.highest || f.reordered) std::abort();
    return 0;
}
