// What the workers forward ARN frames by (arn/ARN_FORMAT.md): whether ARN is on, its EtherType,
// the ports that take ARN (the fabric ports), the receive rate limit, and this switch's part of
// the prefix-multicast flood tables of its group (arn/prefix_routing.hpp's flood_tables): per
// reporting switch and in port, the ports a copy leaves by and whether the news is this switch's
// to take. The control thread builds a whole ArnTables and swaps it in (ArnPublisher) like a FIB
// snapshot; the workers read it only for frames of the ARN EtherType, or over UDP for datagrams
// to the ARN port with TTL 255 (arn/udp_frame.hpp).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "weft/arn/frame.hpp"
#include "weft/arn/types.hpp"
#include "weft/arn/udp_frame.hpp"
#include "weft/dataplane/limits.hpp"

struct rte_rcu_qsbr;

namespace weft::dataplane {

// One (reporting switch, in port) of the flood table.
struct ArnFloodEntry {
    std::uint64_t out_ports = 0;  // dataplane ports a copy leaves by
    bool valid = false;           // the tree brings this reporter's news in on this port
    bool deliver = false;         // this switch takes the news (its BPT)
};

// How ARN travels: in Ethernet frames of its EtherType, or in UDP over IPv4 or IPv6. A switch
// takes the form it sends (both IP versions over UDP).
enum class ArnEncapsulation : std::uint8_t { kEthernet, kUdp4, kUdp6 };

// Entries per reporter: slot 0 is the switch's own news (the reporter is this switch), slot p + 1
// dataplane port p, as ARN numbers ports (arn/types.hpp).
inline constexpr std::size_t kArnSlots = kMaxPorts + 1;

struct ArnTables {
    bool enabled = false;
    arn::SwitchId self = 0;
    std::uint16_t ethertype = arn::kArnEtherType;
    ArnEncapsulation encapsulation = ArnEncapsulation::kEthernet;
    std::uint16_t udp_port = arn::kArnUdpPort;
    std::uint64_t fabric_ports = 0;  // mask: ARN is taken only here
    // Receive limit per worker and port (GCRA): one frame per `rx_interval_tsc` ticks with bursts
    // of `rx_burst`; 0: no limit.
    std::uint64_t rx_interval_tsc = 0;
    std::uint32_t rx_burst = 0;
    std::vector<arn::SwitchId> reporters;  // ascending
    std::vector<ArnFloodEntry> entries;    // reporters.size() x kArnSlots

    bool fabric(std::uint16_t port) const noexcept { return port < 64 && ((fabric_ports >> port) & 1) != 0; }
    // The entry of `reporter` arriving on `slot`, or null when the table has none.
    const ArnFloodEntry *entry(arn::SwitchId reporter, std::size_t slot) const noexcept {
        const auto it = std::lower_bound(reporters.begin(), reporters.end(), reporter);
        if (it == reporters.end() || *it != reporter || slot >= kArnSlots) return nullptr;
        const ArnFloodEntry &e = entries[static_cast<std::size_t>(it - reporters.begin()) * kArnSlots + slot];
        return e.valid ? &e : nullptr;
    }
    bool udp() const noexcept { return encapsulation != ArnEncapsulation::kEthernet; }
    // The ARN in a frame of this switch's encapsulation.
    arn::ArnFrameDecode decode(std::span<const std::uint8_t> frame) const {
        return udp() ? arn::decode_arn_udp_frame(frame, arn::ArnUdpConfig{udp_port})
                     : arn::decode_arn_frame(frame, arn::ArnEthernetConfig{ethertype});
    }
    bool knows(arn::SwitchId reporter) const noexcept {
        return std::binary_search(reporters.begin(), reporters.end(), reporter);
    }
};

// Publication of ArnTables through the FIB's QSBR variable: workers report quiescent once per
// loop and never keep the pointer past it, so an old table is released once every reader has
// reported after the swap.
class ArnPublisher {
  public:
    explicit ArnPublisher(rte_rcu_qsbr *qsv) : qsv_(qsv) {}
    ArnPublisher(const ArnPublisher &) = delete;
    ArnPublisher &operator=(const ArnPublisher &) = delete;

    // Reader side: valid until the caller's next quiescent report; null before the first.
    const ArnTables *current() const noexcept { return current_.load(std::memory_order_acquire); }
    // Control side (one thread).
    void publish(std::shared_ptr<const ArnTables> next);
    const std::shared_ptr<const ArnTables> &owned() const noexcept { return owned_; }
    // Releases the retired tables whose grace period is over. Never blocks.
    void reclaim() noexcept;

  private:
    struct Retired {
        std::uint64_t token;
        std::shared_ptr<const ArnTables> tables;
    };
    rte_rcu_qsbr *qsv_;
    std::shared_ptr<const ArnTables> owned_;
    std::atomic<const ArnTables *> current_{nullptr};
    std::deque<Retired> retired_;
};

}  // namespace weft::dataplane
