// Hosts: a NIC that serves its flows round robin, and the two transports.
//
// DCTCP-like (lossy): a window in packets, slow start and congestion avoidance, the receiver
// echoing CE in every ACK, alpha updated once per window of data and the window cut by alpha/2
// at most once per window; losses repaired NewReno-style (fast retransmit after `dupack_threshold`
// duplicate ACKs, one hole per partial ACK) with the receiver keeping out-of-order packets, and a
// retransmission timeout that goes back to the first unacknowledged packet.
//
// RoCE-like (lossless): the sender sends at its rate (the line rate, or DCQCN's), the receiver
// takes packets only in order and asks for the rest again with one NACK (go-back-N), a timeout
// covers a lost tail. DCQCN: the receiver sends at most one CNP per `cnp_interval` while packets
// arrive CE-marked; the sender cuts its rate by alpha/2 on a CNP and recovers towards its target
// (fast recovery, then additive increase) on a timer.
#include <algorithm>
#include <cmath>

#include "engine.hpp"

namespace weft::sim {
namespace {

bool dctcp(const Scenario &s) {
    return s.transport.kind == TransportKind::kDctcp;
}

}  // namespace

void Engine::start_flow(FlowId id) {
    Flow &f = flows_[id];
    f.start = now_;
    f.started = true;
    ++flows_started_;
    f.cwnd = std::min<double>(s_.transport.init_cwnd, kReorderWindow);
    f.ssthresh = kReorderWindow;
    f.alpha = 1;
    f.window_end = 0;
    f.rto = s_.transport.min_rto;
    f.rate_bps = s_.fabric.host_rate.bps();
    f.target_bps = f.rate_bps;
    f.next_send = now_;
    f.active = true;
    hosts_[f.src].active.push_back(id);
    kick_host(f.src);
}

void Engine::kick_host(std::uint32_t host) {
    kick(hosts_[host].port);
}

void Engine::host_wake(std::uint32_t host) {
    Host &h = hosts_[host];
    if (h.wake_at != now_) return;  // a later wake replaced this one
    h.wake_at = kNever;
    kick(h.port);
}

// The next data packet of the host's flows, round robin; kNoPacket when none may send now (a
// paced flow that may send later wakes the host then).
PacketId Engine::next_data(Host &h) {
    const std::size_t n = h.active.size();
    Time earliest = kNever;
    const bool is_dctcp = dctcp(s_);
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t at = (h.rr + k) % n;
        const FlowId fid = h.active[at];
        Flow &f = flows_[fid];
        std::uint32_t seq;
        if (is_dctcp) {
            if (f.retransmit) {
                seq = f.snd_una;
                f.retransmit = false;
            } else {
                const double allowed = std::min<double>(f.cwnd + f.dupacks, kReorderWindow);
                if (f.snd_nxt >= f.packets || static_cast<double>(f.snd_nxt - f.snd_una) >= allowed) continue;
                seq = f.snd_nxt++;
            }
        } else {
            if (f.snd_nxt >= f.packets) continue;
            // A receiver placing packets out of order holds a bounded window of them.
            if (s_.transport.ooo_receive && f.snd_nxt - f.snd_una >= kReorderWindow) continue;
            if (f.next_send > now_) {
                earliest = std::min(earliest, f.next_send);
                continue;
            }
            seq = f.snd_nxt++;
        }
        if (seq < f.high_sent) {
            ++f.retransmits;
            ++counters_.retransmitted_packets;
        } else {
            f.high_sent = seq + 1;
            ++counters_.data_packets;
        }
        h.rr = static_cast<std::uint32_t>(at + 1);
        const PacketId id = pool_.get();
        Packet &p = pool_[id];
        p.type = PacketType::kData;
        p.flow = fid;
        p.seq = seq;
        p.size = seq + 1 == f.packets ? f.last_size : s_.transport.mtu;
        p.hash = f.hash_fwd;
        p.dst = f.dst;
        p.sent = now_;
        if (!is_dctcp && f.rate_bps < s_.fabric.host_rate.bps())
            f.next_send = now_ + static_cast<Time>(static_cast<double>(p.size) * 8e12 / f.rate_bps);
        if (f.rto_at == kNever) {
            f.rto_at = now_ + f.rto;
            arm_timer(f, fid, f.rto_at);
        }
        return id;
    }
    if (earliest != kNever && earliest < h.wake_at) {
        h.wake_at = earliest;
        schedule(earliest, kEvHostWake, nodes_[h.node].index);
    }
    return kNoPacket;
}

void Engine::host_receive(std::uint32_t host, PacketId id) {
    (void)host;
    // A copy: answering may grow the packet pool.
    const Packet k = pool_[id];
    pool_.put(id);
    Flow &f = flows_[k.flow];
    switch (k.type) {
        case PacketType::kData:
            receive_data(f, k.flow, k);
            break;
        case PacketType::kAck:
            receive_ack(f, k.flow, k);
            break;
        case PacketType::kNack:
            receive_nack(f, k.flow, k);
            break;
        case PacketType::kCnp:
            receive_cnp(f, k.flow);
            break;
        default:
            break;
    }
}

void Engine::send_ctrl(const Flow &f, FlowId id, PacketType type, std::uint32_t seq, std::uint8_t flags,
                       Time echo) {
    const PacketId pid = pool_.get();
    Packet &p = pool_[pid];
    p.type = type;
    p.flow = id;
    p.seq = seq;
    p.size = s_.transport.ack_size;
    p.hash = f.hash_rev;
    p.dst = f.src;
    p.flags = flags;
    p.sent = echo;
    ++counters_.ctrl_packets;
    Port &port = ports_[hosts_[f.dst].port];
    if (!port.up) {
        pool_.put(pid);
        return;
    }
    port.ctrl.push(pool_, pid);
    port.ctrl_bytes += p.size;
    kick(hosts_[f.dst].port);
}

void Engine::receive_data(Flow &f, FlowId id, const Packet &k) {
    const std::uint32_t seq = k.seq;
    const bool ce = (k.flags & kFlagCe) != 0;
    const bool was_done = f.rcv_nxt == f.packets;
    bool ack_now = false;
    if (dctcp(s_) || s_.transport.ooo_receive) {
        f.ce_pending |= ce;
        if (seq == f.rcv_nxt) {
            ++f.rcv_nxt;
            // Packets already held beyond it (bit seq % window) follow.
            while (f.rcv_nxt < f.packets) {
                const std::uint32_t b = f.rcv_nxt % kReorderWindow;
                if ((f.ooo[b / 64] >> (b % 64) & 1) == 0) break;
                f.ooo[b / 64] &= ~(std::uint64_t{1} << (b % 64));
                ++f.rcv_nxt;
            }
            ack_now = ++f.since_ack >= s_.transport.ack_every || f.rcv_nxt == f.packets || (ce && dctcp(s_));
        } else if (seq > f.rcv_nxt && seq - f.rcv_nxt < kReorderWindow) {
            const std::uint32_t b = seq % kReorderWindow;
            f.ooo[b / 64] |= std::uint64_t{1} << (b % 64);
            ack_now = dctcp(s_);  // a duplicate ACK tells a DCTCP sender of the hole
        } else {
            if (seq > f.rcv_nxt) ++counters_.drops_receiver;
            ack_now = true;
        }
        if (ack_now) {
            f.since_ack = 0;
            const bool echo = f.ce_pending && dctcp(s_);
            send_ctrl(f, id, PacketType::kAck, f.rcv_nxt, echo ? kFlagEcnEcho : 0, k.sent);
            f.ce_pending = false;
        }
    } else {
        if (seq == f.rcv_nxt) {
            ++f.rcv_nxt;
            f.nack_sent = false;
            if (++f.since_ack >= s_.transport.ack_every || f.rcv_nxt == f.packets) {
                f.since_ack = 0;
                send_ctrl(f, id, PacketType::kAck, f.rcv_nxt, 0, k.sent);
            }
        } else if (seq > f.rcv_nxt) {
            ++counters_.drops_receiver;
            if (!f.nack_sent) {
                f.nack_sent = true;
                send_ctrl(f, id, PacketType::kNack, f.rcv_nxt, 0, k.sent);
            }
        } else {
            send_ctrl(f, id, PacketType::kAck, f.rcv_nxt, 0, k.sent);  // a duplicate: its ACK was lost
        }
    }
    if (!dctcp(s_)) {
        if (ce && s_.transport.dcqcn &&
            (!f.cnp_ever || now_ - f.last_cnp_sent >= s_.transport.cnp_interval)) {
            f.cnp_ever = true;
            f.last_cnp_sent = now_;
            ++counters_.cnps;
            send_ctrl(f, id, PacketType::kCnp, 0, 0, 0);
        }
    }
    if (!was_done && f.rcv_nxt == f.packets) complete(f, id);
}

void Engine::receive_ack(Flow &f, FlowId id, const Packet &k) {
    if (f.sender_done) return;
    const std::uint32_t ack = k.seq;
    if (dctcp(s_) && k.sent != 0 && now_ > k.sent) {
        const Time rtt = now_ - k.sent;
        if (f.srtt == 0) {
            f.srtt = rtt;
            f.rttvar = rtt / 2;
        } else {
            const Time diff = rtt > f.srtt ? rtt - f.srtt : f.srtt - rtt;
            f.rttvar = (3 * f.rttvar + diff) / 4;
            f.srtt = (7 * f.srtt + rtt) / 8;
        }
        f.rto = std::max(s_.transport.min_rto, f.srtt + 4 * f.rttvar);
    }
    if (ack > f.snd_una) {
        const std::uint32_t newly = ack - f.snd_una;
        f.snd_una = ack;
        if (f.snd_nxt < f.snd_una) f.snd_nxt = f.snd_una;
        f.backoff = 0;
        if (dctcp(s_)) {
            const bool ece = (k.flags & kFlagEcnEcho) != 0;
            f.acked_in_window += newly;
            if (ece) f.marked_in_window += newly;
            if (ece && !f.cut_in_window) {
                f.cwnd = std::max(1.0, f.cwnd * (1 - f.alpha / 2));
                f.ssthresh = f.cwnd;
                f.cut_in_window = true;
            }
            if (f.snd_una >= f.window_end) {
                const double g = s_.transport.dctcp_g;
                const double frac =
                    f.acked_in_window ? static_cast<double>(f.marked_in_window) / f.acked_in_window : 0;
                f.alpha = (1 - g) * f.alpha + g * frac;
                f.acked_in_window = f.marked_in_window = 0;
                f.window_end = f.snd_nxt;
                f.cut_in_window = false;
            }
            if (f.recovery) {
                if (f.snd_una >= f.recover) {
                    f.recovery = false;
                    f.cwnd = std::max(f.ssthresh, 1.0);
                } else {
                    f.retransmit = true;  // a partial ACK: the next hole
                }
            } else if (!f.cut_in_window) {
                f.cwnd += f.cwnd < f.ssthresh ? newly : newly / f.cwnd;
                if (f.cwnd > kReorderWindow) f.cwnd = kReorderWindow;
            }
            f.dupacks = 0;
        }
        if (f.snd_una >= f.packets) {
            sender_finished(f, id);
            return;
        }
        f.rto_at = now_ + (f.rto << std::min<std::uint32_t>(f.backoff, 6));
        arm_timer(f, id, f.rto_at);
    } else if (dctcp(s_) && ack == f.snd_una && f.snd_nxt > f.snd_una) {
        ++f.dupacks;
        if (f.dupacks == s_.transport.dupack_threshold && !f.recovery) {
            f.recovery = true;
            f.recover = f.snd_nxt;
            f.ssthresh = std::max(f.cwnd / 2, 2.0);
            f.cwnd = f.ssthresh;
            f.retransmit = true;
        }
    }
    kick_host(f.src);
}

void Engine::receive_nack(Flow &f, FlowId id, const Packet &k) {
    if (f.sender_done) return;
    if (k.seq > f.snd_una) f.snd_una = k.seq;
    if (f.snd_nxt > k.seq) f.snd_nxt = std::max(k.seq, f.snd_una);
    f.rto_at = now_ + f.rto;
    arm_timer(f, id, f.rto_at);
    kick_host(f.src);
}

void Engine::receive_cnp(Flow &f, FlowId id) {
    if (f.sender_done || !s_.transport.dcqcn) return;
    const double line = s_.fabric.host_rate.bps();
    f.target_bps = f.rate_bps;
    f.rate_bps = std::max(line * s_.transport.dcqcn_min_fraction, f.rate_bps * (1 - f.dcqcn_alpha / 2));
    f.dcqcn_alpha = (1 - s_.transport.dcqcn_g) * f.dcqcn_alpha + s_.transport.dcqcn_g;
    f.increase_stage = 0;
    f.last_cnp = now_;
    f.alpha_at = now_ + s_.transport.dcqcn_alpha_period;
    f.increase_at = now_ + s_.transport.dcqcn_increase_period;
    arm_timer(f, id, std::min(f.alpha_at, f.increase_at));
}

void Engine::arm_timer(Flow &f, FlowId id, Time at) {
    if (at < f.timer_at) {
        f.timer_at = at;
        schedule(at, kEvFlowTimer, id);
    }
}

void Engine::flow_timer(FlowId id) {
    Flow &f = flows_[id];
    if (f.timer_at == now_) f.timer_at = kNever;
    if (f.sender_done) return;
    const TransportSettings &t = s_.transport;
    if (f.rto_at <= now_) {
        // Nothing acknowledged for a whole timeout: go back to the first unacknowledged packet.
        if (f.snd_una < f.snd_nxt || f.retransmit) {
            f.snd_nxt = f.snd_una;
            f.retransmit = false;
            if (dctcp(s_)) {
                f.ssthresh = std::max(f.cwnd / 2, 2.0);
                f.cwnd = 1;
                f.recovery = false;
                f.dupacks = 0;
            }
            ++f.backoff;
            f.rto_at = now_ + (f.rto << std::min<std::uint32_t>(f.backoff, 6));
            kick_host(f.src);
        } else {
            f.rto_at = kNever;
        }
    }
    const double line = s_.fabric.host_rate.bps();
    if (f.alpha_at <= now_) {
        if (now_ - f.last_cnp >= t.dcqcn_alpha_period) f.dcqcn_alpha *= 1 - t.dcqcn_g;
        f.alpha_at = f.rate_bps < line ? now_ + t.dcqcn_alpha_period : kNever;
    }
    if (f.increase_at <= now_) {
        ++f.increase_stage;
        if (f.increase_stage > t.dcqcn_fast_recovery)
            f.target_bps = std::min(line, f.target_bps + line * t.dcqcn_ai_fraction);
        f.rate_bps = std::min(line, (f.rate_bps + f.target_bps) / 2);
        if (line - f.rate_bps < line * 1e-6) f.rate_bps = line;
        f.increase_at = f.rate_bps < line ? now_ + t.dcqcn_increase_period : kNever;
        kick_host(f.src);
    }
    const Time next = std::min({f.rto_at, f.alpha_at, f.increase_at});
    if (next != kNever) arm_timer(f, id, next);
}

void Engine::sender_finished(Flow &f, FlowId id) {
    f.sender_done = true;
    f.rto_at = f.alpha_at = f.increase_at = kNever;
    Host &h = hosts_[f.src];
    for (std::size_t i = 0; i < h.active.size(); ++i)
        if (h.active[i] == id) {
            h.active[i] = h.active.back();
            h.active.pop_back();
            break;
        }
    f.active = false;
}

void Engine::complete(Flow &f, FlowId id) {
    (void)id;
    f.finish = now_;
    ++flows_done_;
    --flows_pending_;
    for (std::uint32_t i = f.next_begin; i < f.next_end; ++i) {
        Flow &n = flows_[successors_[i]];
        if (--n.waiting == 0) start_flow(successors_[i]);
    }
}

}  // namespace weft::sim
