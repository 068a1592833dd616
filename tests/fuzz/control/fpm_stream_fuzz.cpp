// The FPM stream as a zebra connection delivers it: frames split (bad versions and types skipped,
// a bad length ends the stream), every netlink message decoded and applied to a RIB on a real
// FIB builder; the RIB's counts stay consistent and a sweep leaves the FIB empty.
#include <cstddef>
#include <cstdint>

#include "fpm_rig.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    using namespace weft::control::fpm;
    std::vector<Decoded> msgs;
    const auto taken = split_frames(
        {data, size},
        [&](const FrameHeader &h, std::span<const std::uint8_t> payload, std::optional<Error> bad) {
            if (payload.size() + kFpmHeaderSize != h.length) std::abort();
            if (!bad) decode_netlink(payload, msgs);
        });
    if (taken && *taken > size) std::abort();
    fuzz::run_rib(msgs);
    return 0;
}
