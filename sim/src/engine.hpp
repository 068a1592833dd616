// The simulator's state and event handlers. Its members are defined by concern:
//   engine_build.cpp    the fabric from the routing library, ports, hosts, switches, ARS configs
//   engine.cpp          the event loop, ports and links, switch forwarding, PFC, failures
//   transport.cpp       hosts: the DCTCP-like and RoCE-like senders and receivers
//   workload.cpp        flows of each workload, Poisson arrivals
//   engine_results.cpp  the records a run returns
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "flow.hpp"
#include "packet.hpp"
#include "port.hpp"
#include "size_cdf.hpp"
#include "weft/arn/best_path_table.hpp"
#include "weft/arn/detector.hpp"
#include "weft/arn/prefix_routing.hpp"
#include "weft/arn/remote_quality.hpp"
#include "weft/ars/config.hpp"
#include "weft/ars/port_board.hpp"
#include "weft/ars/quality_sampler.hpp"
#include "weft/ars/rng.hpp"
#include "weft/ars/worker.hpp"
#include "weft/routing/ars_groups.hpp"
#include "weft/routing/fabric.hpp"
#include "weft/routing/tables.hpp"
#include "weft/sim/event_queue.hpp"
#include "weft/sim/results.hpp"
#include "weft/sim/scenario.hpp"
#include "weft/sim/simulator.hpp"

namespace weft::sim {

// Event kinds, in the order simultaneous events are handled.
enum EventKind : unsigned {
    kEvLink = 0,    // a failure's change of a link (id: failure)
    kEvLinkDetect,  // the switches at its ends see it (id: failure)
    kEvReroute,     // the SM's new routing is in place (id: failure)
    kEvSample,      // every switch samples port load for ARS
    kEvWire,        // the head of a port's wire reaches the far end (id: port)
    kEvTxDone,      // a port's serialization ended and it has more to send (id: port)
    kEvHostWake,    // a paced flow of a host may send (id: host)
    kEvFlowTimer,   // a flow's retransmission or rate timer (id: flow)
    kEvFlowStart,   // (id: flow)
    kEvArrival,     // a Poisson workload's next flow (id: workload)
};

struct Host {
    routing::NodeIdx node = 0;
    PortIdx port = kNoPortIdx;       // its NIC
    PortIdx leaf_port = kNoPortIdx;  // the switch's port facing it
    std::uint32_t leaf = 0;          // the switch it hangs off (switch index)
    std::uint32_t dest = 0;          // its leaf's ARS destination (the NHG id elsewhere)
    std::vector<FlowId> active;      // flows with something to send or to be acknowledged
    std::uint32_t rr = 0;            // round robin among them
    Time wake_at = kNever;
};

struct SwitchNode {
    routing::NodeIdx node = 0;
    PortIdx first_port = 0;  // port p is first_port + p - 1
    std::uint32_t ports = 0;
    std::uint32_t salt = 0;  // per-switch hash seed (no ECMP polarization across tiers)
    std::unique_ptr<ars::PortBoard> board;
    std::unique_ptr<ars::Worker> worker;
    std::unique_ptr<ars::QualitySampler> sampler;
    std::shared_ptr<const ars::Config> config;
    std::vector<ars::PortSample> samples;  // index: port number
    ars::Rng rng{0, 0};                    // ECN marking draws
    // Per destination: the port of its group's only member, 0 when the group has several. The
    // engine's answer for such a group is that member while its link is up and a drop otherwise,
    // whatever the mode, so the simulator gives it without asking (half the decisions in a
    // three-level fat tree: every way down is a single port).
    std::vector<std::uint16_t> only;
};

// A switch's ARN side (engine_arn.cpp), as a weft switch runs it: the detector on its global
// ports, fed by its quality sampler; its best-path table, whose bands it publishes into its
// board's remote slots; its row of its group's prefix-multicast flood tables.
struct ArnSwitch {
    std::uint32_t group = 0;  // its dragonfly group
    arn::NodeIndex node = 0;  // its node in the group's prefix graph
    arn::SwitchId id = 0;     // its GUID, the reporting switch of its messages
    std::unique_ptr<arn::Detector> detector;
    std::unique_ptr<arn::BestPathTable> bpt;
    std::unique_ptr<arn::RemoteQualityPublisher> publisher;
    std::vector<arn::PrefixMcastEntry> flood;
    std::vector<arn::PortObservation> observed;  // by watched port
    std::vector<ars::RemoteSlot> slot;           // by destination group x (ports + 1)
};

struct ArnGroup {
    std::vector<std::uint32_t> switches;  // by prefix-graph node
};

// One message from its detection on: the frame every copy carries, and who has applied it.
struct ArnTrace {
    std::vector<std::uint8_t> frame;
    Time detected = 0;
    Time last = 0;
    std::uint32_t expected = 0;  // the other switches of the reporter's group
    std::uint32_t delivered = 0;
};

// What a switch needs of a packet's destination host, kept apart from Host so that forwarding
// reads 12 bytes per host.
struct HostRoute {
    std::uint32_t leaf = 0;          // its switch
    PortIdx leaf_port = kNoPortIdx;  // that switch's port to it
    std::uint32_t dest = 0;          // its ARS destination (the NHG id)
};

// Where a fabric node lives in the simulator.
struct NodeRef {
    bool is_switch = false;
    std::uint32_t index = 0;  // host or switch index
    PortIdx first_port = 0;
};

struct PoissonSource {
    std::uint32_t workload = 0;
    std::uint32_t first = 0, count = 0;        // sources
    std::uint32_t to_first = 0, to_count = 0;  // destinations
    SizeCdf cdf;
    double flows_per_ps = 0;  // arrival rate over all its hosts
    Time end = 0;
    ars::Rng rng{0, 0};
};

class Engine {
  public:
    explicit Engine(const Scenario &s);
    Results run(const std::function<void(const Simulator::Progress &)> &progress, double every);
    std::string describe() const;

  private:
    // --- build (engine_build.cpp)
    void build_fabric();
    void build_ports();
    void route();  // routing tables, ARS groups, every switch's ars::Config
    void assign_destinations();
    void program(std::uint32_t sw);  // the switch's ars::Config and single-member groups
    std::shared_ptr<const ars::Config> switch_config(std::uint32_t sw, std::uint64_t seed) const;
    routing::NodeIdx failure_node(const FailureSettings &f) const;
    Time ideal_fct(const Flow &f) const;

    // --- event loop and network (engine.cpp)
    void schedule(Time t, unsigned kind, std::uint32_t id) { events_.push(t, Event::make(kind, id)); }
    void dispatch(const Event &e);
    void kick(PortIdx p);
    void transmit(PortIdx p, PacketId id);
    void on_wire(PortIdx p);
    void forward(std::uint32_t sw, PortIdx in, PacketId id);
    void enqueue(PortIdx out, PacketId id, PortIdx in);
    void release_ingress(PortIdx in, std::uint32_t bytes);
    void send_pfc(PortIdx in, bool pause);
    void drop(PacketId id, std::uint64_t &counter, bool link_loss);
    void sample();
    void link_change(std::uint32_t failure);
    void link_detect(std::uint32_t failure);
    void reroute(std::uint32_t failure);
    void set_link(PortIdx a, bool up);

    // --- ARN (engine_arn.cpp)
    void build_arn();  // groups, prefix multicast, detectors, best-path tables, remote slots
    std::size_t arn_remote_slots(std::uint32_t sw) const;
    ars::RemoteSlot arn_slot(std::uint32_t sw, std::uint32_t dest_switch, ars::PortId port) const;
    void arn_sample(std::uint32_t sw);  // after the switch's sampler: detection, expiry
    void arn_send(std::uint32_t sw, ars::PortId port, std::uint32_t trace);
    void arn_receive(std::uint32_t sw, PortIdx in, PacketId id);
    void arn_apply(std::uint32_t sw, const arn::ArnMessage &m);
    void arn_collect(RunCounters &c) const;

    // --- hosts and transports (transport.cpp)
    void start_flow(FlowId f);
    PacketId next_data(Host &h);
    void host_receive(std::uint32_t host, PacketId id);
    void receive_data(Flow &f, FlowId id, const Packet &k);
    void receive_ack(Flow &f, FlowId id, const Packet &k);
    void receive_nack(Flow &f, FlowId id, const Packet &k);
    void receive_cnp(Flow &f, FlowId id);
    void send_ctrl(const Flow &f, FlowId id, PacketType type, std::uint32_t seq, std::uint8_t flags,
                   Time echo);
    void flow_timer(FlowId id);
    void arm_timer(Flow &f, FlowId id, Time at);
    void complete(Flow &f, FlowId id);
    void sender_finished(Flow &f, FlowId id);
    void kick_host(std::uint32_t host);
    void host_wake(std::uint32_t host);

    // --- workloads (workload.cpp)
    void build_workloads();
    std::string resolved(const std::string &path) const;
    std::string read_relative(const WorkloadSettings &w, const std::string &path) const;
    FlowId add_flow(std::uint32_t src, std::uint32_t dst, std::uint64_t bytes, std::uint32_t workload);
    void add_successor(FlowId before, FlowId after);
    void arrival(std::uint32_t source);

    // --- results (engine_results.cpp)
    Results collect(double wall_seconds) const;

    const Scenario s_;
    // Fabric as routed now (failed links disconnected), and the cables as built.
    routing::Fabric fabric_;
    routing::RoutingTables tables_;
    routing::ArsGroups groups_;
    std::string routing_note_;

    std::vector<NodeRef> nodes_;  // by fabric node
    std::vector<Port> ports_;
    std::vector<Host> hosts_;
    std::vector<HostRoute> routes_;  // by host
    std::vector<SwitchNode> switches_;
    std::vector<ArnSwitch> arn_;  // by switch, when ARN is on
    std::vector<ArnGroup> arn_groups_;
    std::vector<ArnTrace> arn_traces_;
    std::vector<arn::ArnMessage> arn_out_;  // a detector's messages of one sample
    std::vector<Flow> flows_;
    std::vector<FlowId> successors_;                    // Flow::next_begin..next_end index this
    std::vector<std::vector<FlowId>> successor_lists_;  // while building
    std::vector<PoissonSource> sources_;
    std::vector<FlowId> planned_;  // flows that start at a set time, in start order
    std::size_t next_planned_ = 0;
    std::vector<FailureRecord> failures_;
    std::vector<std::pair<PortIdx, PortIdx>> failure_ports_;  // the two directions of each failure's link
    std::uint32_t latest_failure_ = ~0u;

    EventQueue events_;
    PacketPool pool_;
    Time now_ = 0;

    // Settings derived once.
    bool lossless_ = false;
    bool sample_quality_ = false;
    std::uint32_t payload_ = 0;
    std::uint64_t pfc_xoff_ = 0, pfc_xon_ = 0;
    double ecn_span_ = 0;  // kmax - kmin, for the marking probability

    RunCounters counters_;
    std::uint64_t flows_started_ = 0, flows_done_ = 0;
    std::uint64_t flows_pending_ = 0;    // created but not done (a run may end when none is left)
    std::uint32_t sources_running_ = 0;  // Poisson workloads still making flows
};

}  // namespace weft::sim
