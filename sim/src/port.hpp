// One direction of a link: the output side of a node's port, its queues, and the wire to the peer.
//
// A port sends its control queue (ACKs, NACKs, CNPs) before its data queue, and its data queue
// only while not paused by PFC. A packet leaves the port when its serialization starts and goes
// straight onto the wire with the time it reaches the far end (start + serialization +
// propagation, plus the far switch's latency); the wire is a FIFO because that time only grows.
// `busy_until` is when the current serialization ends.
#pragma once

#include <cstdint>

#include "packet.hpp"
#include "weft/sim/time.hpp"

namespace weft::sim {

using PortIdx = std::uint32_t;
inline constexpr PortIdx kNoPortIdx = 0xFFFFFFFFu;

// Three cache lines: the first holds what every packet through the port reads and writes, the
// second the wiring, flags and per-packet counters, the third what is read rarely.
struct alignas(64) Port {
    // Output.
    PacketFifo ctrl;
    PacketFifo data;
    PacketFifo wire;
    Time busy_until = 0;
    std::uint64_t queued_bytes = 0;  // data waiting (not counting the packet being sent)
    Rate rate;
    Time delay = 0;  // propagation, plus the far switch's latency

    // Wiring.
    PortIdx peer = kNoPortIdx;  // the far end's port (kNoPortIdx: not cabled)
    std::uint32_t node = 0;     // owner
    std::uint32_t peer_node = 0;
    std::uint32_t ctrl_bytes = 0;
    bool host_side = false;  // owned by a host (sends from its flows, not from a queue)
    bool fabric = false;     // switch to switch
    bool up = false;
    bool to_switch = false;   // the far end is a switch (its latency is added on the wire)
    bool tx_event = false;    // a kTxDone event is pending
    bool paused = false;      // the far end sent XOFF
    bool wire_event = false;  // a kWire event is pending for the wire's head
    bool pause_sent = false;  // this node sent the far end XOFF (as an input port)
    // Ingress accounting, for the packets that came in on this port (it is also an input).
    std::uint64_t ingress_bytes = 0;
    std::uint64_t bytes_sent = 0;
    std::uint64_t data_packets = 0;
    std::uint64_t max_queue_bytes = 0;

    // Read rarely.
    std::uint64_t bytes_sampled = 0;  // bytes_sent at the last ARS sample
    std::uint64_t drops = 0;
    std::uint64_t ecn_marks = 0;
    std::uint64_t pauses_received = 0;  // XOFF frames the far end sent this port
    Time paused_since = 0;
    Time paused_total = 0;
};
static_assert(sizeof(Port) == 192, "three cache lines");

}  // namespace weft::sim
