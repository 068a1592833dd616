// The per-message-type FPM targets: the input is a message body under a netlink header of the
// target's type (with NLM_F_REPLACE when the first byte is odd), decoded and applied to a RIB,
// preceded by a nexthop and a route so that deletions and group references find something.
#pragma once

#include <linux/rtnetlink.h>

#include <cstring>

#include "fpm_rig.hpp"

namespace weft::control::fpm::fuzz {

inline void one_message(std::uint16_t type, const std::uint8_t *data, std::size_t size) {
    if (size > 4096) return;
    std::vector<std::uint8_t> msg(sizeof(nlmsghdr) + size);
    nlmsghdr h{};
    h.nlmsg_len = static_cast<std::uint32_t>(msg.size());
    h.nlmsg_type = type;
    h.nlmsg_flags = NLM_F_REQUEST | (size > 0 && (data[0] & 1) != 0 ? NLM_F_REPLACE : 0);
    std::memcpy(msg.data(), &h, sizeof h);
    if (size > 0) std::memcpy(msg.data() + sizeof h, data, size);
    std::vector<Decoded> msgs;
    NexthopMsg nh;
    nh.id = 1;
    nh.ifindex = 1;
    msgs.push_back(Decoded{RTM_NEWNEXTHOP, nh});
    RouteMsg r;
    r.prefix = *dataplane::IpPrefix::parse("10.0.0.0/8");
    r.nh_id = 1;
    msgs.push_back(Decoded{RTM_NEWROUTE, r});
    decode_netlink(msg, msgs);
    run_rib(msgs);
}

}  // namespace weft::control::fpm::fuzz
