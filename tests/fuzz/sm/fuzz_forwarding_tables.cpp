// libFuzzer target: the tables the SM programs — LinearForwardingTable and
// MulticastForwardingTable blocks (with and without the switch's port count, taken from the
// input) and SLtoVLMappingTable. What decodes round-trips.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "fuzz_input.hpp"
#include "weft/sm/linear_forwarding_table.hpp"
#include "weft/sm/multicast_forwarding_table.hpp"
#include "weft/sm/sl_to_vl_table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size) {
    using namespace weft::sm;
    const fuzz::AttributeInput in = fuzz::attribute_input(bytes, size);
    // The port count a caller would know from NodeInfo: here a byte of the SMP's reserved area.
    const std::optional<PortNum> ports = size == kSmpSize ? std::optional<PortNum>(bytes[40]) : std::nullopt;
    for (const std::optional<PortNum> n : {std::optional<PortNum>{}, ports}) {
        if (auto l = decode_lft_block(in.data, in.attr_mod, n))
            fuzz::expect_round_trip(
                l.value(), [n](const LftBlock &b) { return encode_lft_block(b, n); },
                [&](const SmpData &d) { return decode_lft_block(d, l->attr_mod(), n); });
        if (auto m = decode_mft_block(in.data, in.attr_mod, n))
            fuzz::expect_round_trip(
                m.value(), [n](const MftBlock &b) { return encode_mft_block(b, n); },
                [&](const SmpData &d) { return decode_mft_block(d, m->attr_mod(), n); });
    }
    if (auto t = decode_sl_to_vl_table(in.data))
        fuzz::expect_round_trip(t.value(), encode_sl_to_vl_table,
                                [](const SmpData &d) { return decode_sl_to_vl_table(d); });
    return 0;
}
