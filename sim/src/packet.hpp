// Packets, their pool and the intrusive FIFOs that hold them.
//
// A packet is always in exactly one place: free, in an output queue, or on a link. So one `next`
// index per packet links every FIFO, and a run allocates packets only when its pool grows (the
// pool keeps what it has; no allocation per packet sent).
#pragma once

#include <cstdint>
#include <vector>

#include "weft/sim/time.hpp"

namespace weft::sim {

using PacketId = std::uint32_t;
inline constexpr PacketId kNoPacket = 0xFFFFFFFFu;

enum class PacketType : std::uint8_t {
    kData,
    kAck,     // cumulative acknowledgement (`seq` = next expected)
    kNack,    // RoCE go-back-N request (`seq` = next expected)
    kCnp,     // DCQCN congestion notification
    kPause,   // PFC XOFF, link-local
    kResume,  // PFC XON, link-local
    kArn      // an ARN frame, link-local (`flow`: its trace, whose frame it carries)
};

enum PacketFlag : std::uint8_t {
    kFlagCe = 1,      // ECN congestion experienced (set by a switch)
    kFlagEcnEcho = 2  // the ACK echoes CE (DCTCP)
};

struct Packet {
    PacketId next = kNoPacket;
    std::uint32_t flow = 0;
    std::uint32_t seq = 0;      // data: packet number in its flow; ack/nack: next expected
    std::uint32_t size = 0;     // bytes on the wire
    std::uint32_t hash = 0;     // flow hash of this direction
    std::uint32_t dst = 0;      // destination host
    std::uint32_t ingress = 0;  // the switch port it came in on (PFC accounting)
    PacketType type = PacketType::kData;
    std::uint8_t flags = 0;
    Time at = 0;    // on a link: when it reaches the far end
    Time sent = 0;  // data: when the host sent it; ack: the acknowledged packet's `sent`

    bool is_data() const { return type == PacketType::kData; }
};

class PacketPool {
  public:
    PacketId get() {
        if (free_ == kNoPacket) {
            packets_.emplace_back();
            return static_cast<PacketId>(packets_.size() - 1);
        }
        const PacketId id = free_;
        free_ = packets_[id].next;
        packets_[id].next = kNoPacket;
        packets_[id].flags = 0;
        return id;
    }
    void put(PacketId id) {
        packets_[id].next = free_;
        free_ = id;
    }
    Packet &operator[](PacketId id) { return packets_[id]; }
    const Packet &operator[](PacketId id) const { return packets_[id]; }
    std::size_t capacity() const { return packets_.size(); }
    void reserve(std::size_t n) { packets_.reserve(n); }

  private:
    std::vector<Packet> packets_;
    PacketId free_ = kNoPacket;
};

// A FIFO of packets linked through Packet::next.
struct PacketFifo {
    PacketId head = kNoPacket;
    PacketId tail = kNoPacket;

    bool empty() const { return head == kNoPacket; }
    void push(PacketPool &pool, PacketId id) {
        pool[id].next = kNoPacket;
        if (tail == kNoPacket)
            head = id;
        else
            pool[tail].next = id;
        tail = id;
    }
    PacketId pop(PacketPool &pool) {
        const PacketId id = head;
        head = pool[id].next;
        if (head == kNoPacket) tail = kNoPacket;
        return id;
    }
};

}  // namespace weft::sim
