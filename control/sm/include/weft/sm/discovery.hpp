// Discovery: the heavy sweep's first phase. A breadth-first walk of the fabric by directed-route
// SMPs from the SM's own port — NodeInfo of what sits behind each physically up port, then the
// new node's NodeDescription, SwitchInfo and PortInfo of every port — with every request queued
// at once so the SmpEngine's window stays full. Nodes are told apart by node GUID; a GUID met
// again is the same node unless what it says contradicts what is known (another node type or
// port count, or a port already cabled elsewhere): then it is a duplicate GUID, logged and
// counted, and the link that led there is left out. Whatever goes wrong (a timeout, a reply that
// does not decode, an error status, a switch that stops answering half-way) is a located log line
// and a counter; the sweep carries on with the rest.
//
// The result is the routing library's Fabric (what engines route) beside what the SM needs to
// program it: each node's attributes as read and the directed route that reached it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "weft/routing/fabric.hpp"
#include "weft/sm/node_info.hpp"
#include "weft/sm/port_info.hpp"
#include "weft/sm/smp_engine.hpp"
#include "weft/sm/smp_loop.hpp"
#include "weft/sm/switch_info.hpp"
#include "weft/sm/vendor_host_subnets.hpp"

namespace weft::sm {

// The port out of each hop, hop 1 first; empty is the SM's own node.
using DrPath = std::vector<std::uint8_t>;

std::string path_text(const DrPath &path);  // "0,1,3" as infiniband-diags write it

// Cables (a, pa) to (b, pb) in f with the width, speed and state PortInfo `pi` reads.
void connect_as_read(routing::Fabric &f, routing::NodeIdx a, PortNum pa, routing::NodeIdx b, PortNum pb,
                     const PortInfo &pi);

struct DiscoveredNode {
    NodeInfo info;  // as first read (its local port is the one first entered by)
    std::string description;
    std::optional<SwitchInfo> switch_info;         // switches
    DrPath path;                                   // the route that first reached it
    std::vector<std::optional<PortInfo>> ports;    // index = port number (0..num_ports); unread: empty
    std::vector<std::optional<DrPath>> port_path;  // CA/router ports: a route entering by that port
    std::vector<std::uint64_t> port_guid;          // CA/router ports: the port GUID (0: not reached)
    bool vanished = false;  // stopped answering what the SM needs (SwitchInfo, port 0, every port)
    // Ethernet mode: a weft switch's host subnets (WeftHostSubnets) and their version, read before
    // its ports are followed; empty on other switches.
    std::vector<HostSubnet> host_subnets;
    std::optional<std::uint16_t> host_subnets_version;
    // Ethernet mode: the hosts behind switch `host_of.first`'s port `host_of.second`, modelled
    // as a CA with one port so the engines route to them as to any end port; no SMA answers for
    // it (no path), so nothing is ever sent to it.
    std::optional<std::pair<std::size_t, PortNum>> host_of;

    bool is_switch() const { return info.is_switch(); }
    // The route to address `port`'s PortInfo: a switch's own route, a CA port's entry route.
    const DrPath *route_to_port(PortNum port) const;
};

struct DiscoveryStats {
    std::size_t nodes = 0, switches = 0, cas = 0, links = 0;
    std::size_t timeouts = 0;         // requests that got no reply after their retries
    std::size_t send_failures = 0;    // requests the transport refused
    std::size_t malformed = 0;        // replies that did not decode (SMP or attribute)
    std::size_t error_status = 0;     // replies with a non-zero MAD status
    std::size_t duplicate_guids = 0;  // GUIDs met where they contradict what is known
    std::size_t vanished = 0;         // nodes left out: they stopped answering mid-sweep
    std::size_t dark_ports = 0;       // physically up switch ports behind which nothing answered
    std::size_t host_ports = 0;       // Ethernet mode: host ports with subnets (not followed)
    std::size_t problems() const {
        return timeouts + send_failures + malformed + error_status + duplicate_guids + vanished;
    }
};

// Node GUID -> NodeDescription, as an earlier sweep read it.
using NodeDescriptions = std::unordered_map<std::uint64_t, std::string>;

struct DiscoveryOptions {
    // One located line per problem ("discovery: ..."); also kept in the result.
    std::function<void(std::string_view)> log;
    // A resident SM's memory: a node met again keeps the description read before instead of
    // being asked (as OpenSM does; a description that changes is news a trap 144 would bring).
    const NodeDescriptions *descriptions = nullptr;
    // Ethernet/RoCE fabrics: every switch's WeftHostSubnets is read before its ports are followed;
    // a host port with subnets is not probed (Linux hosts behind it answer no SMP) but becomes an
    // end node of the fabric (DiscoveredNode::host_of), its GUID ethernet_hosts_guid()'s.
    bool ethernet = false;
};

// The node (and port) GUID of the hosts behind a switch's host port in Ethernet mode: 0xFE (a
// locally administered EUI-64), the switch GUID's low 48 bits, then the port.
std::uint64_t ethernet_hosts_guid(std::uint64_t switch_guid, PortNum port);

struct DiscoveryResult {
    bool reached = false;    // the SM's own node answered (false: nothing else was tried)
    routing::Fabric fabric;  // links in the state read (INIT before an SM arms them), existing LIDs
    std::vector<DiscoveredNode> nodes;  // index = the Fabric's NodeIdx
    routing::NodeIdx sm_node = routing::kNoNode;
    PortNum sm_port = 0;  // the SM's port on sm_node (0 when the SM sits on a switch's port 0)
    DiscoveryStats stats;
    std::vector<std::string> problems;  // the log lines
};

// The sweep as a state machine over an engine the caller drives: start() queues the first
// request, on_completion() takes every completion (submitting what it learns), finish() builds
// the result once the engine is idle.
class Discovery {
  public:
    explicit Discovery(DiscoveryOptions options = {});
    void start(SmpEngine &engine, SmTime now);
    void on_completion(SmpEngine &engine, const SmpCompletion &c, SmTime now);
    DiscoveryResult finish();

  private:
    enum class Ask : std::uint8_t { kNodeInfo, kNodeDescription, kSwitchInfo, kPortInfo, kHostSubnets };
    struct Pending {
        Ask ask;
        std::size_t node;  // kNodeInfo: the node the probe left (npos from the SM's node)
        PortNum port;      // kNodeInfo: the port it left by; kPortInfo: the port asked
        DrPath path;
        std::uint16_t block = 0;  // kHostSubnets
    };
    struct End {
        std::size_t node;
        PortNum port;
        friend bool operator==(const End &, const End &) = default;
    };
    static std::uint64_t key(std::size_t node, PortNum port) { return (std::uint64_t{node} << 8) | port; }

    void ask(SmpEngine &engine, SmTime now, Ask what, std::size_t node, PortNum port, DrPath path,
             std::uint16_t block = 0);
    void node_info(SmpEngine &engine, SmTime now, const Pending &p, const NodeInfo &info);
    void port_info(SmpEngine &engine, SmTime now, const Pending &p, const PortInfo &info);
    void failed(const Pending &p, const std::string &why);
    // Follows port `port` of switch `node` (read up) to whatever is behind it.
    void follow(SmpEngine &engine, SmTime now, std::size_t node, PortNum port, const DrPath &path);
    void host_subnets(SmpEngine &engine, SmTime now, const Pending &p, const HostSubnetsBlock &b);
    // The switch's subnets are known (or will not be): its deferred ports are followed.
    void subnets_done(SmpEngine &engine, SmTime now, std::size_t node);
    bool host_port(std::size_t node, PortNum port) const;  // one with host subnets
    // Ethernet mode: the hosts behind each host port as end nodes in r.fabric; their records.
    std::vector<DiscoveredNode> add_host_nodes(DiscoveryResult &r, const std::vector<routing::NodeIdx> &idx);
    bool link(End a, End b, const DrPath &path);
    bool port_guid_taken(const NodeInfo &info, std::size_t node, const DrPath &path);
    std::string name(std::size_t node) const;
    void problem(std::string line);

    DiscoveryOptions options_;
    std::vector<Pending> pending_;  // index = the request's cookie
    std::vector<DiscoveredNode> nodes_;
    std::unordered_map<std::uint64_t, std::size_t> by_guid_;       // node GUID -> node
    std::unordered_map<std::uint64_t, std::size_t> by_port_guid_;  // port GUID -> node
    std::unordered_map<std::uint64_t, End> links_;                 // both directions
    // Ethernet mode: switches whose subnets are being read, with the ports waiting to be followed.
    std::unordered_map<std::size_t, std::vector<PortNum>> deferred_;
    std::set<std::size_t> reread_;  // switches whose subnets changed while read
    std::vector<std::string> problems_;
    DiscoveryStats stats_;
    bool reached_ = false;
    PortNum sm_port_ = 0;
};

// The descriptions of the nodes a sweep read, to pass to the next (DiscoveryOptions::descriptions).
NodeDescriptions descriptions_of(const DiscoveryResult &d);

// A whole sweep over a transport that can wait (SmpEngine::pump).
DiscoveryResult discover(SmpEngine &engine, const SmClock &clock, DiscoveryOptions options = {});

}  // namespace weft::sm
