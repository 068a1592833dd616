// A flow: its sender's and receiver's transport state and what is recorded of it.
#pragma once

#include <cstdint>

#include "weft/sim/time.hpp"

namespace weft::sim {

using FlowId = std::uint32_t;
inline constexpr FlowId kNoFlow = 0xFFFFFFFFu;

// The receiver keeps which packets beyond the next expected one it already holds, in a window of
// this many packets (a DCTCP sender never has more in flight: its window is capped to it).
inline constexpr std::uint32_t kReorderWindow = 512;

struct Flow {
    // What it is.
    std::uint32_t src = 0, dst = 0;  // hosts
    std::uint32_t workload = 0;
    std::uint64_t bytes = 0;
    std::uint32_t packets = 0;    // data packets it takes
    std::uint32_t last_size = 0;  // wire bytes of its last packet
    std::uint32_t hash_fwd = 0, hash_rev = 0;
    Time start = 0;
    bool started = false;
    Time finish = kNever;  // the receiver holds every byte
    // Flows started by this one's completion (collectives): [next_begin, next_end) in the
    // engine's successor list; `waiting` counts the predecessors still running.
    std::uint32_t next_begin = 0, next_end = 0;
    std::uint32_t waiting = 0;

    // Sender.
    bool active = false;          // in its host's list of flows with something to send
    bool sender_done = false;     // every packet acknowledged
    std::uint32_t snd_una = 0;    // first unacknowledged packet
    std::uint32_t snd_nxt = 0;    // next packet to send
    std::uint32_t high_sent = 0;  // highest snd_nxt reached (new packets beyond are first sends)
    // DCTCP
    double cwnd = 0, ssthresh = 0, alpha = 1;
    std::uint32_t window_end = 0;  // alpha is updated when snd_una passes it
    std::uint32_t acked_in_window = 0, marked_in_window = 0;
    bool cut_in_window = false;
    std::uint32_t dupacks = 0;
    bool recovery = false;
    std::uint32_t recover = 0;
    bool retransmit = false;  // snd_una is to be sent again before new data
    Time srtt = 0, rttvar = 0, rto = 0;
    Time rto_at = kNever;
    std::uint32_t backoff = 0;
    // RoCE / DCQCN
    double rate_bps = 0, target_bps = 0, dcqcn_alpha = 1;
    Time next_send = 0;  // pacing
    Time last_cnp = 0;   // at the sender: the last CNP received
    Time alpha_at = kNever, increase_at = kNever;
    std::uint32_t increase_stage = 0;
    // The earliest pending kFlowTimer event (kNever: none).
    Time timer_at = kNever;

    // Receiver.
    std::uint32_t rcv_nxt = 0;
    std::uint32_t since_ack = 0;
    bool nack_sent = false;
    bool ce_pending = false;  // a CE-marked packet not yet echoed
    Time last_cnp_sent = 0;
    bool cnp_ever = false;
    std::uint64_t ooo[kReorderWindow / 64] = {};  // packets held beyond rcv_nxt: bit seq % window

    // Recorded.
    std::uint32_t retransmits = 0;
    bool failure_hit = false;  // lost a packet to a failed link
};

}  // namespace weft::sim
