// libFuzzer target: Notice (what a Trap SMP carries) and the port-state-change trap read from
// it. What decodes round-trips; a trap 128 found is a generic notice with a unicast LID.
#include <cstddef>
#include <cstdint>

#include "fuzz_input.hpp"
#include "weft/sm/notice.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size) {
    using namespace weft::sm;
    const fuzz::AttributeInput in = fuzz::attribute_input(bytes, size);
    auto n = decode_notice(in.data);
    if (!n) return 0;
    fuzz::expect_round_trip(n.value(), encode_notice, [](const SmpData &d) { return decode_notice(d); });
    if (auto trap = decode_port_state_change(n.value())) {
        if (!n->is_generic || n->trap_number != kTrapPortStateChange || !is_unicast_lid(trap->lid))
            std::abort();
    }
    return 0;
}
