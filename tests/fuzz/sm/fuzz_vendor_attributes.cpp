// libFuzzer target: weft's vendor attributes, as a switch takes them in Sets and the SM in
// replies — WeftHostSubnets, WeftFibState, WeftNextHopGroup (with and without the switch's port
// count, taken from the input), WeftRoutes and WeftArnGroup blocks and WeftExtendedLids. What
// decodes round-trips.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "fuzz_input.hpp"
#include "weft/sm/vendor_arn_group.hpp"
#include "weft/sm/vendor_extended_lids.hpp"
#include "weft/sm/vendor_fib_state.hpp"
#include "weft/sm/vendor_host_subnets.hpp"
#include "weft/sm/vendor_next_hop_group.hpp"
#include "weft/sm/vendor_routes.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size) {
    using namespace weft::sm;
    const fuzz::AttributeInput in = fuzz::attribute_input(bytes, size);
    if (auto h = decode_host_subnets_block(in.data, in.attr_mod))
        fuzz::expect_round_trip(h.value(), encode_host_subnets_block, [&](const SmpData &d) {
            return decode_host_subnets_block(d, h->attr_mod());
        });
    if (auto s = decode_fib_state(in.data, in.attr_mod))
        fuzz::expect_round_trip(s.value(), encode_fib_state,
                                [](const SmpData &d) { return decode_fib_state(d); });
    if (auto e = decode_extended_lids(in.data, in.attr_mod)) {
        if (e->vlid_cap > kMaxVlidCap || (e->vlft_top != 0 && e->vlft_top >= e->vlid_end())) __builtin_trap();
        fuzz::expect_round_trip(e.value(), encode_extended_lids,
                                [](const SmpData &d) { return decode_extended_lids(d); });
    }
    if (auto r = decode_routes_block(in.data, in.attr_mod))
        fuzz::expect_round_trip(r.value(), encode_routes_block,
                                [&](const SmpData &d) { return decode_routes_block(d, r->attr_mod()); });
    if (auto a = decode_arn_group_block(in.data, in.attr_mod))
        fuzz::expect_round_trip(a.value(), encode_arn_group_block,
                                [&](const SmpData &d) { return decode_arn_group_block(d, a->attr_mod()); });
    // The port count a switch knows of itself: here a byte of the SMP's reserved area.
    const std::optional<PortNum> ports = size == kSmpSize ? std::optional<PortNum>(bytes[40]) : std::nullopt;
    for (const std::optional<PortNum> n : {std::optional<PortNum>{}, ports})
        if (auto g = decode_next_hop_group_block(in.data, in.attr_mod, n))
            fuzz::expect_round_trip(
                g.value(), [n](const NextHopGroupBlock &b) { return encode_next_hop_group_block(b, n); },
                [&](const SmpData &d) { return decode_next_hop_group_block(d, g->attr_mod(), n); });
    return 0;
}
