// weft-ars-demo: the ARS engine on synthetic traffic in simulated time. Four 100G ports behind
// one FLOWLET_QUALITY next-hop group; 64 flows that come and go in flowlets. Phase 1 is quiet,
// in phase 2 port 2 is congested by outside traffic, in phase 3 port 3 goes down. After each
// phase it prints the port bands, where the flows sit, and the group's counters.
#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

#include "weft/ars/config.hpp"
#include "weft/ars/port_board.hpp"
#include "weft/ars/quality_sampler.hpp"
#include "weft/ars/rng.hpp"
#include "weft/ars/worker.hpp"

using namespace weft::ars;

namespace {

constexpr Ticks kTicksPerUs = 1000;  // simulated nanosecond ticks
constexpr PortId kPorts = 4;
constexpr NhgId kGroup = 1;
constexpr int kFlows = 64;
constexpr std::uint64_t kPacketBytes = 4096;
constexpr std::uint64_t kDrainBytesPerUs = 12500;  // 100 Gbps

struct Flow {
    std::uint32_t hash;
    bool on = false;
    std::uint32_t left_us = 0;  // until the next on/off switch
};

struct MonitorTally {
    std::array<std::uint64_t, 3> by_reason{};
    static void record(void *self, const ReassignEvent &e) {
        ++static_cast<MonitorTally *>(self)->by_reason[static_cast<int>(e.reason)];
    }
};

std::shared_ptr<const Config> build_config() {
    Profile profile;
    profile.random_seed = 0x12345678;
    profile.current_load_enabled = true;  // a draining port recovers its band at once
    ConfigBuilder b(profile, kTicksPerUs);
    for (PortId p = 0; p < kPorts; ++p)
        b.add_port(PortConfig{p, true, *scale_tenths_for_speed_gbps(100), 100, 100});
    ArsObjectConfig ars;
    ars.id = 0;
    ars.mode = Mode::kFlowletQuality;
    ars.idle_time_us = 256;
    ars.max_flows = 512;
    ars.monitoring = true;
    b.add_ars_object(ars);
    NhgConfig nhg;
    nhg.id = kGroup;
    nhg.ars_object = 0;
    for (PortId p = 0; p < kPorts; ++p)
        nhg.members.push_back({100u + p, EgressTarget::port(p), MemberRole::kPrimary, true});
    b.add_nhg(nhg);
    BuildResult r = b.build();
    for (const ConfigError &e : r.errors) std::fprintf(stderr, "config: %s\n", e.message.c_str());
    return r.config;
}

class Simulation {
  public:
    Simulation()
        : config_(build_config()), board_(kPorts, 1), sampler_(kPorts), worker_(board_, 0), rng_(7, 0) {
        for (PortId p = 0; p < kPorts; ++p) board_.set_link_up(p, true);
        worker_.adopt(config_);
        worker_.set_monitor_hook({&MonitorTally::record, &tally_});
        for (int f = 0; f < kFlows; ++f)
            flows_.push_back({static_cast<std::uint32_t>(rng_.next()), false, rng_.below(400)});
    }

    bool ok() const { return config_ != nullptr; }

    // Runs `us` microseconds with `outside_bytes_per_us` extra traffic into port 2.
    void run(std::uint32_t us, std::uint64_t outside_bytes_per_us) {
        for (std::uint32_t i = 0; i < us; ++i, ++now_us_) {
            const Ticks now = now_us_ * kTicksPerUs;
            std::array<std::uint64_t, kPorts> offered{};
            offered[2] += outside_bytes_per_us;
            for (Flow &f : flows_) {
                if (f.left_us-- == 0) {
                    f.on = !f.on;  // flowlets: 100..500 us on, 300..800 us off (> idle time)
                    f.left_us = f.on ? 100 + rng_.below(400) : 300 + rng_.below(500);
                }
                if (!f.on || rng_.below(100) >= 15) continue;
                const Egress e = worker_.select_nhg(kGroup, f.hash, now);
                if (!e.dropped()) offered[e.port] += kPacketBytes;
            }
            for (PortId p = 0; p < kPorts; ++p) {
                if (!board_.link_up(p)) {
                    queue_[p] = 0;
                    continue;
                }
                const std::uint64_t backlog = queue_[p] + offered[p];
                const std::uint64_t sent = backlog < kDrainBytesPerUs ? backlog : kDrainBytesPerUs;
                queue_[p] = backlog - sent;
                samples_[p].bytes_sent += sent;
            }
            if ((now_us_ + 1) % config_->profile().sampling_interval_us == 0) {
                for (PortId p = 0; p < kPorts; ++p) samples_[p].bytes_queued = queue_[p];
                sampler_.update(*config_, samples_, board_);
                samples_ = {};
            }
        }
    }

    void set_link(PortId p, bool up) { board_.set_link_up(p, up); }

    void report(const char *title) const {
        std::printf("\n== %s (t = %llu us)\n", title, static_cast<unsigned long long>(now_us_));
        std::printf("  port  link  band(7=best)  sent Gbps  queue KB  active flowlets\n");
        // A bucket is an active flowlet while its idle time has not passed.
        const MacroFlowTable *table = worker_.nhg_table(kGroup, 0);
        const Ticks now = now_us_ * kTicksPerUs;
        const Ticks idle = config_->ars_object(0)->idle_ticks;
        std::array<int, kPorts> buckets{};
        for (std::uint32_t b = 0; b < table->size(); ++b) {
            const MacroFlowTable::Bucket *bucket = table->bucket(b);
            if (!bucket->empty() && bucket->member() < kPorts && bucket->idle_for(now) <= idle)
                ++buckets[bucket->member()];
        }
        for (PortId p = 0; p < kPorts; ++p) {
            std::printf("  %4u  %-4s  %12u  %9.1f  %8.1f  %15d\n", p, board_.link_up(p) ? "up" : "down",
                        board_.port_quality(p), static_cast<double>(sampler_.port_load(p).past_mbps) / 1000.0,
                        static_cast<double>(queue_[p]) / 1024.0, buckets[p]);
        }
        const CounterValues c = worker_.nhg_counters(kGroup);
        std::printf(
            "  NHG %u: next-hop reassignments %llu, port reassignments %llu, link-down moves %llu, drops "
            "%llu,"
            " FLOWLET_QUALITY decisions %llu\n",
            kGroup, static_cast<unsigned long long>(c.next_hop_reassignments),
            static_cast<unsigned long long>(c.port_reassignments),
            static_cast<unsigned long long>(c.link_down_reassignments),
            static_cast<unsigned long long>(c.packet_drops),
            static_cast<unsigned long long>(c.decisions[static_cast<int>(Mode::kFlowletQuality)]));
        std::printf("  monitor hook: %llu moves after idle time, %llu moves for link down\n",
                    static_cast<unsigned long long>(tally_.by_reason[0]),
                    static_cast<unsigned long long>(tally_.by_reason[1]));
    }

  private:
    std::shared_ptr<const Config> config_;
    PortBoard board_;
    QualitySampler sampler_;
    Worker worker_;
    Rng rng_;
    MonitorTally tally_;
    std::vector<Flow> flows_;
    std::array<std::uint64_t, kPorts> queue_{};
    std::array<PortSample, kPorts> samples_{};
    std::uint64_t now_us_ = 0;
};

}  // namespace

int main() {
    Simulation sim;
    if (!sim.ok()) return 1;
    std::printf("weft ARS demo: 4 x 100G ports, NHG %u in FLOWLET_QUALITY, idle time 256 us, 64 flows\n",
                kGroup);
    sim.run(3000, 0);
    sim.report("phase 1: no congestion, flowlets spread by quality");
    sim.run(3000, 13000);  // 104 Gbps of outside traffic into port 2: its queue grows
    sim.report("phase 2: port 2 congested by outside traffic, new flowlets avoid it");
    sim.set_link(3, false);
    sim.run(20, 13000);
    sim.report(
        "phase 3a: port 3 down; 20 us later every flowlet that sent again has moved, the rest move on their "
        "next packet");
    sim.run(2980, 13000);
    sim.report("phase 3b: port 3 still down, port 2 still congested");
    sim.set_link(3, true);
    sim.run(3000, 0);
    sim.report("phase 4: congestion gone, port 3 back up");
    return 0;
}
