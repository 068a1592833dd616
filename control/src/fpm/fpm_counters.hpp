// What the FPM server counts (`show fpm`): connections, frames, messages by type, errors and
// ignored messages by reason, and the last commit.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <string>

#include "fpm_codec.hpp"

namespace weft::control::fpm {

struct ServerCounters {
    std::uint64_t connections = 0;
    std::uint64_t refused_connections = 0;  // from an address that is not a loopback one
    std::uint64_t disconnects = 0;
    std::string last_disconnect;  // why
    std::uint64_t frames = 0;
    std::uint64_t bytes = 0;
    std::array<std::uint64_t, static_cast<std::size_t>(MsgKind::kCount)> messages{};
    std::array<std::uint64_t, static_cast<std::size_t>(Error::kCount)> errors{};
    std::array<std::uint64_t, static_cast<std::size_t>(Ignored::kCount)> ignored{};
    std::uint64_t truncated_at_close = 0;  // a frame cut short by the end of its connection
    std::uint64_t commits = 0;
    std::uint64_t commit_failures = 0;
    std::size_t last_commit_messages = 0;  // messages the last commit carried
    std::size_t last_commit_prefixes = 0;
    double last_commit_ms = 0;
    std::chrono::system_clock::time_point last_commit_at{};
    std::string last_commit_error;

    std::uint64_t error_total() const {
        std::uint64_t n = 0;
        for (std::uint64_t e : errors) n += e;
        return n;
    }
};

}  // namespace weft::control::fpm
