#include "weft/dataplane/arn_agent.hpp"

#include <rte_mbuf.h>

#include <algorithm>
#include <ctime>
#include <iterator>

#include "weft/arn/frame.hpp"
#include "weft/dataplane/dataplane.hpp"

namespace weft::dataplane {

namespace {

std::uint64_t realtime_us() {
    timespec t{};
    clock_gettime(CLOCK_REALTIME, &t);
    return static_cast<std::uint64_t>(t.tv_sec) * 1000000u + static_cast<std::uint64_t>(t.tv_nsec) / 1000u;
}

// How much news one step takes from the workers' rings at the most: a flood that got past the
// workers' rate limit waits in their rings (and is dropped there when they fill), it does not
// stretch the sampler's interval.
constexpr unsigned kMaxTakenPerStep = 256;

arn::LinkCondition condition_of(arn::ArnType t) {
    switch (t) {
        case arn::ArnType::kCongestionDetected:
            return arn::LinkCondition::kCongested;
        case arn::ArnType::kFailureDetected:
            return arn::LinkCondition::kFailed;
        default:
            return arn::LinkCondition::kClear;
    }
}

}  // namespace

ArnAgent::ArnAgent(Dataplane &dp, std::uint64_t ticks_per_us) : dp_(&dp), ticks_per_us_(ticks_per_us) {}

ArnAgent::~ArnAgent() = default;

void ArnAgent::configure(std::shared_ptr<const ArnSetup> setup) {
    std::lock_guard<std::mutex> lock(mu_);
    pending_ = std::move(setup);
    has_pending_ = true;
}

void ArnAgent::adopt(std::uint64_t now_tsc) {
    (void)now_tsc;
    has_pending_ = false;
    ars::PortBoard &board = dp_->ars_board();
    if (remote_)  // the old destinations' slots back to "no news"
        for (const arn::RemoteSlotAssignment &a : remote_->slots())
            if (a.slot < board.remote_slot_count()) board.publish_remote_quality(a.slot, ars::kBestQuality);
    setup_ = std::move(pending_);
    detector_.reset();
    bpt_.reset();
    remote_.reset();
    news_.clear();
    if (!setup_ || !setup_->tables || !setup_->tables->enabled) return;
    if (!setup_->watched.empty())
        detector_ = std::make_unique<arn::Detector>(setup_->tables->self, setup_->detector, setup_->watched,
                                                    ticks_per_us_);
    last_change_us_.assign(setup_->watched.size(), 0);
    said_.assign(setup_->watched.size(), 0);
    bpt_ = std::make_unique<arn::BestPathTable>(setup_->bpt, ticks_per_us_);
    for (const auto &[g, paths] : setup_->destinations) bpt_->set_destination(g, paths);
    remote_ = std::make_unique<arn::RemoteQualityPublisher>(setup_->slots);
    counters_.published += remote_->publish(*bpt_, board);
}

bool ArnAgent::step(std::uint64_t now_tsc, std::span<const arn::PortObservation> observed) {
    std::lock_guard<std::mutex> lock(mu_);
    if (has_pending_) adopt(now_tsc);
    ++counters_.steps;
    const std::uint64_t now_us = realtime_us();
    bool busy = false;
    rte_mbuf *taken[32];
    for (unsigned total = 0; total < kMaxTakenPerStep;) {
        const unsigned n = dp_->drain_arn(taken, 32);
        if (n == 0) break;
        busy = true;
        total += n;
        for (unsigned k = 0; k < n; ++k) {
            if (bpt_) take(taken[k], now_tsc, now_us);
            rte_pktmbuf_free(taken[k]);
        }
    }
    if (!bpt_) return busy;
    if (detector_ && !observed.empty()) {
        const auto &watched = detector_->ports();
        obs_.resize(watched.size());
        for (std::size_t i = 0; i < watched.size(); ++i) {
            const std::size_t p = watched[i].port - 1u;
            obs_[i] = p < observed.size() ? observed[p] : arn::PortObservation{false, 0, 0};
        }
        out_.clear();
        detector_->sample(now_tsc, obs_, out_);
        for (const arn::ArnMessage &m : out_) {
            busy = true;
            // A change of what the port tells the group (not a repeat) restarts its clock.
            const std::uint16_t said =
                static_cast<std::uint16_t>(static_cast<unsigned>(m.type) << 8 | m.metric);
            for (std::size_t i = 0; i < watched.size(); ++i)
                if (watched[i].port == m.port && said_[i] != said) {
                    said_[i] = said;
                    last_change_us_[i] = now_us;
                }
            send_own(m);
            seen(m, now_us);
            publish(bpt_->apply(m, now_tsc));
        }
    }
    publish(bpt_->expire(now_tsc));
    return busy;
}

void ArnAgent::take(rte_mbuf *m, std::uint64_t now_tsc, std::uint64_t now_us) {
    ++counters_.received;
    const arn::ArnFrameDecode d = setup_->tables->decode(
        std::span<const std::uint8_t>(rte_pktmbuf_mtod(m, const std::uint8_t *), m->data_len));
    if (!d) {
        ++counters_.undecodable;
        return;
    }
    const arn::BptChange c = bpt_->apply(d.message, now_tsc);
    if (c.stale) {
        ++counters_.stale;
        return;
    }
    ++counters_.applied;
    seen(d.message, now_us);
    publish(c);
}

void ArnAgent::seen(const arn::ArnMessage &m, std::uint64_t now_us) {
    ArnNewsSeen &s = news_[m.link()];
    const arn::LinkCondition c = condition_of(m.type);
    const std::uint8_t severity = c == arn::LinkCondition::kCongested ? m.metric : 0;
    if (s.messages == 0 || s.condition != c || s.severity != severity) s.changed_at_us = now_us;
    s.condition = c;
    s.severity = severity;
    s.sequence = m.sequence.value_or(0);
    ++s.messages;
}

void ArnAgent::publish(const arn::BptChange &c) {
    if (c.touched.empty()) return;
    counters_.published += remote_->publish(*bpt_, dp_->ars_board(), c.touched);
}

// This switch's own news, out of every port its flood entry names.
void ArnAgent::send_own(const arn::ArnMessage &msg) {
    const ArnTables &t = *setup_->tables;
    const ArnFloodEntry *e = t.entry(t.self, 0);
    if (e == nullptr) return;
    for (std::uint64_t mask = e->out_ports; mask != 0; mask &= mask - 1) {
        const auto port = static_cast<std::uint16_t>(__builtin_ctzll(mask));
        rte_mbuf *mb = dp_->alloc_control_mbuf();
        if (mb == nullptr) {
            ++counters_.send_failed;
            continue;
        }
        arn::MacAddr src{};
        const rte_ether_addr mac = dp_->port_status(port).mac;
        std::copy(std::begin(mac.addr_bytes), std::end(mac.addr_bytes), src.begin());
        const bool ipv6 = t.encapsulation == ArnEncapsulation::kUdp6;
        const std::size_t size =
            t.udp() ? arn::arn_udp_frame_size(msg, ipv6) : arn::arn_frame_size(msg, false);
        auto *data =
            reinterpret_cast<std::uint8_t *>(rte_pktmbuf_append(mb, static_cast<std::uint16_t>(size)));
        if (data == nullptr) {
            rte_pktmbuf_free(mb);
            ++counters_.send_failed;
            continue;
        }
        if (t.udp()) {
            arn::ArnUdpHeaders h;  // from 0.0.0.0 over IPv4 (a fabric port has no address), fe80:: over IPv6
            h.ipv6 = ipv6;
            h.src_mac = src;
            h.src_port = t.udp_port;
            arn::encode_arn_udp_frame(h, msg, std::span<std::uint8_t>(data, size),
                                      arn::ArnUdpConfig{t.udp_port});
        } else {
            arn::ArnFrameHeaders h;
            h.src_mac = src;
            arn::encode_arn_frame(h, msg, std::span<std::uint8_t>(data, size),
                                  arn::ArnEthernetConfig{t.ethertype});
        }
        if (dp_->send_arn(port, mb))
            ++counters_.sent;
        else
            ++counters_.send_failed;
    }
}

ArnAgentView ArnAgent::view() const {
    std::lock_guard<std::mutex> lock(mu_);
    ArnAgentView v;
    v.counters = counters_;
    v.news = news_;
    if (!bpt_) return v;
    v.configured = true;
    v.slots = remote_->slots();
    v.bpt = bpt_->counters();
    if (detector_) {
        v.watched = detector_->ports();
        for (std::size_t i = 0; i < v.watched.size(); ++i) v.status.push_back(detector_->status(i));
        v.last_change_us = last_change_us_;
        v.detector = detector_->counters();
    }
    for (arn::GroupId g : bpt_->destinations()) {
        ArnAgentView::Destination d;
        d.group = g;
        const auto paths = bpt_->paths(g);
        d.paths.assign(paths.begin(), paths.end());
        for (std::size_t i = 0; i < paths.size(); ++i) {
            d.cost.push_back(bpt_->effective_cost(g, i));
            d.band.push_back(bpt_->path_band(g, i));
        }
        d.chosen = bpt_->chosen(g);
        v.destinations.push_back(std::move(d));
    }
    return v;
}

}  // namespace weft::dataplane
