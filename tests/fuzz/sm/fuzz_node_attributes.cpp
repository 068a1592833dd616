// libFuzzer target: the attributes discovery reads — NodeInfo, NodeDescription, SwitchInfo,
// PortInfo (as an end port and as a switch's external port). What decodes round-trips.
#include <cstddef>
#include <cstdint>

#include "fuzz_input.hpp"
#include "weft/sm/node_description.hpp"
#include "weft/sm/node_info.hpp"
#include "weft/sm/port_info.hpp"
#include "weft/sm/switch_info.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size) {
    using namespace weft::sm;
    const fuzz::AttributeInput in = fuzz::attribute_input(bytes, size);
    if (auto n = decode_node_info(in.data))
        fuzz::expect_round_trip(n.value(), encode_node_info,
                                [](const SmpData &d) { return decode_node_info(d); });
    if (auto d = decode_node_description(in.data))
        fuzz::expect_round_trip(d.value(), encode_node_description,
                                [](const SmpData &b) { return decode_node_description(b); });
    if (auto s = decode_switch_info(in.data))
        fuzz::expect_round_trip(s.value(), encode_switch_info,
                                [](const SmpData &d) { return decode_switch_info(d); });
    for (const PortKind kind : {PortKind::kEndPort, PortKind::kSwitchExternal}) {
        if (auto p = decode_port_info(in.data, kind))
            fuzz::expect_round_trip(
                p.value(), [kind](const PortInfo &v) { return encode_port_info(v, kind); },
                [kind](const SmpData &d) { return decode_port_info(d, kind); });
    }
    return 0;
}
