// An in-process fabric behind the SmpTransport interface, for tests of what sits above a
// transport: nodes with their NodeInfo, NodeDescription, PortInfo per port, SwitchInfo and
// linear forwarding table, linked port to port, each answering SMPs as an SMA does. A
// directed-route SMP walks its initial path from the SM's node; a port without a link loses it
// (no reply, as on a real fabric). Time is the test's: replies become receivable `latency` after
// their request, at the fabric's now(). Faults the test can ask for: lose requests, corrupt
// replies, refuse sends, send traps.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "weft/sm/linear_forwarding_table.hpp"
#include "weft/sm/multicast_forwarding_table.hpp"
#include "weft/sm/node_info.hpp"
#include "weft/sm/port_info.hpp"
#include "weft/sm/sl_to_vl_table.hpp"
#include "weft/sm/smp_transport.hpp"
#include "weft/sm/switch_info.hpp"

namespace weft::sm::test {

struct SimNode {
    NodeInfo info;
    std::string description;
    std::vector<PortInfo> ports;  // index = port number (a CA's index 0 unused)
    SwitchInfo switch_info;
    std::vector<PortNum> lft;  // switches: one entry per LID up to LinearFDBCap
    struct Peer {
        std::size_t node;
        PortNum port;
    };
    std::vector<std::optional<Peer>> links;      // index = port number
    std::map<std::uint32_t, SlToVlTable> sl2vl;  // by attribute modifier (switch: in << 8 | out)
    std::map<std::uint32_t, MftBlock> mft;       // switches: by attribute modifier (position, block)
};

class SimFabric final : public SmpTransport {
  public:
    std::size_t add_switch(std::uint64_t guid, PortNum ports, std::string description);
    std::size_t add_ca(std::uint64_t guid, PortNum ports, std::string description);
    void link(std::size_t a, PortNum pa, std::size_t b, PortNum pb);

    SimNode &node(std::size_t i) { return nodes_[i]; }
    std::size_t node_count() const { return nodes_.size(); }
    std::size_t sm_node = 0;  // where the SM sits
    PortNum sm_port = 1;

    // The test's clock.
    void set_now(std::chrono::nanoseconds now) { now_ = now; }
    std::chrono::nanoseconds now() const { return now_; }
    // receive(wait) lets the fabric's time pass (to the next reply, at most `wait`) when nothing
    // is due, as a transport that blocks would: a whole sweep then runs on SmpEngine::pump with
    // now() as its clock.
    bool time_passes_on_wait = false;
    std::chrono::nanoseconds latency{std::chrono::microseconds(10)};

    // Faults.
    unsigned lose_next_requests = 0;  // requests that vanish on the wire
    // Requests that reach node `node` and are never answered while this says so (a node that
    // dies, or drops one kind of SMP).
    std::function<bool(std::size_t node, const Smp &)> drop_at;
    // Applied to the attribute data of every reply of node `node` before encoding.
    std::function<void(std::size_t node, Smp &reply)> alter_reply;
    bool refuse_sends = false;                                     // send() fails
    std::function<void(SmpBytes &, std::size_t &)> corrupt_reply;  // applied to every reply
    void send_trap(const Smp &trap, Lid from);

    // What crossed the wire.
    std::size_t requests_seen = 0;
    std::map<std::pair<std::uint8_t, std::uint16_t>, std::size_t> seen_by_kind;  // (method, attribute)
    std::size_t requests_in_flight() const;  // sent, reply not yet taken by receive()

    bool send(const OutgoingSmp &smp) override;
    std::optional<ReceivedSmp> receive(std::chrono::milliseconds wait) override;
    const std::string &error() const override { return error_; }

  private:
    struct Delivery {
        std::chrono::nanoseconds at;
        ReceivedSmp mad;
        bool reply;
    };
    std::optional<Smp> answer(const Smp &request);
    SmpData attribute(SimNode &node, PortNum in_port, Smp &smp, std::uint16_t &status);

    std::vector<SimNode> nodes_;
    std::deque<Delivery> pending_;
    std::chrono::nanoseconds now_{0};
    std::string error_;
    std::size_t in_flight_ = 0;
};

// A two-level tree: hosts 0x1000 + 0x10*h ("host<h>"), spines 0x2000 + s, leaves 0x3000 + l. Leaf
// l's ports 1..spines go to the spines (spine s's port l+1), the next ones to its hosts. The SM
// sits on host 0.
struct SimTree {
    std::vector<std::size_t> spines, leaves, hosts;
};
SimTree build_tree(SimFabric &fabric, unsigned spines, unsigned leaves, unsigned hosts_per_leaf,
                   PortNum radix = 8);

}  // namespace weft::sm::test
