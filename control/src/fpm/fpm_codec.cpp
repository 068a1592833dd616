#include "fpm_codec.hpp"

#include <libmnl/libmnl.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <array>
#include <cstring>

namespace weft::control::fpm {

namespace dp = weft::dataplane;

std::string_view error_name(Error e) {
    switch (e) {
        case Error::BadVersion:
            return "bad_version";
        case Error::BadFrameType:
            return "bad_frame_type";
        case Error::BadFrameLength:
            return "bad_frame_length";
        case Error::NetlinkTruncated:
            return "netlink_truncated";
        case Error::ShortHeader:
            return "short_header";
        case Error::BadFamily:
            return "bad_family";
        case Error::BadPrefixLength:
            return "bad_prefix_length";
        case Error::BadAttribute:
            return "bad_attribute";
        case Error::BadMultipath:
            return "bad_multipath";
        case Error::BadGroup:
            return "bad_group";
        case Error::MissingId:
            return "missing_id";
        case Error::MissingNextHop:
            return "missing_next_hop";
        case Error::kCount:
            break;
    }
    return "?";
}

std::string_view ignored_name(Ignored i) {
    switch (i) {
        case Ignored::OtherTable:
            return "other_table";
        case Ignored::RouteType:
            return "route_type";
        case Ignored::Encap:
            return "encap";
        case Ignored::MessageType:
            return "message_type";
        case Ignored::NexthopKind:
            return "nexthop_kind";
        case Ignored::KernelRoute:
            return "kernel_route";
        case Ignored::kCount:
            break;
    }
    return "?";
}

MsgKind msg_kind(std::uint16_t nl_type) {
    switch (nl_type) {
        case RTM_NEWROUTE:
            return MsgKind::NewRoute;
        case RTM_DELROUTE:
            return MsgKind::DelRoute;
        case RTM_NEWNEXTHOP:
            return MsgKind::NewNexthop;
        case RTM_DELNEXTHOP:
            return MsgKind::DelNexthop;
        default:
            return MsgKind::Other;
    }
}

std::string_view msg_kind_name(MsgKind k) {
    switch (k) {
        case MsgKind::NewRoute:
            return "new_route";
        case MsgKind::DelRoute:
            return "del_route";
        case MsgKind::NewNexthop:
            return "new_nexthop";
        case MsgKind::DelNexthop:
            return "del_nexthop";
        case MsgKind::Other:
            return "other";
        case MsgKind::kCount:
            break;
    }
    return "?";
}

std::optional<FrameHeader> read_frame_header(std::span<const std::uint8_t> buf) {
    if (buf.size() < kFpmHeaderSize) return std::nullopt;
    return FrameHeader{buf[0], buf[1], static_cast<std::uint16_t>((buf[2] << 8) | buf[3])};
}

std::optional<Error> check_frame_header(const FrameHeader &h) {
    if (h.length < kFpmHeaderSize) return Error::BadFrameLength;
    if (h.version != kFpmVersion) return Error::BadVersion;
    if (h.type != kFpmTypeNetlink) return Error::BadFrameType;
    return std::nullopt;
}

std::optional<std::size_t> split_frames(
    std::span<const std::uint8_t> stream,
    const std::function<void(const FrameHeader &, std::span<const std::uint8_t>, std::optional<Error>)>
        &on_frame) {
    std::size_t at = 0;
    while (stream.size() - at >= kFpmHeaderSize) {
        const FrameHeader h = *read_frame_header(stream.subspan(at));
        const auto bad = check_frame_header(h);
        if (bad == Error::BadFrameLength) return std::nullopt;
        if (stream.size() - at < h.length) break;
        on_frame(h, stream.subspan(at + kFpmHeaderSize, h.length - kFpmHeaderSize), bad);
        at += h.length;
    }
    return at;
}

namespace {

// The attributes of one message (or one rtnexthop) by type, and whether they covered its bytes.
template <std::size_t N>
struct AttrTable {
    std::array<const nlattr *, N> at{};
    std::size_t covered = 0;
    bool duplicate = false;
};

template <std::size_t N>
int collect_attr(const nlattr *attr, void *data) {
    auto &t = *static_cast<AttrTable<N> *>(data);
    t.covered += MNL_ALIGN(attr->nla_len);
    const std::uint16_t type = mnl_attr_get_type(attr);
    if (type < N) {
        if (t.at[type] != nullptr) t.duplicate = true;
        t.at[type] = attr;
    }
    return MNL_CB_OK;
}

// Parses the attributes in [start, start + len): false when one does not fit or one repeats.
template <std::size_t N>
bool parse_attrs(const void *start, std::size_t len, AttrTable<N> &t) {
    if (len == 0) return true;
    if (mnl_attr_parse_payload(start, len, collect_attr<N>, &t) < 0) return false;
    return t.covered == MNL_ALIGN(len) && !t.duplicate;
}

std::optional<std::uint32_t> u32_attr(const nlattr *a, bool &bad) {
    if (a == nullptr) return std::nullopt;
    if (mnl_attr_validate(a, MNL_TYPE_U32) < 0) {
        bad = true;
        return std::nullopt;
    }
    return mnl_attr_get_u32(a);
}

std::optional<dp::IpAddr> addr_bytes(const void *p, std::size_t len, int family) {
    dp::IpAddr a;
    if (family == AF_INET && len == 4) {
        std::memcpy(a.bytes.data(), p, 4);
        return a;
    }
    if (family == AF_INET6 && len == 16) {
        a.v6 = true;
        std::memcpy(a.bytes.data(), p, 16);
        return a;
    }
    return std::nullopt;
}

std::optional<dp::IpAddr> addr_attr(const nlattr *a, int family, bool &bad) {
    if (a == nullptr) return std::nullopt;
    auto addr = addr_bytes(mnl_attr_get_payload(a), mnl_attr_get_payload_len(a), family);
    if (!addr) bad = true;
    return addr;
}

// RTA_VIA (a gateway of another family, RFC 5549): struct rtvia then the address.
std::optional<dp::IpAddr> via_attr(const nlattr *a, bool &bad) {
    if (a == nullptr) return std::nullopt;
    const std::size_t len = mnl_attr_get_payload_len(a);
    const auto *p = static_cast<const std::uint8_t *>(mnl_attr_get_payload(a));
    if (len < sizeof(rtvia)) {
        bad = true;
        return std::nullopt;
    }
    rtvia v;
    std::memcpy(&v, p, sizeof v);
    auto addr = addr_bytes(p + sizeof(rtvia), len - sizeof(rtvia), v.rtvia_family);
    if (!addr) bad = true;
    return addr;
}

using What = decltype(Decoded::what);

// The gateway of a next hop: RTA_GATEWAY in the route's family, or RTA_VIA.
template <std::size_t N>
std::optional<dp::IpAddr> gateway_of(const AttrTable<N> &t, int family, bool &bad) {
    if (t.at[RTA_GATEWAY] != nullptr) return addr_attr(t.at[RTA_GATEWAY], family, bad);
    return via_attr(t.at[RTA_VIA], bad);
}

// RTA_MULTIPATH: rtnexthop records, each with its own attributes.
std::optional<Error> read_multipath(const nlattr *a, int family, std::vector<NlNextHop> &out, bool &encap) {
    const auto *p = static_cast<const std::uint8_t *>(mnl_attr_get_payload(a));
    std::size_t left = mnl_attr_get_payload_len(a);
    while (left > 0) {
        rtnexthop nh;
        if (left < sizeof nh) return Error::BadMultipath;
        std::memcpy(&nh, p, sizeof nh);
        if (nh.rtnh_len < sizeof nh || nh.rtnh_len > left) return Error::BadMultipath;
        AttrTable<RTA_MAX + 1> t;
        const std::size_t head = RTNH_ALIGN(sizeof nh);
        if (nh.rtnh_len > head && !parse_attrs(p + head, nh.rtnh_len - head, t)) return Error::BadMultipath;
        bool bad = false;
        NlNextHop hop;
        hop.gateway = gateway_of(t, family, bad);
        if (bad) return Error::BadMultipath;
        if (t.at[RTA_ENCAP] != nullptr || t.at[RTA_ENCAP_TYPE] != nullptr) encap = true;
        hop.ifindex = static_cast<std::uint32_t>(nh.rtnh_ifindex);
        hop.weight = static_cast<std::uint16_t>(nh.rtnh_hops + 1);
        out.push_back(hop);
        const std::size_t step = RTNH_ALIGN(nh.rtnh_len);
        if (step >= left) break;
        p += step;
        left -= step;
    }
    if (out.empty()) return Error::BadMultipath;
    return std::nullopt;
}

What decode_route(const nlmsghdr *nlh) {
    if (mnl_nlmsg_get_payload_len(nlh) < sizeof(rtmsg)) return Error::ShortHeader;
    rtmsg rt;
    std::memcpy(&rt, mnl_nlmsg_get_payload(nlh), sizeof rt);
    if (rt.rtm_family != AF_INET && rt.rtm_family != AF_INET6) return Error::BadFamily;
    const bool v6 = rt.rtm_family == AF_INET6;
    if (rt.rtm_dst_len > (v6 ? 128 : 32)) return Error::BadPrefixLength;
    AttrTable<RTA_MAX + 1> t;
    const std::size_t off = MNL_ALIGN(sizeof(rtmsg));
    const std::size_t payload = mnl_nlmsg_get_payload_len(nlh);
    if (payload > off &&
        !parse_attrs(static_cast<const std::uint8_t *>(mnl_nlmsg_get_payload(nlh)) + off, payload - off, t))
        return Error::BadAttribute;
    bool bad = false;
    RouteMsg r;
    r.add = nlh->nlmsg_type == RTM_NEWROUTE;
    r.replace = (nlh->nlmsg_flags & NLM_F_REPLACE) != 0;
    dp::IpAddr dst;
    dst.v6 = v6;
    if (t.at[RTA_DST] != nullptr) {
        const auto a = addr_attr(t.at[RTA_DST], rt.rtm_family, bad);
        if (a) dst = *a;
    }
    r.table = rt.rtm_table;
    r.protocol = rt.rtm_protocol;
    if (const auto table = u32_attr(t.at[RTA_TABLE], bad)) r.table = *table;
    r.nh_id = u32_attr(t.at[RTA_NH_ID], bad);
    const auto oif = u32_attr(t.at[RTA_OIF], bad);
    const auto gateway = gateway_of(t, rt.rtm_family, bad);
    if (bad) return Error::BadAttribute;
    r.prefix = *dp::IpPrefix::make(dst, rt.rtm_dst_len);
    if (!r.add) return r;  // a deletion names the prefix; what it went to does not matter
    switch (rt.rtm_type) {
        case RTN_UNICAST:
            break;
        case RTN_BLACKHOLE:
        case RTN_UNREACHABLE:
        case RTN_PROHIBIT:
            r.blackhole = true;
            break;
        default:
            return Ignored::RouteType;
    }
    if (t.at[RTA_ENCAP] != nullptr || t.at[RTA_ENCAP_TYPE] != nullptr) return Ignored::Encap;
    if (r.blackhole) return r;
    if (t.at[RTA_MULTIPATH] != nullptr) {
        bool encap = false;
        if (const auto e = read_multipath(t.at[RTA_MULTIPATH], rt.rtm_family, r.hops, encap)) return *e;
        if (encap) return Ignored::Encap;
    } else if (gateway || oif) {
        r.hops.push_back(NlNextHop{gateway, oif.value_or(0), 1});
    }
    if (r.hops.empty() && !r.nh_id) return Error::MissingNextHop;
    return r;
}

What decode_nexthop(const nlmsghdr *nlh) {
    if (mnl_nlmsg_get_payload_len(nlh) < sizeof(nhmsg)) return Error::ShortHeader;
    nhmsg nm;
    std::memcpy(&nm, mnl_nlmsg_get_payload(nlh), sizeof nm);
    AttrTable<NHA_MAX + 1> t;
    const std::size_t off = MNL_ALIGN(sizeof(nhmsg));
    const std::size_t payload = mnl_nlmsg_get_payload_len(nlh);
    if (payload > off &&
        !parse_attrs(static_cast<const std::uint8_t *>(mnl_nlmsg_get_payload(nlh)) + off, payload - off, t))
        return Error::BadAttribute;
    bool bad = false;
    NexthopMsg n;
    n.add = nlh->nlmsg_type == RTM_NEWNEXTHOP;
    n.replace = (nlh->nlmsg_flags & NLM_F_REPLACE) != 0;
    const auto id = u32_attr(t.at[NHA_ID], bad);
    if (bad) return Error::BadAttribute;
    if (!id || *id == 0) return Error::MissingId;
    n.id = *id;
    if (!n.add) return n;
    if (t.at[NHA_FDB] != nullptr) return Ignored::NexthopKind;
    if (t.at[NHA_ENCAP] != nullptr || t.at[NHA_ENCAP_TYPE] != nullptr) return Ignored::Encap;
    if (const nlattr *g = t.at[NHA_GROUP]) {
        const std::size_t len = mnl_attr_get_payload_len(g);
        if (len == 0 || len % sizeof(nexthop_grp) != 0) return Error::BadGroup;
        const auto *p = static_cast<const std::uint8_t *>(mnl_attr_get_payload(g));
        for (std::size_t i = 0; i < len; i += sizeof(nexthop_grp)) {
            nexthop_grp e;
            std::memcpy(&e, p + i, sizeof e);
            if (e.id == 0 || e.id == n.id) return Error::BadGroup;
            n.group.push_back(GroupMember{e.id, static_cast<std::uint16_t>(e.weight + 1)});
        }
        return n;
    }
    if (t.at[NHA_BLACKHOLE] != nullptr) {
        n.blackhole = true;
        return n;
    }
    if (t.at[NHA_GATEWAY] != nullptr) {
        if (nm.nh_family != AF_INET && nm.nh_family != AF_INET6) return Error::BadFamily;
        n.gateway = addr_attr(t.at[NHA_GATEWAY], nm.nh_family, bad);
    }
    if (const auto oif = u32_attr(t.at[NHA_OIF], bad)) n.ifindex = *oif;
    if (bad) return Error::BadAttribute;
    if (!n.gateway && n.ifindex == 0) return Error::MissingNextHop;
    return n;
}

}  // namespace

void decode_netlink(std::span<const std::uint8_t> payload, std::vector<Decoded> &out) {
    // netlink headers and attributes are read in place: copy to 4-byte aligned storage.
    thread_local std::vector<std::uint32_t> aligned;
    aligned.assign((payload.size() + 3) / 4, 0);
    if (!payload.empty()) std::memcpy(aligned.data(), payload.data(), payload.size());
    const auto *bytes = reinterpret_cast<const std::uint8_t *>(aligned.data());
    std::size_t at = 0;
    while (at < payload.size()) {
        // Not mnl_nlmsg_ok: it compares the length as an int, so one of 2^31 or more passes.
        const std::size_t left = payload.size() - at;
        const auto *nlh = reinterpret_cast<const nlmsghdr *>(bytes + at);
        if (left < sizeof(nlmsghdr) || nlh->nlmsg_len < sizeof(nlmsghdr) || nlh->nlmsg_len > left) {
            out.push_back(Decoded{0, Error::NetlinkTruncated});
            return;
        }
        Decoded d{nlh->nlmsg_type, Ignored::MessageType};
        switch (nlh->nlmsg_type) {
            case RTM_NEWROUTE:
            case RTM_DELROUTE:
                d.what = decode_route(nlh);
                break;
            case RTM_NEWNEXTHOP:
            case RTM_DELNEXTHOP:
                d.what = decode_nexthop(nlh);
                break;
            default:
                break;
        }
        out.push_back(std::move(d));
        at += MNL_ALIGN(nlh->nlmsg_len);
    }
}

}  // namespace weft::control::fpm
