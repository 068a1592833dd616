// Basic vocabulary of the ARS engine: identifiers, time, modes and quality bands.
#pragma once

#include <cstdint>
#include <string_view>

namespace weft::ars {

// Time is a parameter everywhere: TSC ticks in the switch, simulated ticks in tests and weft-sim.
using Ticks = std::uint64_t;

// Identifiers are small dense integers chosen by the control plane and stable across config
// snapshots, so per-worker state indexed by them survives a snapshot change.
using PortId = std::uint16_t;
using LagId = std::uint16_t;
using NhgId = std::uint32_t;
using ArsObjectId = std::uint16_t;

inline constexpr std::uint16_t kNoArsObject = 0xFFFF;

// A slot of the PortBoard's remote quality (port_board.hpp): the quality of the path beyond a
// next-hop group member's port, as ARN news from other switches makes it known.
// 16 bits: it sits in padding of the selection group's member, which keeps its size.
using RemoteSlot = std::uint16_t;
inline constexpr RemoteSlot kNoRemoteSlot = 0xFFFF;

// Path (re)assignment modes, in SAI's order (sai_ars_mode_t).
enum class Mode : std::uint8_t {
    kFlowletQuality = 0,
    kFlowletRandom = 1,
    kPerPacketQuality = 2,
    kPerPacketRandom = 3,
    kFixed = 4,
};
inline constexpr int kModeCount = 5;

std::string_view to_string(Mode mode);

// Quality bands. The profile's eight quantization bands are LOAD bands: band 0 holds the lowest
// scaled load, band 7 the highest (SAI's example: band 0 = 10..100 Mbps, band 7 = 700..800 Mbps).
// The QUALITY band a port publishes is 7 - load band, so:
//
//   quality band 7 = least loaded = BEST,   quality band 0 = most loaded = WORST.
//
// Section 7's primary/alternate rule compares quality bands with this orientation (the reasoning
// is in path_rule.hpp); every "best band" choice in this library means the highest quality band.
using QualityBand = std::uint8_t;
inline constexpr int kBandCount = 8;
inline constexpr QualityBand kBestQuality = 7;
inline constexpr QualityBand kWorstQuality = 0;

}  // namespace weft::ars
