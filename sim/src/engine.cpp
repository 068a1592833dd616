// The event loop and the network: ports, links, switch forwarding through ars::Worker, output
// queues (tail drop, ECN marking), PFC, ARS sampling, link failures and rerouting.
#include "engine.hpp"

#include <chrono>

#include "weft/routing/engine.hpp"

namespace weft::sim {

Results Engine::run(const std::function<void(const Simulator::Progress &)> &progress, double every) {
    const auto wall0 = std::chrono::steady_clock::now();
    auto wall = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    };
    if (sample_quality_) schedule(s_.sw.sampling_interval_us * kUs, kEvSample, 0);
    for (std::uint32_t i = 0; i < failures_.size(); ++i) schedule(failures_[i].at, kEvLink, i);
    double next_report = every;
    const Time stop = s_.run.stop;
    std::uint64_t events = 0;
    // The run ends at the stop time, or when every flow is done and nothing could start another
    // (timers and samples alone do not keep it going).
    while (!events_.empty()) {
        const Event e = events_.top();
        if (e.time > stop) break;
        if (flows_pending_ == 0 && sources_running_ == 0) break;
        events_.pop();
        now_ = e.time;
        dispatch(e);
        if ((++events & 0xFFFF) == 0 && progress) {
            const double w = wall();
            if (w >= next_report) {
                next_report = w + every;
                progress({now_, stop, events, flows_started_, flows_done_, w});
            }
        }
    }
    counters_.events = events;
    counters_.all_done = flows_pending_ == 0;
    counters_.end = now_;
    return collect(wall());
}

void Engine::dispatch(const Event &e) {
    const std::uint32_t id = e.id();
    switch (e.kind()) {
        case kEvWire:
            on_wire(id);
            break;
        case kEvTxDone:
            ports_[id].tx_event = false;
            kick(id);
            break;
        case kEvFlowTimer:
            flow_timer(id);
            break;
        case kEvHostWake:
            host_wake(id);
            break;
        case kEvFlowStart:
            start_flow(id);
            if (++next_planned_ < planned_.size())
                schedule(flows_[planned_[next_planned_]].start, kEvFlowStart, planned_[next_planned_]);
            break;
        case kEvArrival:
            arrival(id);
            break;
        case kEvSample:
            sample();
            break;
        case kEvLink:
            link_change(id);
            break;
        case kEvLinkDetect:
            link_detect(id);
            break;
        case kEvReroute:
            reroute(id);
            break;
        default:
            break;
    }
}

// Starts the next packet on port `pi` if it is free; otherwise makes sure it is woken when free.
void Engine::kick(PortIdx pi) {
    Port &p = ports_[pi];
    if (p.busy_until > now_) {
        if (!p.tx_event) {
            p.tx_event = true;
            schedule(p.busy_until, kEvTxDone, pi);
        }
        return;
    }
    if (!p.up) return;
    PacketId id;
    if (!p.ctrl.empty()) {
        id = p.ctrl.pop(pool_);
        p.ctrl_bytes -= pool_[id].size;
    } else if (p.paused) {
        return;
    } else if (p.host_side) {
        id = next_data(hosts_[nodes_[p.node].index]);
        if (id == kNoPacket) return;
    } else if (!p.data.empty()) {
        id = p.data.pop(pool_);
        const Packet &k = pool_[id];
        p.queued_bytes -= k.size;
        release_ingress(k.ingress, k.size);
    } else {
        return;
    }
    transmit(pi, id);
    const bool more =
        !p.ctrl.empty() ||
        (!p.paused && (p.host_side ? !hosts_[nodes_[p.node].index].active.empty() : !p.data.empty()));
    if (more && !p.tx_event) {
        p.tx_event = true;
        schedule(p.busy_until, kEvTxDone, pi);
    }
}

void Engine::transmit(PortIdx pi, PacketId id) {
    Port &p = ports_[pi];
    Packet &k = pool_[id];
    p.busy_until = now_ + p.rate.serialize(k.size);
    k.at = p.busy_until + p.delay;
    p.bytes_sent += k.size;
    if (k.is_data()) ++p.data_packets;
    p.wire.push(pool_, id);
    if (!p.wire_event) {
        p.wire_event = true;
        schedule(k.at, kEvWire, pi);
    }
}

void Engine::on_wire(PortIdx pi) {
    Port &p = ports_[pi];
    // A link that failed and came back may leave an event for packets it lost.
    if (p.wire.empty() || pool_[p.wire.head].at != now_) return;
    const PacketId id = p.wire.pop(pool_);
    if (!p.wire.empty()) {
        schedule(pool_[p.wire.head].at, kEvWire, pi);
    } else {
        p.wire_event = false;
    }
    const PortIdx in = p.peer;
    Packet &k = pool_[id];
    if (k.type == PacketType::kArn) {
        arn_receive(nodes_[p.peer_node].index, in, id);
        return;
    }
    if (k.type == PacketType::kPause || k.type == PacketType::kResume) {
        Port &q = ports_[in];
        const bool pause = k.type == PacketType::kPause;
        pool_.put(id);
        if (pause == q.paused) return;
        q.paused = pause;
        if (pause) {
            q.paused_since = now_;
            ++q.pauses_received;
        } else {
            q.paused_total += now_ - q.paused_since;
            kick(in);
        }
        return;
    }
    const NodeRef &n = nodes_[p.peer_node];
    if (n.is_switch)
        forward(n.index, in, id);
    else
        host_receive(n.index, id);
}

void Engine::forward(std::uint32_t sw, PortIdx in, PacketId id) {
    const Packet &k = pool_[id];
    const HostRoute &h = routes_[k.dst];
    PortIdx out;
    if (h.leaf == sw) {
        out = h.leaf_port;
    } else {
        SwitchNode &s = switches_[sw];
        if (const std::uint16_t only = s.only[h.dest]; only != 0) {
            if (!s.board->link_up(only)) {
                ++counters_.single_member_drops;
                drop(id, counters_.drops_unroutable, true);
                return;
            }
            ++counters_.single_member_decisions;
            out = s.first_port + only - 1;
        } else {
            // Each switch hashes with its own seed, as switches of different tiers do.
            std::uint32_t hash = (k.hash ^ s.salt) * 0x9E3779B1u;
            hash ^= hash >> 15;
            const ars::Egress e = s.worker->select_nhg(h.dest, hash, ars_ticks(now_));
            if (e.dropped()) {
                drop(id, counters_.drops_unroutable, true);
                return;
            }
            out = s.first_port + e.port - 1;
        }
    }
    enqueue(out, id, in);
}

void Engine::enqueue(PortIdx out, PacketId id, PortIdx in) {
    Port &p = ports_[out];
    Packet &k = pool_[id];
    if (!p.up) {
        drop(id, counters_.drops_link, true);
        return;
    }
    if (!k.is_data()) {
        p.ctrl.push(pool_, id);
        p.ctrl_bytes += k.size;
        kick(out);
        return;
    }
    // Lossy traffic is tail-dropped at the buffer; lossless traffic is held back upstream by PFC
    // per ingress port instead (the buffer a switch keeps as headroom), never dropped here.
    if (!lossless_ && p.queued_bytes + k.size > s_.sw.buffer_bytes) {
        ++p.drops;
        drop(id, counters_.drops_buffer, false);
        return;
    }
    if (s_.sw.ecn_kmin != 0 && p.queued_bytes >= s_.sw.ecn_kmin) {
        bool mark = true;
        if (ecn_span_ > 0 && p.queued_bytes < s_.sw.ecn_kmax) {
            const double prob =
                s_.sw.ecn_pmax * static_cast<double>(p.queued_bytes - s_.sw.ecn_kmin) / ecn_span_;
            ars::Rng &rng = switches_[nodes_[p.node].index].rng;
            mark = static_cast<double>(rng.next() >> 11) * 0x1.0p-53 < prob;
        }
        if (mark && (k.flags & kFlagCe) == 0) {
            k.flags |= kFlagCe;
            ++p.ecn_marks;
            ++counters_.ecn_marks;
        }
    }
    k.ingress = in;
    p.data.push(pool_, id);
    p.queued_bytes += k.size;
    if (p.queued_bytes > p.max_queue_bytes) p.max_queue_bytes = p.queued_bytes;
    if (lossless_) {
        Port &i = ports_[in];
        i.ingress_bytes += k.size;
        if (!i.pause_sent && i.ingress_bytes >= pfc_xoff_) send_pfc(in, true);
    }
    kick(out);
}

void Engine::release_ingress(PortIdx in, std::uint32_t bytes) {
    if (!lossless_) return;
    Port &i = ports_[in];
    i.ingress_bytes -= bytes;
    if (i.pause_sent && i.ingress_bytes <= pfc_xon_) send_pfc(in, false);
}

// A PFC frame from this switch to the node upstream of its port `in`. It leaves once the frame
// being sent on that port is out, ahead of anything queued, so it joins that port's wire.
void Engine::send_pfc(PortIdx in, bool pause) {
    Port &p = ports_[in];
    p.pause_sent = pause;
    if (!p.up) return;
    if (pause) ++counters_.pause_frames;
    const PacketId id = pool_.get();
    Packet &k = pool_[id];
    k.type = pause ? PacketType::kPause : PacketType::kResume;
    k.size = 64;
    Time at = (p.busy_until > now_ ? p.busy_until : now_) + p.delay;
    if (!p.wire.empty() && pool_[p.wire.tail].at > at) at = pool_[p.wire.tail].at;
    k.at = at;
    p.wire.push(pool_, id);
    if (!p.wire_event) {
        p.wire_event = true;
        schedule(k.at, kEvWire, in);
    }
}

void Engine::drop(PacketId id, std::uint64_t &counter, bool link_loss) {
    ++counter;
    const Packet &k = pool_[id];
    if (link_loss && latest_failure_ != ~0u) {
        FailureRecord &f = failures_[latest_failure_];
        ++f.lost_packets;
        f.last_loss = now_;
        if (&counter == &counters_.drops_unroutable) {
            ++f.lost_unroutable;
        } else {
            ++f.lost_at_link;
            f.last_link_loss = now_;
        }
    }
    if (link_loss && (k.type == PacketType::kData || k.type == PacketType::kAck))
        flows_[k.flow].failure_hit = true;
    pool_.put(id);
}

void Engine::sample() {
    for (SwitchNode &sw : switches_) {
        for (std::uint32_t p = 1; p <= sw.ports; ++p) {
            Port &port = ports_[sw.first_port + p - 1];
            sw.samples[p] = {port.bytes_sent - port.bytes_sampled, port.queued_bytes + port.ctrl_bytes};
            port.bytes_sampled = port.bytes_sent;
        }
        sw.sampler->update(*sw.config, sw.samples, *sw.board);
    }
    for (std::uint32_t i = 0; i < arn_.size(); ++i) arn_sample(i);
    schedule(now_ + s_.sw.sampling_interval_us * kUs, kEvSample, 0);
}

// One direction of a link goes down or up. Down: what waits in its queues and what is on the wire
// is lost (PFC frames included).
void Engine::set_link(PortIdx a, bool up) {
    Port &p = ports_[a];
    p.up = up;
    if (up) {
        kick(a);
        return;
    }
    while (!p.wire.empty()) {
        const PacketId id = p.wire.pop(pool_);
        if (pool_[id].type == PacketType::kPause || pool_[id].type == PacketType::kResume)
            pool_.put(id);
        else
            drop(id, counters_.drops_link, true);
    }
    p.wire_event = false;
    while (!p.ctrl.empty()) drop(p.ctrl.pop(pool_), counters_.drops_link, true);
    p.ctrl_bytes = 0;
    while (!p.data.empty()) {
        const PacketId id = p.data.pop(pool_);
        if (!p.host_side) release_ingress(pool_[id].ingress, pool_[id].size);
        drop(id, counters_.drops_link, true);
    }
    p.queued_bytes = 0;
    if (p.paused) {
        p.paused = false;
        p.paused_total += now_ - p.paused_since;
    }
}

void Engine::link_change(std::uint32_t i) {
    const FailureSettings *fs = nullptr;
    for (std::uint32_t k = 0, n = 0; k < s_.failures.size(); ++k)
        if (s_.failures[k].at != 0 && n++ == i) fs = &s_.failures[k];
    const auto [a, b] = failure_ports_[i];
    latest_failure_ = i;
    switch (fs->action) {
        case FailureAction::kDown:
        case FailureAction::kUp: {
            const bool up = fs->action == FailureAction::kUp;
            set_link(a, up);
            set_link(b, up);
            // The other side of the link may have stopped sending for a pause that never ends.
            if (!up) {
                ports_[a].pause_sent = false;
                ports_[b].pause_sent = false;
            }
            schedule(now_ + s_.sw.link_detect, kEvLinkDetect, i);
            if (fs->reroute_after != kNever) schedule(now_ + fs->reroute_after, kEvReroute, i);
            break;
        }
        case FailureAction::kRate:
            ports_[a].rate = fs->rate;
            ports_[b].rate = fs->rate;
            // The switches at its ends scale the port's load by its new speed, as weft's control
            // plane does when a port's speed changes.
            for (const PortIdx p : {a, b}) {
                const NodeRef &n = nodes_[ports_[p].node];
                if (!n.is_switch) continue;
                program(n.index);
            }
            break;
    }
}

void Engine::link_detect(std::uint32_t i) {
    for (const PortIdx p : {failure_ports_[i].first, failure_ports_[i].second}) {
        const Port &port = ports_[p];
        const NodeRef &n = nodes_[port.node];
        if (n.is_switch)
            switches_[n.index].board->set_link_up(static_cast<ars::PortId>(p - n.first_port + 1), port.up);
    }
}

// The SM routes the fabric as it now is and every switch adopts its new groups.
void Engine::reroute(std::uint32_t i) {
    const auto [a, b] = failure_ports_[i];
    const routing::NodeIdx na = ports_[a].node, nb = ports_[b].node;
    const auto pa = static_cast<routing::PortNum>(a - nodes_[na].first_port + 1);
    const auto pb = static_cast<routing::PortNum>(b - nodes_[nb].first_port + 1);
    if (ports_[a].up) {
        if (fabric_.port(na, pa).peer == routing::kNoNode) fabric_.connect(na, pa, nb, pb);
    } else {
        fabric_.disconnect(na, pa);
    }
    routing::RoutingOptions o;
    o.seed = s_.run.seed;
    routing::RoutingTables t;
    const routing::ChainResult cr = routing::run_chain(s_.fabric.routing, fabric_, o, t);
    if (!cr.ok) return;  // the old tables stay, as an SM keeps them when routing fails
    tables_ = std::move(t);
    routing::ArsOptions ao;
    ao.max_extra_hops = s_.fabric.alternates;
    ao.max_alternates = s_.fabric.max_alternates;
    groups_ = routing::compile_ars_groups(fabric_, tables_, ao);
    assign_destinations();
    for (std::uint32_t sw = 0; sw < switches_.size(); ++sw) program(sw);
    ++counters_.reroutes;
}

}  // namespace weft::sim
