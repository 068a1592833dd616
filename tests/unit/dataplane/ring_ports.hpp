// Ring-backed ethdevs (net_ring) for the tests and the fuzz target that run the worker: a port's
// RX ring takes the frames the test puts there, its TX rings (one per TX queue) hold what the
// worker sent.
#pragma once

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include <cstdint>
#include <string>
#include <vector>

namespace weft::dataplane::test {

class RingPorts {
  public:
    // Ports 0 .. count-1 (the process's first ethdevs, so that their ids are those), started,
    // each with one RX queue and `tx_queues` TX queues; the TX rings of port `small_tx` (if any)
    // hold 15 frames. With `configure` false the ports are left for a Dataplane to configure and
    // start. Throws std::runtime_error when DPDK refuses.
    RingPorts(const std::string &name, std::uint16_t count, unsigned tx_queues, int small_tx = -1,
              bool configure = true);

    rte_mempool *pool() const noexcept { return pool_; }
    const rte_ether_addr &mac(std::uint16_t port) const noexcept { return mac_[port]; }

    // An mbuf holding `frame` (with these offload flags), split into segments after the byte
    // counts in `cuts` (each a length, in order; what is left forms the last segment).
    rte_mbuf *mbuf(const std::vector<std::uint8_t> &frame, std::uint64_t ol_flags = 0,
                   const std::vector<std::size_t> &cuts = {}) const;
    // Puts the mbufs on port's RX ring (all of them: false if it had no room).
    bool receive(std::uint16_t port, const std::vector<rte_mbuf *> &m) const;
    // What left on port's TX queue, in order (and gone from the ring).
    std::vector<std::vector<std::uint8_t>> sent(std::uint16_t port, unsigned queue = 0) const;
    // Empties every ring.
    void drain() const;

  private:
    rte_mempool *pool_ = nullptr;
    unsigned tx_queues_;
    std::vector<rte_ring *> rx_;
    std::vector<std::vector<rte_ring *>> tx_;
    std::vector<rte_ether_addr> mac_;
};

}  // namespace weft::dataplane::test
