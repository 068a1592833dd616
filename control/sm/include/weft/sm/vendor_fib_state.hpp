// WeftFibState (vendor attribute 0xFFC1, modifier 0): the Ethernet table of a weft switch as a
// whole, and the commit that keeps a switch from ever forwarding by a half-written one.
//
// A switch holds an ACTIVE table (what it forwards by, with the generation that committed it)
// and at most one STAGING table. The SM programs it in three steps:
//   1. Set op=Begin, generation G: staging becomes a copy of the active table (or an empty one
//      with `begin_empty`), tagged G. A Begin discards any staging left open before.
//   2. Sets of WeftNextHopGroup, WeftRoutes and WeftArnGroup blocks: they change only staging (refused when
//   no
//      staging is open); Gets read staging while it is open, the active table otherwise.
//   3. Set op=Commit, generation G, routes R, groups N, ARN entries A: the switch puts staging
//      together (R routes, exactly N groups, every route's group present, every group whole and
//      consistent, within its limits, A entries of its ARN group naming groups it holds) and,
//      only if all of it holds, makes it the active table with
//      generation G in one step — the dataplane gets one new snapshot — and closes staging. A
//      refused commit (another G, a missing block, a route to a missing group...) leaves the
//      active table as it was and staging open.
// An SM that dies between 1 and 3 leaves staging open and the active table untouched: the switch
// forwards by the last complete table until an SM begins again (which discards the half-written
// staging). Two SMs cannot mix their writes into one commit: the later Begin re-tags staging, so
// the earlier SM's Commit names the wrong generation and is refused.
// The SM picks G = the active generation read + 1, so a switch's generation only grows and an SM
// that remembers what it committed knows the table is still its own while the generation is.
#pragma once

#include <cstdint>
#include <span>

#include "weft/sm/smp.hpp"
#include "weft/sm/vendor_attributes.hpp"

namespace weft::sm {

enum class FibOp : std::uint8_t { kNone = 0, kBegin = 1, kCommit = 2 };

struct FibState {
    static constexpr std::uint16_t kAttributeId = attr::kWeftFibState;

    std::uint32_t magic = kWeftMagic;  // anything else: not a weft switch
    std::uint8_t version = kWeftFormatVersion;
    FibOp op = FibOp::kNone;              // Set only; kNone reads (and a Set with it changes nothing)
    bool staging_open = false;            // Get: a Begin has not been committed or discarded yet
    bool begin_empty = false;             // Set Begin: staging starts empty instead of a copy
    std::uint32_t active_generation = 0;  // 0: nothing committed yet
    std::uint32_t generation = 0;         // Set: the one to begin or commit; Get: staging's
    std::uint32_t routes = 0;             // Get: active; Commit: what staging must hold
    std::uint16_t groups = 0;             // likewise
    std::uint16_t arn = 0;                // WeftArnGroup entries: likewise
    // The switch's limits (Get): the SM compiles nothing bigger.
    std::uint32_t max_routes = 0;
    std::uint16_t max_groups = 0;
    std::uint8_t max_primaries = 0, max_alternates = 0;  // per group
    // The host subnets (WeftHostSubnets) the switch has now, and their version.
    std::uint16_t subnets = 0, subnets_version = 0;

    friend bool operator==(const FibState &, const FibState &) = default;
};

// Checked: weft's magic and format version, a known op, generation != 0 with Begin or Commit,
// counts within what the attributes can address (routes <= 196608).
Result<FibState> decode_fib_state(std::span<const std::uint8_t> data, std::uint32_t attr_mod = 0);
Result<FibState> decode_fib_state(const Smp &smp);
Result<SmpData> encode_fib_state(const FibState &state);

}  // namespace weft::sm
