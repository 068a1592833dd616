// Which frames the workers hand to the control thread for the kernel mirror beyond those routed
// to a Local group: ARP (IPv4 has no other way to resolve the switch's addresses). Tested only
// for frames the parser already refused, so the forwarded ones pay nothing.
#pragma once

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include <cstdint>
#include <cstring>

namespace weft::dataplane {

// ARP, untagged or behind one 802.1Q tag.
inline bool is_arp(const rte_mbuf *m) noexcept {
    const auto *frame = rte_pktmbuf_mtod(m, const std::uint8_t *);
    const std::uint32_t len = m->data_len;
    if (len < RTE_ETHER_HDR_LEN) return false;
    std::uint16_t type;
    std::memcpy(&type, frame + 12, 2);
    if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN)) {
        if (len < RTE_ETHER_HDR_LEN + 4) return false;
        std::memcpy(&type, frame + 16, 2);
    }
    return type == rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP);
}

}  // namespace weft::dataplane
