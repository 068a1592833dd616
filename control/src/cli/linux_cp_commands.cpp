// show linux-cp [json]: the kernel mirror's interfaces (name, index, carrier, addresses, frames
// each way), the neighbours it learned from the kernel, and its drops by reason.
#include <cmdline.h>
#include <linux/neighbour.h>

#include <cstdio>

#include "cli_internal.hpp"
#include "weft/control/lcp/linux_cp.hpp"

namespace weft::control::cli {

namespace {

std::string mac_text(const std::array<std::uint8_t, 6> &m) {
    char s[18];
    std::snprintf(s, sizeof s, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
    return s;
}

const char *nud_name(std::uint16_t state) {
    if (state & NUD_PERMANENT) return "permanent";
    if (state & NUD_NOARP) return "noarp";
    if (state & NUD_REACHABLE) return "reachable";
    if (state & NUD_STALE) return "stale";
    if (state & NUD_DELAY) return "delay";
    if (state & NUD_PROBE) return "probe";
    return "other";
}

Json linux_cp_record(const lcp::LinuxCp &l) {
    Json ports = Json::array();
    for (const lcp::LinuxCpPort &p : l.ports()) {
        Json addrs = Json::array();
        for (const dataplane::IpPrefix &a : p.addresses)
            addrs.push_back(a.addr.to_string() + "/" + std::to_string(a.len));
        ports.push_back(Json{{"port", p.port},
                             {"name", p.name},
                             {"ifindex", p.ifindex},
                             {"carrier", p.carrier},
                             {"addresses", addrs},
                             {"to_kernel_frames", p.to_kernel},
                             {"to_kernel_bytes", p.to_kernel_bytes},
                             {"from_kernel_frames", p.from_kernel},
                             {"from_kernel_bytes", p.from_kernel_bytes}});
    }
    Json neigh = Json::array();
    for (const auto &[key, n] : l.neighbours())
        neigh.push_back(Json{{"ip", key.ip.to_string()},
                             {"mac", mac_text(n.mac)},
                             {"port", n.port},
                             {"state", nud_name(n.state)},
                             {"nhg", n.nhg}});
    const lcp::LinuxCpDrops &d = l.drops();
    Json drops{{"to_kernel_no_tap", d.to_kernel_no_tap},
               {"to_kernel_write_failed", d.to_kernel_write_failed},
               {"from_kernel_no_mbuf", d.from_kernel_no_mbuf},
               {"from_kernel_tx_failed", d.from_kernel_tx_failed},
               {"from_kernel_read_failed", d.from_kernel_read_failed},
               {"netlink_overrun", d.netlink_overrun},
               {"fib_refused", d.fib_refused},
               {"neigh_in_use", d.neigh_in_use},
               {"host_address_refused", d.host_address_refused}};
    for (std::size_t k = 0; k < lcp::kNetlinkErrorCount; ++k)
        drops[std::string("netlink_") + lcp::netlink_error_name(static_cast<lcp::NetlinkError>(k))] =
            d.netlink_errors[k];
    return Json{{"interfaces", ports},
                {"enabled", true},
                {"neighbours", neigh},
                {"netlink_messages", l.netlink_messages()},
                {"resolutions_asked", l.resolutions_asked()},
                {"drops", drops}};
}

struct ShowLcpCmd {
    cmdline_fixed_string_t show, lcp, json;
};
WEFT_TOK_STR(ShowLcpCmd, show, "show");
WEFT_TOK_STR(ShowLcpCmd, lcp, "linux-cp");
WEFT_TOK_STR(ShowLcpCmd, json, "json");

void show_linux_cp(struct cmdline *cl, void *data, bool json) {
    CommandContext &ctx = context_of(data);
    if (ctx.lcp == nullptr) {
        if (json) return print_json(cl, Json{{"interfaces", Json::array()}, {"enabled", false}});
        cmdline_printf(cl, "the Linux mirror is off (weft -- --linux-cp turns it on)\n");
        return;
    }
    const Json r = linux_cp_record(*ctx.lcp);
    if (json) return print_json(cl, r);
    cmdline_printf(cl, "%-5s %-15s %-7s %-7s %12s %12s  %s\n", "port", "interface", "ifindex", "carrier",
                   "to-kernel", "from-kernel", "addresses");
    for (const Json &p : r["interfaces"]) {
        std::string addrs;
        for (const Json &a : p["addresses"]) addrs += (addrs.empty() ? "" : " ") + a.get<std::string>();
        cmdline_printf(cl, "%-5u %-15s %-7u %-7s %12llu %12llu  %s\n", p["port"].get<unsigned>(),
                       p["name"].get<std::string>().c_str(), p["ifindex"].get<unsigned>(),
                       p["carrier"].get<bool>() ? "up" : "down",
                       ull(p["to_kernel_frames"].get<std::uint64_t>()),
                       ull(p["from_kernel_frames"].get<std::uint64_t>()), addrs.c_str());
    }
    cmdline_printf(cl, "neighbours from the kernel: %zu\n", r["neighbours"].size());
    for (const Json &n : r["neighbours"])
        cmdline_printf(cl, "  %-39s %s port %u %s\n", n["ip"].get<std::string>().c_str(),
                       n["mac"].get<std::string>().c_str(), n["port"].get<unsigned>(),
                       n["state"].get<std::string>().c_str());
    cmdline_printf(cl, "netlink messages: %llu\ndrops:", ull(r["netlink_messages"].get<std::uint64_t>()));
    for (const auto &[k, v] : r["drops"].items())
        if (v.get<std::uint64_t>() != 0)
            cmdline_printf(cl, " %s %llu", k.c_str(), ull(v.get<std::uint64_t>()));
    cmdline_printf(cl, "\n");
}
void show_linux_cp_text(void *, struct cmdline *cl, void *data) {
    show_linux_cp(cl, data, false);
}
void show_linux_cp_json(void *, struct cmdline *cl, void *data) {
    show_linux_cp(cl, data, true);
}
Inst<2> inst_show_lcp{show_linux_cp_text,
                      nullptr,
                      "show linux-cp: the kernel mirror's interfaces, learned neighbours, drops",
                      {WEFT_HDR(ShowLcpCmd_show), WEFT_HDR(ShowLcpCmd_lcp), nullptr}};
Inst<3> inst_show_lcp_json{
    show_linux_cp_json,
    nullptr,
    "show linux-cp json",
    {WEFT_HDR(ShowLcpCmd_show), WEFT_HDR(ShowLcpCmd_lcp), WEFT_HDR(ShowLcpCmd_json), nullptr}};

}  // namespace

InstList linux_cp_commands() {
    return {as_inst(inst_show_lcp), as_inst(inst_show_lcp_json)};
}

}  // namespace weft::control::cli
