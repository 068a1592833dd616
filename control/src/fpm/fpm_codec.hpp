// FPM framing and the netlink messages FRR's dplane_fpm_nl sends, decoded with libmnl into plain
// structures. Outside input: anything malformed is refused by reason, never trusted.
//
// An FPM frame is a 4-byte header (version 1, type 1 = netlink, a 16-bit length in network order
// that counts the header) and one or more netlink messages (zebra sends a route update as an
// RTM_DELROUTE and an RTM_NEWROUTE in one frame).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

#include "weft/dataplane/ip_addr.hpp"

namespace weft::control::fpm {

inline constexpr std::uint8_t kFpmVersion = 1;
inline constexpr std::uint8_t kFpmTypeNetlink = 1;
inline constexpr std::size_t kFpmHeaderSize = 4;
inline constexpr std::uint32_t kMainTable = 254;  // RT_TABLE_MAIN

// Why a frame or a message was refused. kBadFrameLength loses the framing: the connection closes.
enum class Error : std::uint8_t {
    BadVersion,
    BadFrameType,
    BadFrameLength,
    NetlinkTruncated,  // a netlink header or its length does not fit the frame
    ShortHeader,       // rtmsg / nhmsg missing or cut
    BadFamily,         // neither AF_INET nor AF_INET6
    BadPrefixLength,   // longer than the family's width
    BadAttribute,      // an attribute's length does not fit, or is wrong for its type
    BadMultipath,      // RTA_MULTIPATH's rtnexthop list malformed
    BadGroup,          // NHA_GROUP not a whole number of entries, an id 0, or empty
    MissingId,         // a nexthop message without NHA_ID
    MissingNextHop,    // a unicast route with no gateway, interface, group or list
    kCount
};
std::string_view error_name(Error e);

// What is taken but not applied (counted apart from errors).
enum class Ignored : std::uint8_t {
    OtherTable,   // a table other than main (or the dragonfly policy's): counted by the server
    RouteType,    // local, broadcast, multicast, ... routes
    Encap,        // lwtunnel encapsulations (MPLS, SRv6, VXLAN)
    MessageType,  // netlink messages other than routes and nexthops (neighbours, links, ...)
    NexthopKind,  // FDB nexthops, resilient groups' extras
    KernelRoute,  // connected and kernel routes (RTPROT_KERNEL) where the Linux mirror owns them
    kCount
};
std::string_view ignored_name(Ignored i);

struct NlNextHop {
    std::optional<dataplane::IpAddr> gateway;
    std::uint32_t ifindex = 0;
    std::uint16_t weight = 1;  // 1..256 (rtnh_hops + 1)
    auto operator<=>(const NlNextHop &) const = default;
};

struct RouteMsg {
    bool add = true;       // RTM_NEWROUTE (false: RTM_DELROUTE)
    bool replace = false;  // NLM_F_REPLACE
    dataplane::IpPrefix prefix;
    std::uint32_t table = kMainTable;
    std::uint8_t protocol = 0;  // rtm_protocol: zebra's connected and kernel routes are RTPROT_KERNEL
    bool blackhole = false;     // blackhole, unreachable, prohibit: dropped
    std::optional<std::uint32_t> nh_id;
    std::vector<NlNextHop> hops;
};

struct GroupMember {
    std::uint32_t id = 0;
    std::uint16_t weight = 1;  // 1..256 (nexthop_grp.weight + 1)
    auto operator<=>(const GroupMember &) const = default;
};

struct NexthopMsg {
    bool add = true;
    bool replace = false;
    std::uint32_t id = 0;
    bool blackhole = false;
    std::optional<dataplane::IpAddr> gateway;
    std::uint32_t ifindex = 0;
    std::vector<GroupMember> group;  // non-empty: a group of other nexthops
};

// One netlink message of a frame: decoded, ignored, or refused.
struct Decoded {
    std::uint16_t nl_type = 0;
    std::variant<RouteMsg, NexthopMsg, Ignored, Error> what;
};

// An FPM header at the start of `buf`: the frame's whole length, or what is wrong with it.
struct FrameHeader {
    std::uint8_t version = 0, type = 0;
    std::uint16_t length = 0;  // header included
};
std::optional<FrameHeader> read_frame_header(std::span<const std::uint8_t> buf);
// Whether a header's frame can be decoded (nullopt), or why not.
std::optional<Error> check_frame_header(const FrameHeader &h);

// The whole frames at the start of a stream: for each, `on_frame(header, payload, refused)` with
// `refused` set for a bad version or type (the frame is skipped). Returns the bytes taken, or
// nothing when a frame's length is below the header's (the framing is lost).
std::optional<std::size_t> split_frames(
    std::span<const std::uint8_t> stream,
    const std::function<void(const FrameHeader &, std::span<const std::uint8_t>, std::optional<Error>)>
        &on_frame);

// Every netlink message in a frame's payload (the bytes after the FPM header), appended to `out`.
// Stops at the first header that does not fit (one NetlinkTruncated for the rest).
void decode_netlink(std::span<const std::uint8_t> payload, std::vector<Decoded> &out);

// The message types counted by name in `show fpm`.
enum class MsgKind : std::uint8_t { NewRoute, DelRoute, NewNexthop, DelNexthop, Other, kCount };
MsgKind msg_kind(std::uint16_t nl_type);
std::string_view msg_kind_name(MsgKind k);

}  // namespace weft::control::fpm
