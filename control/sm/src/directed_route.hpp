// The directed-route rules of the subnet management interface (IBA 14.2.2, the C14-9 rules for
// outgoing SMPs and C14-13 for returning ones), as pure functions over an SMP: what a node does
// with a directed-route SMP it received from a port, or one it sends itself (a request of its SM,
// a reply of its SMA). They update the hop pointer and the return path as the IBA says.
//
// On the wire an outgoing SMP reaches the node at hop i with hop pointer i; a returning one
// reaches the node at hop i with hop pointer i + 1, and leaves it by ReturnPath[i].
#pragma once

#include <cstdint>

#include "weft/sm/lid.hpp"
#include "weft/sm/sma_counters.hpp"
#include "weft/sm/smp.hpp"

namespace weft::sm::detail {

enum class DrAction : std::uint8_t {
    kLocal,    // for this node's SMA
    kOutPort,  // out of `port`, still directed
    kOutLid,   // LID-routed on to `lid` (the DrDLID after the directed part, the DrSLID back)
    kToSm,     // returned to the SM on this node
    kDrop,     // `drop` says why
};

struct DrStep {
    DrAction action = DrAction::kDrop;
    PortNum port = 0;
    Lid lid = 0;
    SmaDrop drop = SmaDrop::kCount;
    bool lid_tail = false;  // kLocal: reached LID-routed after the directed part (by DrDLID)
};

struct DrNode {
    bool is_switch = false;
    PortNum num_ports = 0;
};

// A directed-route SMP that arrived on `in_port`.
DrStep dr_receive(Smp &smp, PortNum in_port, const DrNode &node);

// A directed-route SMP this node sends: an outgoing request of its SM (hop pointer 0), or its
// SMA's reply (D set, hop pointer as dr_receive left it). `lid_tail` as dr_receive said for the
// request the reply answers.
DrStep dr_send(Smp &smp, const DrNode &node, bool lid_tail = false);

}  // namespace weft::sm::detail
