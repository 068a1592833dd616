// A small switch for the ARS tests: ports 0..7 up at quality 7, one ARS object, helpers to build
// groups and drive time.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "weft/ars/config.hpp"
#include "weft/ars/port_board.hpp"
#include "weft/ars/worker.hpp"

namespace weft::ars::test {

inline constexpr Ticks kTicksPerUs = 10;
inline constexpr std::size_t kPorts = 16;
inline constexpr std::size_t kLags = 8;

inline ArsObjectConfig object(ArsObjectId id, Mode mode, std::uint32_t idle_us = 256,
                              std::uint32_t flows = 512) {
    ArsObjectConfig o;
    o.id = id;
    o.mode = mode;
    o.idle_time_us = idle_us;
    o.max_flows = flows;
    return o;
}

inline NhgMember primary(std::uint32_t id, PortId port) {
    return {id, EgressTarget::port(port), MemberRole::kPrimary, true};
}
inline NhgMember alternate(std::uint32_t id, PortId port) {
    return {id, EgressTarget::port(port), MemberRole::kAlternate, true};
}

// A next-hop group on ARS object `object` with the given members.
inline NhgConfig nhg(NhgId id, ArsObjectId object, std::vector<NhgMember> members) {
    NhgConfig n;
    n.id = id;
    n.ars_object = object;
    n.members = std::move(members);
    return n;
}

// A builder with ports 0..kPorts-1 (10G, ARS on) and ARS object 0 in the given mode.
inline ConfigBuilder builder(Mode mode = Mode::kFlowletQuality, Profile profile = {}) {
    ConfigBuilder b(profile, kTicksPerUs);
    for (PortId p = 0; p < kPorts; ++p) b.add_port(PortConfig{p, true, 10, 100, 100});
    b.add_ars_object(object(0, mode));
    return b;
}

inline std::shared_ptr<const Config> build(const ConfigBuilder &b) {
    BuildResult r = b.build();
    for (const ConfigError &e : r.errors) ADD_FAILURE() << e.message;
    return r.config;
}

struct Rig {
    PortBoard board{kPorts, kLags};
    Worker worker{board, 0};

    Rig() {
        for (PortId p = 0; p < kPorts; ++p) board.set_link_up(p, true);
    }
    std::shared_ptr<const Config> config;

    void adopt(const ConfigBuilder &b) {
        config = build(b);
        ASSERT_NE(config, nullptr);
        worker.adopt(config);
    }
};

inline Ticks us(std::uint64_t micro) {
    return micro * kTicksPerUs;
}

}  // namespace weft::ars::test
