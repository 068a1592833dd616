// DataplaneFramePorts: punted frames in, control TX out.
#include "weft/control/fabric/dataplane_frame_ports.hpp"

#include <rte_mbuf.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace weft::control::fabric {

DataplaneFramePorts::DataplaneFramePorts(dataplane::Dataplane &dp) : dp_(dp) {
    for (std::uint16_t p = 0; p < dp.num_ports() && p < sm::kMaxPortNum; ++p) {
        const rte_ether_addr a = dp.port_status(p).mac;
        sm::MacAddr m{};
        std::copy(std::begin(a.addr_bytes), std::end(a.addr_bytes), m.begin());
        macs_.push_back(m);
    }
}

DataplaneFramePorts::~DataplaneFramePorts() {
    release();
    for (unsigned i = batch_next_; i < batch_n_; ++i) rte_pktmbuf_free(batch_[i]);
}

void DataplaneFramePorts::release() {
    if (held_ != nullptr) rte_pktmbuf_free(held_);
    held_ = nullptr;
}

bool DataplaneFramePorts::send(sm::PortNum port, std::span<const std::uint8_t> frame) {
    if (port == 0 || port > macs_.size() || frame.size() > UINT16_MAX) {
        ++counters_.send_failed;
        return false;
    }
    rte_mbuf *m = dp_.alloc_control_mbuf();
    char *data = m != nullptr ? rte_pktmbuf_append(m, static_cast<std::uint16_t>(frame.size())) : nullptr;
    if (data == nullptr) {
        if (m != nullptr) rte_pktmbuf_free(m);
        ++counters_.send_failed;
        return false;
    }
    std::memcpy(data, frame.data(), frame.size());
    if (!dp_.send_from_control(static_cast<std::uint16_t>(port - 1), m)) {  // it took m either way
        ++counters_.send_failed;
        return false;
    }
    ++counters_.sent;
    return true;
}

std::optional<sm::ReceivedFrame> DataplaneFramePorts::receive(std::chrono::milliseconds wait) {
    release();
    const auto deadline = std::chrono::steady_clock::now() + wait;
    for (;;) {
        while (batch_next_ == batch_n_) {
            batch_next_ = 0;
            batch_n_ = dp_.drain_punted(batch_.data(), kBatch);
            if (batch_n_ != 0) break;
            const auto now = std::chrono::steady_clock::now();
            if (now >= deadline) return std::nullopt;
            dp_.wait_punted(std::chrono::duration_cast<std::chrono::microseconds>(deadline - now));
        }
        held_ = batch_[batch_next_++];
        if (!divert_ || !divert_(held_)) break;
        held_ = nullptr;
    }
    ++counters_.received;
    const std::uint32_t len = rte_pktmbuf_pkt_len(held_);
    const std::uint8_t *bytes = rte_pktmbuf_mtod(held_, const std::uint8_t *);
    if (held_->nb_segs > 1) {
        copy_.resize(len);
        bytes = static_cast<const std::uint8_t *>(rte_pktmbuf_read(held_, 0, len, copy_.data()));
    }
    return sm::ReceivedFrame{static_cast<sm::PortNum>(held_->port + 1), std::span(bytes, len)};
}

sm::MacAddr DataplaneFramePorts::mac(sm::PortNum port) const {
    return port >= 1 && port <= macs_.size() ? macs_[port - 1] : sm::MacAddr{};
}

}  // namespace weft::control::fabric
