// libFuzzer target: SmpEngine's handling of what comes back from the wire. A few requests are
// outstanding to the in-process fabric (tests/unit/sm/sim_fabric); the input is then received as
// a MAD, its TID pointed at an outstanding request when the input asks for it (first byte odd),
// so replies that match are fuzzed as well as strays. The engine must stay consistent: every
// request ends exactly once, the window is never overrun.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "sim_fabric.hpp"
#include "weft/sm/smp_engine.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size) {
    using namespace weft::sm;
    using namespace std::chrono_literals;
    test::SimFabric fabric;
    const std::size_t host = fabric.add_ca(0x10, 1, "host");
    const std::size_t sw = fabric.add_switch(0x20, 8, "leaf");
    fabric.link(host, 1, sw, 1);
    fabric.lose_next_requests = 3;  // the requests stay outstanding for the input to answer
    SmpEngine engine(fabric, {2, 200ms, 1});
    const std::uint8_t path[] = {1};
    std::uint64_t tids[3];
    for (std::uint64_t i = 0; i < 3; ++i)
        tids[i] =
            engine.submit({make_dr_smp(Method::kGet, attr::kPortInfo, static_cast<std::uint32_t>(i), path, 0),
                           kPermissiveLid, i},
                          0ns);

    ReceivedSmp r;
    r.length = size;
    std::memcpy(r.bytes.data(), bytes, std::min(size, r.bytes.size()));
    if (size >= 16 && (bytes[0] & 1)) {
        const std::uint64_t tid = tids[bytes[1] % 3];
        for (int i = 0; i < 8; ++i) r.bytes[8 + i] = static_cast<std::uint8_t>(tid >> (56 - 8 * i));
    }
    engine.on_receive(r, 1ms);
    if (engine.outstanding() > 2) std::abort();
    // Let every request finish (answered, retried then answered or timed out).
    unsigned ended = 0;
    for (SmTime t = 1ms; t < 2s && !engine.idle(); t += 100ms) {
        fabric.set_now(t);
        while (auto got = fabric.receive(0ms)) engine.on_receive(*got, t);
        engine.advance(t);
        if (engine.outstanding() > 2) std::abort();
    }
    while (engine.next_completion()) ++ended;
    while (engine.next_unsolicited()) {
    }
    if (!engine.idle() || ended != 3) std::abort();
    return 0;
}
