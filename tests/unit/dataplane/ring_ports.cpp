#include "ring_ports.hpp"

#include <rte_eth_ring.h>
#include <rte_ethdev.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace weft::dataplane::test {

namespace {
void check(bool ok, const std::string &what) {
    if (!ok) throw std::runtime_error("ring ports: " + what + " failed");
}
}  // namespace

RingPorts::RingPorts(const std::string &name, std::uint16_t count, unsigned tx_queues, int small_tx,
                     bool configure)
    : tx_queues_(tx_queues), rx_(count), tx_(count), mac_(count) {
    pool_ = rte_pktmbuf_pool_create((name + "_pool").c_str(), 8191, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
                                    SOCKET_ID_ANY);
    check(pool_ != nullptr, "mbuf pool");
    for (std::uint16_t port = 0; port < count; ++port) {
        const std::string n = name + std::to_string(port);
        rx_[port] = rte_ring_create((n + "_rx").c_str(), 1024, SOCKET_ID_ANY, 0);
        check(rx_[port] != nullptr, "RX ring");
        for (unsigned q = 0; q < tx_queues; ++q) {
            tx_[port].push_back(rte_ring_create((n + "_tx" + std::to_string(q)).c_str(),
                                                port == small_tx ? 16 : 1024, SOCKET_ID_ANY, 0));
            check(tx_[port].back() != nullptr, "TX ring");
        }
        check(
            rte_eth_from_rings(n.c_str(), &rx_[port], 1, tx_[port].data(), tx_queues, SOCKET_ID_ANY) == port,
            "rte_eth_from_rings");
        rte_eth_macaddr_get(port, &mac_[port]);
        if (!configure) continue;
        rte_eth_conf conf{};
        check(rte_eth_dev_configure(port, 1, static_cast<std::uint16_t>(tx_queues), &conf) == 0, "configure");
        check(rte_eth_rx_queue_setup(port, 0, 1024, SOCKET_ID_ANY, nullptr, pool_) == 0, "RX queue");
        for (std::uint16_t q = 0; q < tx_queues; ++q)
            check(rte_eth_tx_queue_setup(port, q, 1024, SOCKET_ID_ANY, nullptr) == 0, "TX queue");
        check(rte_eth_dev_start(port) == 0, "start");
    }
}

rte_mbuf *RingPorts::mbuf(const std::vector<std::uint8_t> &frame, std::uint64_t ol_flags,
                          const std::vector<std::size_t> &cuts) const {
    rte_mbuf *head = nullptr;
    std::size_t at = 0;
    for (std::size_t k = 0; k <= cuts.size(); ++k) {
        const std::size_t len = k < cuts.size() ? std::min(cuts[k], frame.size() - at) : frame.size() - at;
        rte_mbuf *m = rte_pktmbuf_alloc(pool_);
        check(m != nullptr, "mbuf");
        char *room = len != 0 ? rte_pktmbuf_append(m, static_cast<std::uint16_t>(len)) : nullptr;
        if (len != 0) {
            check(room != nullptr, "mbuf room");
            std::memcpy(room, frame.data() + at, len);
        }
        at += len;
        if (head == nullptr) {
            head = m;
        } else if (rte_pktmbuf_chain(head, m) != 0) {
            rte_pktmbuf_free(m);
            rte_pktmbuf_free(head);
            check(false, "mbuf chain");
        }
    }
    head->ol_flags = ol_flags;
    return head;
}

bool RingPorts::receive(std::uint16_t port, const std::vector<rte_mbuf *> &m) const {
    return rte_ring_enqueue_bulk(rx_[port], reinterpret_cast<void *const *>(m.data()),
                                 static_cast<unsigned>(m.size()), nullptr) == m.size();
}

std::vector<std::vector<std::uint8_t>> RingPorts::sent(std::uint16_t port, unsigned queue) const {
    std::vector<std::vector<std::uint8_t>> out;
    rte_mbuf *m[64];
    for (unsigned n;
         (n = rte_ring_dequeue_burst(tx_[port][queue], reinterpret_cast<void **>(m), 64, nullptr));)
        for (unsigned i = 0; i < n; ++i) {
            std::vector<std::uint8_t> b;
            for (const rte_mbuf *s = m[i]; s != nullptr; s = s->next) {
                const auto *d = rte_pktmbuf_mtod(s, const std::uint8_t *);
                b.insert(b.end(), d, d + s->data_len);
            }
            out.push_back(std::move(b));
            rte_pktmbuf_free(m[i]);
        }
    return out;
}

void RingPorts::drain() const {
    rte_mbuf *m[64];
    for (std::uint16_t p = 0; p < rx_.size(); ++p) {
        for (unsigned n; (n = rte_ring_dequeue_burst(rx_[p], reinterpret_cast<void **>(m), 64, nullptr));)
            rte_pktmbuf_free_bulk(m, n);
        for (rte_ring *r : tx_[p])
            for (unsigned n; (n = rte_ring_dequeue_burst(r, reinterpret_cast<void **>(m), 64, nullptr));)
                rte_pktmbuf_free_bulk(m, n);
    }
}

}  // namespace weft::dataplane::test
