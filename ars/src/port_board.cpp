#include "weft/ars/port_board.hpp"

namespace weft::ars {

PortBoard::PortBoard(std::size_t port_count, std::size_t lag_count, std::size_t remote_slot_count)
    : port_count_(port_count),
      lag_count_(lag_count),
      remote_slot_count_(remote_slot_count),
      port_quality_(new std::atomic<std::uint8_t>[port_count]),
      link_up_(new std::atomic<std::uint8_t>[port_count]),
      lag_quality_(new std::atomic<std::uint8_t>[lag_count]),
      remote_quality_(new std::atomic<std::uint8_t>[remote_slot_count]) {
    for (std::size_t p = 0; p < port_count; ++p) {
        port_quality_[p].store(kBestQuality, std::memory_order_relaxed);
        link_up_[p].store(0, std::memory_order_relaxed);
    }
    for (std::size_t l = 0; l < lag_count; ++l)
        lag_quality_[l].store(kBestQuality, std::memory_order_relaxed);
    for (std::size_t s = 0; s < remote_slot_count; ++s)
        remote_quality_[s].store(kBestQuality, std::memory_order_relaxed);
}

}  // namespace weft::ars
