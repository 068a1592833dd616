// Netlink messages as zebra's dplane_fpm_nl writes them, built with libmnl, for the FPM decoder's
// and RIB's tests.
#pragma once

#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace weft::control::fpm::test {

class NlMsg {
  public:
    explicit NlMsg(std::uint16_t type, std::uint16_t flags = NLM_F_REQUEST) {
        mnl_nlmsg_put_header(buf_.data());
        nlh()->nlmsg_type = type;
        nlh()->nlmsg_flags = flags;
    }
    // A route message: family, prefix length, route type.
    static NlMsg route(bool add, int family, std::uint8_t dst_len, std::uint8_t type = RTN_UNICAST,
                       std::uint16_t flags = NLM_F_REQUEST) {
        NlMsg m(add ? RTM_NEWROUTE : RTM_DELROUTE, flags);
        auto *rt = static_cast<rtmsg *>(mnl_nlmsg_put_extra_header(m.nlh(), sizeof(rtmsg)));
        rt->rtm_family = static_cast<std::uint8_t>(family);
        rt->rtm_dst_len = dst_len;
        rt->rtm_table = RT_TABLE_MAIN;
        rt->rtm_protocol = RTPROT_STATIC;
        rt->rtm_type = type;
        return m;
    }
    static NlMsg nexthop(bool add, int family, std::uint32_t id, std::uint16_t flags = NLM_F_REQUEST) {
        NlMsg m(add ? RTM_NEWNEXTHOP : RTM_DELNEXTHOP, flags);
        auto *nh = static_cast<nhmsg *>(mnl_nlmsg_put_extra_header(m.nlh(), sizeof(nhmsg)));
        nh->nh_family = static_cast<std::uint8_t>(family);
        mnl_attr_put_u32(m.nlh(), NHA_ID, id);
        return m;
    }
    NlMsg &addr(std::uint16_t type, const char *text) {
        std::uint8_t a[16];
        if (inet_pton(AF_INET, text, a) == 1)
            mnl_attr_put(nlh(), type, 4, a);
        else if (inet_pton(AF_INET6, text, a) == 1)
            mnl_attr_put(nlh(), type, 16, a);
        return *this;
    }
    NlMsg &u32(std::uint16_t type, std::uint32_t v) {
        mnl_attr_put_u32(nlh(), type, v);
        return *this;
    }
    NlMsg &flag(std::uint16_t type) {
        mnl_attr_put(nlh(), type, 0, nullptr);
        return *this;
    }
    NlMsg &raw(std::uint16_t type, const std::vector<std::uint8_t> &bytes) {
        mnl_attr_put(nlh(), type, bytes.size(), bytes.data());
        return *this;
    }
    // RTA_MULTIPATH: (gateway or "", ifindex, weight) each.
    NlMsg &multipath(const std::vector<std::tuple<std::string, int, int>> &hops) {
        std::vector<std::uint8_t> body;
        for (const auto &[gw, ifindex, weight] : hops) {
            std::vector<std::uint8_t> one(sizeof(rtnexthop));
            rtnexthop nh{};
            nh.rtnh_ifindex = ifindex;
            nh.rtnh_hops = static_cast<unsigned char>(weight - 1);
            if (!gw.empty()) {
                std::uint8_t a[16];
                const bool v4 = inet_pton(AF_INET, gw.c_str(), a) == 1;
                if (!v4) inet_pton(AF_INET6, gw.c_str(), a);
                const std::size_t len = v4 ? 4 : 16;
                nlattr at{static_cast<std::uint16_t>(MNL_ATTR_HDRLEN + len), RTA_GATEWAY};
                const std::size_t at_off = one.size();
                one.resize(at_off + MNL_ALIGN(MNL_ATTR_HDRLEN + len), 0);
                std::memcpy(one.data() + at_off, &at, sizeof at);
                std::memcpy(one.data() + at_off + MNL_ATTR_HDRLEN, a, len);
            }
            nh.rtnh_len = static_cast<unsigned short>(one.size());
            std::memcpy(one.data(), &nh, sizeof nh);
            body.insert(body.end(), one.begin(), one.end());
        }
        return raw(RTA_MULTIPATH, body);
    }
    // NHA_GROUP: (id, weight) each.
    NlMsg &group(const std::vector<std::pair<std::uint32_t, int>> &members) {
        std::vector<std::uint8_t> body(members.size() * sizeof(nexthop_grp));
        for (std::size_t i = 0; i < members.size(); ++i) {
            nexthop_grp g{};
            g.id = members[i].first;
            g.weight = static_cast<std::uint8_t>(members[i].second - 1);
            std::memcpy(body.data() + i * sizeof g, &g, sizeof g);
        }
        return raw(NHA_GROUP, body);
    }
    std::vector<std::uint8_t> bytes() const {
        const auto *p = reinterpret_cast<const std::uint8_t *>(buf_.data());
        return {p, p + nlh()->nlmsg_len};
    }

  private:
    // The header is found from the buffer each time: an NlMsg is returned by value.
    nlmsghdr *nlh() { return reinterpret_cast<nlmsghdr *>(buf_.data()); }
    const nlmsghdr *nlh() const { return reinterpret_cast<const nlmsghdr *>(buf_.data()); }
    alignas(4) std::array<char, 4096> buf_{};
};

// An FPM frame around netlink messages.
inline std::vector<std::uint8_t> frame(const std::vector<std::vector<std::uint8_t>> &msgs,
                                       std::uint8_t version = 1, std::uint8_t type = 1) {
    std::vector<std::uint8_t> out(4);
    for (const auto &m : msgs) out.insert(out.end(), m.begin(), m.end());
    out[0] = version;
    out[1] = type;
    out[2] = static_cast<std::uint8_t>(out.size() >> 8);
    out[3] = static_cast<std::uint8_t>(out.size());
    return out;
}

}  // namespace weft::control::fpm::test
