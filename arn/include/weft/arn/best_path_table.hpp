// The best-path table (BPT) of one switch: per destination group, the candidate paths with their
// costs, the one currently chosen, and the ARN news that bends the choice.
//
// A path is known by the links it crosses that the group reports on (its global link, and the
// local link to the group peer that owns it): a direct path leaves by this switch's own global
// link to the destination group, a path via a peer crosses the local link to the peer and the
// peer's global link, a path via an intermediate group leaves the group by a link to that group.
//
// The draft's two rules (sections 2.2 and 2.3), with news on a link L:
//  1. congestion or failure detected on L: when the chosen path crosses L it is dropped and the
//     cheapest remaining path is chosen; other destinations keep their choice;
//  2. congestion or failure eliminated on L: a path P1 crossing L replaces the chosen path P2
//     when P1 now costs less than P2; otherwise the choice stays.
// Congestion either removes the paths through the link (they are chosen only when every path is
// congested: removal ranks them after every clear path, least severe first) or penalizes them
// (their cost grows by the severity times the penalty); a failed link removes its paths outright.
// A worse severity on a link applies rule 1, a better one rule 2. News not refreshed within its
// hold time expires, as if eliminated. Messages carrying an older sequence number from the
// reporter than the news already held on the link are stale and ignored (a reordered
// "detected" after an "eliminated"); what an elimination leaves behind remembers the sequence
// for a hold time, so a late "detected" is still known stale.
//
// Not on the packet path: the thread that receives ARNs owns it. Its results reach the workers as
// remote quality (remote_quality.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "weft/arn/message.hpp"
#include "weft/arn/types.hpp"
#include "weft/ars/types.hpp"

namespace weft::arn {

enum class PathKind : std::uint8_t { kDirect, kViaPeer, kViaGroup };

struct CandidatePath {
    PathKind kind = PathKind::kDirect;
    PortNumber first_port = 0;   // the local port it leaves by (the ARS member's port)
    std::uint32_t cost = 0;      // base cost: hops, or what the operator configured
    std::vector<LinkRef> links;  // the group's links it crosses
    friend bool operator==(const CandidatePath &, const CandidatePath &) = default;
};

enum class CongestionAction : std::uint8_t { kRemove, kPenalize };

struct BptConfig {
    CongestionAction action = CongestionAction::kRemove;
    std::uint32_t penalty_per_severity = 1;  // kPenalize: cost + severity x this
    std::uint32_t default_hold_us = 3000;    // news without a hold time of its own
};

inline constexpr std::uint32_t kUnreachableCost = 0xFFFFFFFFu;

// What one message or expiry did.
struct BptChange {
    bool stale = false;             // ignored: an older sequence than the news held
    std::vector<GroupId> rechosen;  // destinations whose chosen path changed
    std::vector<GroupId> touched;   // destinations with a path across a link whose news changed
};

struct BptCounters {
    std::uint64_t applied = 0;
    std::uint64_t stale = 0;
    std::uint64_t unknown_link = 0;  // news of a link no candidate path crosses (kept all the same)
    std::uint64_t expired = 0;
    std::uint64_t rechosen = 0;  // chosen-path changes, all destinations
};

// What the table holds on a link.
enum class LinkCondition : std::uint8_t { kClear, kCongested, kFailed };
struct LinkNews {
    LinkCondition condition = LinkCondition::kClear;
    std::uint8_t severity = 0;
    Ticks expires_at = 0;
    std::optional<std::uint32_t> sequence;
};

class BestPathTable {
  public:
    BestPathTable(const BptConfig &config, Ticks ticks_per_us);

    // Sets (or replaces) a destination's candidates; the cheapest under the news held is chosen
    // (the first listed among equals).
    void set_destination(GroupId group, std::vector<CandidatePath> paths);
    void remove_destination(GroupId group);

    // A received (or this switch's own) ARN, already decoded.
    BptChange apply(const ArnMessage &m, Ticks now);
    // News whose hold time ran out is dropped, as if eliminated. Call once per sampling interval.
    BptChange expire(Ticks now);

    std::vector<GroupId> destinations() const;
    std::span<const CandidatePath> paths(GroupId group) const;
    // The chosen path's index, or nothing (unknown group, or every path failed).
    std::optional<std::size_t> chosen(GroupId group) const;
    // A path's cost under the news held: kUnreachableCost when failed.
    std::uint32_t effective_cost(GroupId group, std::size_t path) const;
    // A path's quality as ARS bands count: 7 clear, 7 - severity of its worst congested link,
    // 0 when failed.
    ars::QualityBand path_band(GroupId group, std::size_t path) const;
    // The best band of the paths toward `group` that leave by `port` (what a next-hop group member
    // on that port can still reach), 7 when none leaves by it.
    ars::QualityBand port_band(GroupId group, PortNumber port) const;

    const LinkNews *news(const LinkRef &link) const;
    const BptCounters &counters() const { return counters_; }

  private:
    struct Destination {
        std::vector<CandidatePath> paths;
        std::optional<std::size_t> chosen;
    };
    struct PathRef {
        GroupId group;
        std::uint32_t path;
    };

    std::uint32_t cost_of(const CandidatePath &p) const;
    std::optional<std::size_t> cheapest(const Destination &d) const;
    void choose(GroupId g, Destination &d, std::optional<std::size_t> to, BptChange &change);
    const std::vector<PathRef> &crossing(const LinkRef &link) const;
    void changed(const LinkRef &link, bool worse, BptChange &change);
    void reindex();

    BptConfig config_;
    Ticks ticks_per_us_;
    std::map<GroupId, Destination> destinations_;
    std::map<LinkRef, LinkNews> news_;
    std::map<LinkRef, std::vector<PathRef>> crossing_;  // which paths cross each link
    BptCounters counters_;
};

}  // namespace weft::arn
