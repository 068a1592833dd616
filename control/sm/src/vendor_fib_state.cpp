#include "weft/sm/vendor_fib_state.hpp"

#include "attribute_codec.hpp"
#include "weft/sm/vendor_routes.hpp"

namespace weft::sm {

namespace {

using detail::BitField;

template <class Io, class S>
void fields(Io &io, S &s) {
    io(BitField{"WeftFibState.magic", 0, 32}, s.magic);
    io(BitField{"WeftFibState.version", 32, 8}, s.version);
    io(BitField{"WeftFibState.op", 40, 8}, s.op);
    io(BitField{"WeftFibState.staging_open", 48, 1}, s.staging_open);
    io(BitField{"WeftFibState.begin_empty", 49, 1}, s.begin_empty);
    io(BitField{"WeftFibState.active_generation", 64, 32}, s.active_generation);
    io(BitField{"WeftFibState.generation", 96, 32}, s.generation);
    io(BitField{"WeftFibState.routes", 128, 32}, s.routes);
    io(BitField{"WeftFibState.groups", 160, 16}, s.groups);
    io(BitField{"WeftFibState.arn", 176, 16}, s.arn);
    io(BitField{"WeftFibState.max_routes", 192, 32}, s.max_routes);
    io(BitField{"WeftFibState.max_groups", 224, 16}, s.max_groups);
    io(BitField{"WeftFibState.max_primaries", 240, 8}, s.max_primaries);
    io(BitField{"WeftFibState.max_alternates", 248, 8}, s.max_alternates);
    io(BitField{"WeftFibState.subnets", 256, 16}, s.subnets);
    io(BitField{"WeftFibState.subnets_version", 272, 16}, s.subnets_version);
}

std::optional<SmpError> check(const FibState &s) {
    if (s.magic != kWeftMagic) return SmpError{"WeftFibState.magic", s.magic, "0x77656674 ('weft')"};
    if (s.version != kWeftFormatVersion) return SmpError{"WeftFibState.version", s.version, "1"};
    const auto op = static_cast<std::uint8_t>(s.op);
    if (op > 2) return SmpError{"WeftFibState.op", op, "0 (none), 1 (begin) or 2 (commit)"};
    if (s.op != FibOp::kNone && s.generation == 0)
        return SmpError{"WeftFibState.generation", 0, "not 0 with begin or commit"};
    if (s.routes > kMaxRoutes) return SmpError{"WeftFibState.routes", s.routes, "0..196608"};
    if (s.max_routes > kMaxRoutes) return SmpError{"WeftFibState.max_routes", s.max_routes, "0..196608"};
    return std::nullopt;
}

}  // namespace

Result<FibState> decode_fib_state(std::span<const std::uint8_t> data, std::uint32_t attr_mod) {
    if (attr_mod != 0) return SmpError{"WeftFibState.attr_mod", attr_mod, "0"};
    return detail::decode_attribute<FibState>(
        data, "WeftFibState.size", [](auto &io, FibState &s) { fields(io, s); }, check);
}

Result<FibState> decode_fib_state(const Smp &smp) {
    if (auto err = check_attribute(smp, FibState::kAttributeId)) return *err;
    return decode_fib_state(smp.data, smp.attr_mod);
}

Result<SmpData> encode_fib_state(const FibState &state) {
    return detail::encode_attribute(
        state, [](auto &io, const FibState &s) { fields(io, s); }, check);
}

}  // namespace weft::sm
