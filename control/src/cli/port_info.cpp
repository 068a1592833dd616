// show port info <p>|all [json]: what testpmd's `show port info` shows of a port (driver,
// device, MAC, link, MTU, promiscuous and all-multicast modes, queue and descriptor limits,
// RSS, RX offloads), plus weft's own view of it (started, administrative state, link state
// source, who verifies IPv4 header checksums).
#include <cmdline.h>
#include <rte_ethdev.h>

#include <cstdio>
#include <string>

#include "cli_internal.hpp"

namespace weft::control::cli {

namespace dp = weft::dataplane;

namespace {

struct PortInfo {
    std::uint16_t port = 0;
    char name[RTE_ETH_NAME_MAX_LEN] = "";
    std::string driver, firmware, mac, speed;
    int socket = -1;
    rte_eth_dev_info info{};
    rte_eth_link link{};
    bool link_known = false;
    std::uint16_t mtu = 0;
    int promiscuous = -1, allmulticast = -1;  // 1 on, 0 off, -1 unknown
    std::uint64_t rss_active = 0, rx_offloads = 0;
    dp::PortStatus weft;
    const char *ipv4_checksum = "";  // who verifies received IPv4 header checksums
};

PortInfo read_port(const CommandContext &ctx, std::uint16_t p) {
    PortInfo r;
    r.port = p;
    if (rte_eth_dev_get_name_by_port(p, r.name) != 0) r.name[0] = '\0';
    if (rte_eth_dev_info_get(p, &r.info) == 0 && r.info.driver_name != nullptr) r.driver = r.info.driver_name;
    char fw[64];
    r.firmware = rte_eth_dev_fw_version_get(p, fw, sizeof fw) == 0 ? fw : "not available";
    r.socket = rte_eth_dev_socket_id(p);
    r.link_known = rte_eth_link_get_nowait(p, &r.link) == 0;
    r.speed = r.link_known ? rte_eth_link_speed_to_str(r.link.link_speed) : "unknown";
    if (rte_eth_dev_get_mtu(p, &r.mtu) != 0) r.mtu = 0;
    r.promiscuous = rte_eth_promiscuous_get(p);
    r.allmulticast = rte_eth_allmulticast_get(p);
    rte_eth_conf conf{};
    if (rte_eth_dev_conf_get(p, &conf) == 0) {
        r.rss_active = conf.rx_adv_conf.rss_conf.rss_hf;
        r.rx_offloads = conf.rxmode.offloads;
    }
    r.weft = ctx.dp->port_status(p);
    r.ipv4_checksum = r.weft.nic_ipv4_cksum                          ? "nic"
                      : ctx.dp->config().parser.verify_ipv4_checksum ? "software"
                                                                     : "off";
    char mac[RTE_ETHER_ADDR_FMT_SIZE];
    rte_ether_format_addr(mac, sizeof mac, &r.weft.mac);
    r.mac = mac;
    return r;
}

const char *mode(int v) {
    return v == 1 ? "enabled" : v == 0 ? "disabled" : "unknown";
}

void print_text(struct cmdline *cl, const PortInfo &r) {
    const rte_eth_dev_info &i = r.info;
    cmdline_printf(cl, "\n********************* Infos for port %u  *********************\n", r.port);
    cmdline_printf(cl, "MAC address: %s\nDevice name: %s\nDriver name: %s\nFirmware-version: %s\n",
                   r.mac.c_str(), r.name, r.driver.c_str(), r.firmware.c_str());
    cmdline_printf(cl, "Connect to socket: %d\n", r.socket);
    cmdline_printf(cl, "Link status: %s\nLink speed: %s\nLink duplex: %s\nAutoneg status: %s\n",
                   r.link_known ? (r.link.link_status == RTE_ETH_LINK_UP ? "up" : "down") : "unknown",
                   r.speed.c_str(),
                   r.link.link_duplex == RTE_ETH_LINK_FULL_DUPLEX ? "full-duplex" : "half-duplex",
                   r.link.link_autoneg == RTE_ETH_LINK_AUTONEG ? "On" : "Off");
    cmdline_printf(cl, "MTU: %u (min %u, max %u)\n", r.mtu, i.min_mtu, i.max_mtu);
    cmdline_printf(cl, "Promiscuous mode: %s\nAllmulticast mode: %s\n", mode(r.promiscuous),
                   mode(r.allmulticast));
    cmdline_printf(cl, "Maximum number of MAC addresses: %u\n", i.max_mac_addrs);
    cmdline_printf(cl, "Maximum configurable length of RX packet: %u\n", i.max_rx_pktlen);
    cmdline_printf(cl, "Hash key size in bytes: %u\n", i.hash_key_size);
    cmdline_printf(cl, "Supported RSS offload flow types: 0x%llx\nActive RSS hash functions: 0x%llx\n",
                   ull(i.flow_type_rss_offloads), ull(r.rss_active));
    cmdline_printf(cl,
                   "Current number of RX queues: %u\nMax possible RX queues: %u\n"
                   "Max possible number of RXDs per queue: %u\nMin possible number of RXDs per queue: %u\n",
                   i.nb_rx_queues, i.max_rx_queues, i.rx_desc_lim.nb_max, i.rx_desc_lim.nb_min);
    cmdline_printf(cl,
                   "Current number of TX queues: %u\nMax possible TX queues: %u\n"
                   "Max possible number of TXDs per queue: %u\nMin possible number of TXDs per queue: %u\n",
                   i.nb_tx_queues, i.max_tx_queues, i.tx_desc_lim.nb_max, i.tx_desc_lim.nb_min);
    cmdline_printf(cl, "RX offloads capability: 0x%llx\nActive RX offloads: 0x%llx\n", ull(i.rx_offload_capa),
                   ull(r.rx_offloads));
    cmdline_printf(cl, "IPv4 header checksums verified by: %s\n", r.ipv4_checksum);
    cmdline_printf(cl, "weft: %s, admin %s, link %s, link state %s, %llu link changes seen\n",
                   r.weft.started ? "started" : "stopped", r.weft.admin_up ? "up" : "down",
                   r.weft.link_up ? "up" : "down",
                   r.weft.lsc_interrupt ? "by LSC interrupt and polling" : "polled",
                   ull(r.weft.link_changes));
}

Json info_record(const PortInfo &r) {
    const rte_eth_dev_info &i = r.info;
    return Json{{"port", r.port},
                {"mac", r.mac},
                {"device", r.name},
                {"driver", r.driver},
                {"firmware", r.firmware},
                {"socket", r.socket},
                {"link_up", r.link_known && r.link.link_status == RTE_ETH_LINK_UP},
                {"link_speed", r.speed},
                {"link_speed_mbps", r.link.link_speed},
                {"full_duplex", r.link.link_duplex == RTE_ETH_LINK_FULL_DUPLEX},
                {"autoneg", r.link.link_autoneg == RTE_ETH_LINK_AUTONEG},
                {"mtu", r.mtu},
                {"min_mtu", i.min_mtu},
                {"max_mtu", i.max_mtu},
                {"promiscuous", mode(r.promiscuous)},
                {"allmulticast", mode(r.allmulticast)},
                {"max_mac_addrs", i.max_mac_addrs},
                {"max_rx_pktlen", i.max_rx_pktlen},
                {"hash_key_size", i.hash_key_size},
                {"rss_offloads", i.flow_type_rss_offloads},
                {"rss_active", r.rss_active},
                {"rx_queues", i.nb_rx_queues},
                {"max_rx_queues", i.max_rx_queues},
                {"rx_desc_max", i.rx_desc_lim.nb_max},
                {"rx_desc_min", i.rx_desc_lim.nb_min},
                {"tx_queues", i.nb_tx_queues},
                {"max_tx_queues", i.max_tx_queues},
                {"tx_desc_max", i.tx_desc_lim.nb_max},
                {"tx_desc_min", i.tx_desc_lim.nb_min},
                {"rx_offload_capa", i.rx_offload_capa},
                {"rx_offloads", r.rx_offloads},
                {"ipv4_checksum", r.ipv4_checksum},
                {"started", r.weft.started},
                {"admin_up", r.weft.admin_up},
                {"weft_link_up", r.weft.link_up},
                {"lsc_interrupt", r.weft.lsc_interrupt},
                {"link_changes", r.weft.link_changes}};
}

struct InfoCmd {
    cmdline_fixed_string_t show, port, info, which, json;
};
WEFT_TOK_STR(InfoCmd, show, "show");
WEFT_TOK_STR(InfoCmd, port, "port");
WEFT_TOK_STR(InfoCmd, info, "info");
WEFT_TOK_STR(InfoCmd, which, nullptr);
WEFT_TOK_STR(InfoCmd, json, "json");

void show_info(void *res, struct cmdline *cl, void *data, bool json) {
    CommandContext &ctx = context_of(data);
    auto *r = static_cast<InfoCmd *>(res);
    const auto ports = ports_arg(ctx, r->which);
    if (!ports) return refuse(ctx, cl, std::string("no port ") + r->which);
    Json records = Json::array();
    for (std::uint16_t p : *ports) {
        const PortInfo info = read_port(ctx, p);
        if (json)
            records.push_back(info_record(info));
        else
            print_text(cl, info);
    }
    if (json) print_json(cl, Json{{"ports", records}});
}
void show_info_text(void *res, struct cmdline *cl, void *data) {
    show_info(res, cl, data, false);
}
void show_info_json(void *res, struct cmdline *cl, void *data) {
    show_info(res, cl, data, true);
}
Inst<4> inst_info{show_info_text,
                  nullptr,
                  "show port info <p>|all",
                  {WEFT_HDR(InfoCmd_show), WEFT_HDR(InfoCmd_port), WEFT_HDR(InfoCmd_info),
                   WEFT_HDR(InfoCmd_which), nullptr}};
Inst<5> inst_info_json{show_info_json,
                       nullptr,
                       "show port info <p>|all json",
                       {WEFT_HDR(InfoCmd_show), WEFT_HDR(InfoCmd_port), WEFT_HDR(InfoCmd_info),
                        WEFT_HDR(InfoCmd_which), WEFT_HDR(InfoCmd_json), nullptr}};

}  // namespace

InstList port_info_commands() {
    return {as_inst(inst_info), as_inst(inst_info_json)};
}

}  // namespace weft::control::cli
