// A worker's TX side: one buffer per (port, TX queue slot) that frames are enqueued to as they
// are forwarded, and a flush, once per poll, that hands each buffer holding frames to its queue
// with one rte_eth_tx_burst. Frames the queue does not take stay buffered (weft's own TX
// backlog, which the ARS quality sampler reads); a full buffer refuses more. A frame is counted
// forwarded when its queue takes it, and dropped once if it never leaves.
#pragma once

#include <rte_mbuf.h>

#include <cstdint>
#include <vector>

#include "weft/dataplane/counters.hpp"
#include "weft/dataplane/link_state.hpp"
#include "weft/dataplane/worker.hpp"

namespace weft::dataplane {

struct TxBuffer {
    std::uint16_t count = 0;
    std::uint16_t capacity = 0;
    std::uint16_t port = 0;
    std::uint16_t queue = 0;
    std::uint32_t bytes = 0;
    std::uint32_t refused_bytes = 0;  // of the frames the queue did not take at the last try
    rte_mbuf *pkts[2 * kMaxBurst];
};

class TxBuffers {
  public:
    // `slots` buffers per port (the worker's TX queues on it, queue_base onwards) of 2 * burst
    // frames each.
    TxBuffers(std::uint16_t slots, std::uint16_t queue_base, std::uint16_t burst);
    TxBuffers(const TxBuffers &) = delete;
    TxBuffers &operator=(const TxBuffers &) = delete;

    TxBuffer &at(std::uint16_t port, std::uint16_t slot) noexcept {
        return buffers_[static_cast<std::size_t>(port) * slots_ + slot];
    }

    // Adds `m` (`len` bytes) to `b`; false when `b` is full (the caller drops the frame).
    bool enqueue(TxBuffer &b, rte_mbuf *m, std::uint32_t len) noexcept {
        if (b.count == b.capacity) return false;
        if (b.count == 0) pending_[pending_n_++] = &b;  // a buffer is pending while it holds frames
        b.pkts[b.count++] = m;
        b.bytes += len;
        return true;
    }

    bool pending() const noexcept { return pending_n_ != 0; }

    // Every buffer holding frames to its queue. A port that stopped under the worker takes
    // nothing: its frames are dropped as port_down.
    void flush(const LinkState &links, WorkerCounters &counters) noexcept;
    // Drops every buffered frame: port_down where the port stopped, tx_queue_full where its
    // queue would not take them.
    void discard(const LinkState &links, WorkerCounters &counters) noexcept;

  private:
    void send(TxBuffer &b, WorkerCounters &counters) noexcept;
    void drop_all(TxBuffer &b, DropReason why, WorkerCounters &counters) noexcept;

    std::uint16_t slots_;
    std::vector<TxBuffer> buffers_;    // [port][slot]
    std::vector<TxBuffer *> pending_;  // the buffers holding frames
    std::size_t pending_n_ = 0;
    std::vector<std::uint64_t> refused_bytes_;  // per port: its slots' refused_bytes
};

}  // namespace weft::dataplane
