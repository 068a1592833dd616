// weft-ca: an InfiniBand CA end node on a Linux interface, in weft's IB-over-Ethernet frames. Its
// SMA (a CA Sma behind SmaFrameAgent) answers the SM; with --sm it is the SM too (FrameSmpTransport
// on its own port 1: heavy sweeps, traps repressed and answered by a sweep). Once its port is
// ACTIVE with a LID it sends data frames to --send-to; it counts the ones addressed to it. The
// hosts of weft's IB-over-Ethernet fabric tests.
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <system_error>

#include "ca_args.hpp"
#include "ca_traffic.hpp"
#include "management_ports.hpp"
#include "packet_socket_ports.hpp"
#include "weft/sm/frame_smp_transport.hpp"
#include "weft/sm/heavy_sweep.hpp"
#include "weft/sm/mad_frame.hpp"
#include "weft/sm/notice.hpp"
#include "weft/sm/sm_runner.hpp"
#include "weft/sm/sma_frame_agent.hpp"

namespace {

using namespace weft;
using namespace weft::sm;
using namespace weft::sm::tools;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) {
    g_stop = 1;
}

std::string hex(std::uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%016llx", static_cast<unsigned long long>(v));
    return b;
}

const char *state_name(PortState s) {
    switch (s) {
        case PortState::kDown:
            return "Down";
        case PortState::kInit:
            return "Init";
        case PortState::kArmed:
            return "Armed";
        case PortState::kActive:
            return "Active";
        default:
            return "?";
    }
}

// The node: its Sma on the packet socket, the SM when asked, the data it sends and counts.
class CaNode {
  public:
    CaNode(const CaArgs &a, PacketSocketPorts &socket)
        : a_(a),
          socket_(socket),
          sma_(config(a)),
          ports_(socket, IboeFrameConfig{a.ethertype, true}, [this](const IboePacket &p) { on_data(p); }),
          agent_(sma_, ports_, IboeFrameConfig{a.ethertype, true}),
          payload_(a.payload) {
        sma_.set_fabric_port(1, true);
    }

    int run();
    nlohmann::json summary() const;

  private:
    static SmaConfig config(const CaArgs &a) {
        SmaConfig c;
        c.node_type = NodeType::kCa;
        c.node_guid = a.guid;
        c.port_guids = {0, a.port_guid ? a.port_guid : a.guid + 1};
        c.num_ports = 1;
        c.description = a.description.empty() ? "weft-ca " + a.ifname : a.description;
        c.capability_mask = a.sm ? 0x2 : 0;  // IsSM
        return c;
    }
    SmaTime now() const { return Clock::now().time_since_epoch(); }
    bool active() const { return sma_.lid() != 0 && sma_.port_info(1).port_state == PortState::kActive; }
    void on_data(const IboePacket &p) {
        if (a_.receive) receiver_.take(p, sma_.lid());
    }
    void check_link();
    void send_due();
    void sweep();
    void take_traps();
    bool done() const;
    bool all_sent() const {
        return a_.count &&
               std::all_of(seq_.begin(), seq_.end(), [this](std::uint64_t s) { return s >= a_.count; });
    }

    const CaArgs &a_;
    PacketSocketPorts &socket_;
    Sma sma_;
    ManagementPorts ports_;
    SmaFrameAgent agent_;
    std::optional<FrameSmpTransport> transport_;
    std::optional<SmpEngine> engine_;
    // The SM's memory between sweeps.
    TableMemory held_;
    std::optional<SweepReport> last_;
    unsigned sweeps_ = 0;
    SmaTime next_sweep_{0};
    // Traffic.
    std::vector<std::uint8_t> payload_;
    std::vector<std::uint8_t> frame_;
    std::uint64_t sent_ = 0, send_failed_ = 0;  // sent_: turns taken (frames sent are in seq_)
    std::vector<std::uint64_t> seq_ = std::vector<std::uint64_t>(a_.send_to.size());  // per destination
    SmaTime next_send_{0};
    CaReceiver receiver_;
    SmaTime next_link_check_{0};
    SmaTime next_report_{0};
};

void CaNode::check_link() {
    const SmaTime t = now();
    if (t < next_link_check_) return;
    next_link_check_ = t + 100ms;
    const bool up = socket_.link_up();
    if (up == sma_.link_up(1)) return;
    // A trap for an SM elsewhere leaves by the port; one for our own SM is a reason to sweep.
    if (agent_.set_link(1, up, t) && transport_) next_sweep_ = t;
    if (up && transport_) next_sweep_ = t;
}

void CaNode::send_due() {
    if (a_.send_to.empty() || !active() || all_sent()) return;
    const SmaTime t = now();
    if (next_send_ == SmaTime{0}) next_send_ = t;
    const SmaTime gap = std::chrono::nanoseconds(1'000'000'000 / a_.rate);
    for (int burst = 0; t >= next_send_ && burst < 64 && !all_sent(); ++burst) {
        const std::size_t to = static_cast<std::size_t>(sent_ % a_.send_to.size());
        const std::uint64_t seq = seq_[to];
        if (a_.count && seq >= a_.count) {  // this one is done (the others had send failures)
            ++sent_;
            continue;
        }
        IboeHeaders h;
        h.src_mac = socket_.mac(1);
        h.dst_mac = ports_.neighbour_mac().value_or(kSmpGroupMac);
        h.sl = a_.sl;
        h.vl = 0;
        h.dlid = a_.send_to[to];
        h.slid = sma_.lid();
        h.dest_qp = kCaDataQp;
        h.src_qp = kCaDataQp;
        h.q_key = kCaDataQKey;
        h.psn = static_cast<std::uint32_t>(seq & 0xFFFFFF);
        encode_ca_payload(CaDatagram{seq, static_cast<std::uint64_t>(t.count())}, payload_);
        frame_.resize(iboe_frame_size(payload_.size(), false));
        const std::size_t n = encode_iboe_frame(h, payload_, frame_, IboeFrameConfig{a_.ethertype, true});
        if (socket_.send(1, std::span(frame_).first(n))) {
            ++sent_;
            ++seq_[to];
        } else {
            ++send_failed_;
            ++sent_;  // the next destination's turn; this one's sequence number is sent again
        }
        next_send_ += gap;
    }
    if (t > next_send_ + 100ms) next_send_ = t;  // fell far behind (a sweep ran): no burst to catch up
}

void CaNode::sweep() {
    SweepOptions o;
    o.chain = a_.route.chain;
    o.routing = routing::tools::routing_options(a_.route);
    o.held = &held_;
    o.log = [](std::string_view line) {
        if (line.rfind("phase ", 0) != 0) std::cerr << "weft-ca: sm: " << line << "\n";
    };
    SweepReport r = heavy_sweep(
        *engine_, [this] { return now(); }, o);
    ++sweeps_;
    if (r.outcome == SweepOutcome::kProgrammed) held_ = r.program.programmed;
    const bool good = r.outcome == SweepOutcome::kProgrammed;
    next_sweep_ = now() + (good ? std::chrono::milliseconds(a_.sweep_ms) : std::chrono::milliseconds(200));
    last_ = std::move(r);
}

void CaNode::take_traps() {
    while (std::optional<UnsolicitedSmp> u = engine_->next_unsolicited()) {
        if (u->smp.method != Method::kTrap) continue;
        engine_->post({make_trap_repress(u->smp), u->slid, 0}, now());
        next_sweep_ = now();
    }
    while (engine_->next_completion()) {
    }
}

bool CaNode::done() const {
    const bool sent = a_.send_to.empty() || all_sent();
    const bool received = receiver_.received() >= a_.expect;
    const bool something = !a_.send_to.empty() || a_.expect;
    return something && sent && received;
}

int CaNode::run() {
    const SmaTime start = now();
    const SmaTime end = a_.duration_s ? start + std::chrono::seconds(a_.duration_s) : SmaTime::max();
    if (a_.sm) {
        transport_.emplace(
            agent_, ports_, [this] { return now(); }, 1);
        engine_.emplace(*transport_, a_.engine);
    }
    std::optional<SmaTime> done_at;
    while (!g_stop) {
        const SmaTime t = now();
        if (t >= end) break;
        if (done_at && t >= *done_at) break;
        if (!done_at && done()) done_at = t + std::chrono::milliseconds(a_.linger_ms);
        check_link();
        if (engine_ && sma_.link_up(1) && t >= next_sweep_) sweep();
        const std::chrono::milliseconds wait = !a_.send_to.empty() && active() ? 1ms : 10ms;
        if (engine_) {
            engine_->pump([this] { return now(); }, wait);
            take_traps();
        } else if (std::optional<ReceivedFrame> f = ports_.receive(wait)) {
            agent_.on_frame(f->port, f->bytes, now());  // a CA with no SM hands nothing to one
        }
        agent_.poll(now());
        send_due();
        if (a_.report_ms && now() >= next_report_) {
            next_report_ = now() + std::chrono::milliseconds(a_.report_ms);
            std::cout << summary().dump() << std::endl;
        }
    }
    return done() ? 0 : 1;
}

nlohmann::json CaNode::summary() const {
    nlohmann::json j;
    j["if"] = a_.ifname;
    j["node_guid"] = hex(a_.guid);
    j["port_guid"] = hex(sma_.node_info(1).port_guid);
    j["lid"] = sma_.lid();
    j["sm_lid"] = sma_.port_info(1).master_sm_lid;
    j["port_state"] = state_name(sma_.port_info(1).port_state);
    j["link_up"] = sma_.link_up(1);
    j["done"] = done();
    j["sent"] = std::accumulate(seq_.begin(), seq_.end(), std::uint64_t{0});
    j["send_failed"] = send_failed_;
    if (a_.send_to.size() == 1) j["send_to"] = a_.send_to.front();
    if (a_.send_to.size() > 1) j["send_to"] = a_.send_to;
    j["received"] = receiver_.received();
    j["misdelivered"] = receiver_.counters().misdelivered;
    j["other_qp"] = receiver_.counters().other_qp;
    j["not_ca_data"] = receiver_.counters().not_ca_data;
    nlohmann::json flows = nlohmann::json::array();
    for (const auto &[slid, f] : receiver_.flows())
        flows.push_back({{"slid", slid},
                         {"received", f.received},
                         {"highest_seq", f.highest},
                         {"missing", f.missing()},
                         {"reordered", f.reordered}});
    j["flows"] = flows;
    const SmaFrameCounters &c = agent_.counters();
    j["smp_frames_in"] = c.smps_in;
    j["smp_frames_out"] = c.frames_out;
    nlohmann::json refused = nlohmann::json::object();
    for (std::size_t i = 0; i < kFrameDropCount; ++i)
        if (c.refused.by_reason[i])
            refused[frame_drop_name(static_cast<FrameDrop>(i))] = c.refused.by_reason[i];
    j["frames_refused"] = refused;
    j["sma_dropped"] = sma_.counters().dropped_total();
    if (a_.sm) {
        nlohmann::json sm;
        sm["sweeps"] = sweeps_;
        if (last_) {
            const SweepReport &r = *last_;
            sm["outcome"] = sweep_outcome_name(r.outcome);
            sm["why"] = r.why;
            sm["engine"] = r.chain.engine;
            sm["switches"] = r.discovery.stats.switches;
            sm["cas"] = r.discovery.stats.cas;
            sm["seconds"] = r.seconds;
            nlohmann::json lids = nlohmann::json::array();
            const routing::Fabric &f = r.discovery.fabric;
            for (routing::NodeIdx n = 0; n < f.node_count(); ++n) {
                const routing::Node &node = f.node(n);
                const PortNum first = node.is_switch() ? 0 : 1;
                for (PortNum p = first; p <= (node.is_switch() ? 0 : node.num_ports); ++p)
                    lids.push_back({{"node_guid", hex(node.guid)}, {"port", p}, {"lid", f.port(n, p).lid}});
            }
            sm["lids"] = lids;
        }
        if (engine_) {
            const SmpCounters &sc = engine_->counters();
            const SmpKindCounters t = sc.total();
            sm["smps"] = {{"sent", t.sent},
                          {"received", t.received},
                          {"retried", t.retried},
                          {"timed_out", t.timed_out},
                          {"malformed", t.malformed + sc.malformed_unmatched},
                          {"error_status", t.error_status},
                          {"unmatched", sc.unmatched}};
        }
        j["sm"] = sm;
    }
    return j;
}

}  // namespace

int main(int argc, char **argv) {
    CaArgs a;
    try {
        a = parse_ca_args(argc, argv);
    } catch (const std::exception &e) {
        std::cerr << "weft-ca: " << e.what() << "\n(--help for usage)\n";
        return 2;
    }
    if (a.route.help) {
        std::cout << ca_usage();
        return 0;
    }
    std::optional<PacketSocketPorts> socket;
    try {
        socket.emplace(a.ifname, a.ethertype);
    } catch (const std::system_error &e) {
        std::cerr << "weft-ca: " << e.what() << "\n";
        return 3;
    }
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    CaNode node(a, *socket);
    const int rc = node.run();
    const nlohmann::json s = node.summary();
    if (a.json)
        std::cout << s.dump() << std::endl;
    else
        std::cout << s.dump(2) << std::endl;
    return rc;
}
