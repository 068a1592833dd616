// The owner of a switch's ARN state, run by the ARS quality sampler's thread once per sampling
// interval (so one thread writes both the local and the remote bands of the PortBoard): it takes
// the news the workers delivered (Dataplane::drain_arn) into the best-path table and publishes
// the remote quality ARS reads; runs the detector over the watched ports on the sampler's
// measurements and sends this switch's own news on ARN's TX queue by the flood table's own
// entry; and expires news not refreshed. The control thread hands it a whole ArnSetup.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "weft/arn/best_path_table.hpp"
#include "weft/arn/detector.hpp"
#include "weft/arn/remote_quality.hpp"
#include "weft/dataplane/arn_tables.hpp"

struct rte_mbuf;

namespace weft::dataplane {

class Dataplane;

// What the control thread decided: the tables the workers use (for the switch's id, EtherType
// and its own news' ports), the watched ports, the destinations' candidate paths and their
// remote slots. Ports in ARN's numbering (dataplane port + 1).
struct ArnSetup {
    std::shared_ptr<const ArnTables> tables;
    arn::DetectorConfig detector;
    std::vector<arn::WatchedPort> watched;
    arn::BptConfig bpt;
    std::map<arn::GroupId, std::vector<arn::CandidatePath>> destinations;
    std::vector<arn::RemoteSlotAssignment> slots;
};

// When a link's news last changed condition at this switch (wall clock, for latencies across
// switches of one host), and the message that did it.
struct ArnNewsSeen {
    arn::LinkCondition condition = arn::LinkCondition::kClear;
    std::uint8_t severity = 0;
    std::uint32_t sequence = 0;
    std::uint64_t changed_at_us = 0;  // CLOCK_REALTIME
    std::uint64_t messages = 0;       // received about the link
};

struct ArnAgentCounters {
    std::uint64_t received = 0;  // news taken from the workers
    std::uint64_t applied = 0;   // of which the BPT applied (not stale)
    std::uint64_t stale = 0;
    std::uint64_t undecodable = 0;  // the workers decoded it; refused here (a setup changed between)
    std::uint64_t sent = 0;         // own news frames out
    std::uint64_t send_failed = 0;  // no ARN TX queue, link down, queue full or no mbuf
    std::uint64_t published = 0;    // remote slot bands changed
    std::uint64_t steps = 0;
};

// A copy of the agent's state for `show arn` and telemetry.
struct ArnAgentView {
    bool configured = false;
    std::vector<arn::WatchedPort> watched;
    std::vector<arn::PortStatus> status;        // by watched port
    std::vector<std::uint64_t> last_change_us;  // by watched port: its last change of state sent
    arn::DetectorCounters detector;
    struct Destination {
        arn::GroupId group = 0;
        std::vector<arn::CandidatePath> paths;
        std::vector<std::uint32_t> cost;  // effective
        std::vector<ars::QualityBand> band;
        std::optional<std::size_t> chosen;
    };
    std::vector<Destination> destinations;
    std::map<arn::LinkRef, ArnNewsSeen> news;
    arn::BptCounters bpt;
    std::vector<arn::RemoteSlotAssignment> slots;
    ArnAgentCounters counters;
};

class ArnAgent {
  public:
    ArnAgent(Dataplane &dp, std::uint64_t ticks_per_us);
    ~ArnAgent();
    ArnAgent(const ArnAgent &) = delete;
    ArnAgent &operator=(const ArnAgent &) = delete;

    // Control thread: adopted at the next step (news held so far is dropped with the old table;
    // repeats bring it back within a repeat interval). Null: ARN off.
    void configure(std::shared_ptr<const ArnSetup> setup);

    // The owner thread, once per sampling interval: `observed` by dataplane port (empty: the
    // detector skips this step). Returns true when it had frames to take or send.
    bool step(std::uint64_t now_tsc, std::span<const arn::PortObservation> observed);

    ArnAgentView view() const;

  private:
    void adopt(std::uint64_t now_tsc);
    void take(rte_mbuf *m, std::uint64_t now_tsc, std::uint64_t now_us);
    void send_own(const arn::ArnMessage &msg);
    void seen(const arn::ArnMessage &m, std::uint64_t now_us);
    void publish(const arn::BptChange &c);

    Dataplane *dp_;
    std::uint64_t ticks_per_us_;
    mutable std::mutex mu_;  // every member below; the control thread takes it to read or configure
    std::shared_ptr<const ArnSetup> pending_;
    bool has_pending_ = false;
    std::shared_ptr<const ArnSetup> setup_;
    std::unique_ptr<arn::Detector> detector_;
    std::unique_ptr<arn::BestPathTable> bpt_;
    std::unique_ptr<arn::RemoteQualityPublisher> remote_;
    std::vector<std::uint64_t> last_change_us_;
    std::vector<std::uint16_t> said_;  // by watched port: the Type and Metric it last sent
    std::map<arn::LinkRef, ArnNewsSeen> news_;
    ArnAgentCounters counters_;
    std::vector<arn::PortObservation> obs_;
    std::vector<arn::ArnMessage> out_;
};

}  // namespace weft::dataplane
