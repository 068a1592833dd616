// What a Subnet Management Agent counts: SMPs in and out, why each dropped one was dropped, the
// error statuses it answered with, M_Key violations and traps.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>

namespace weft::sm {

// Why the SMA (or the subnet management interface in front of it) dropped an SMP. Dropped SMPs
// get no reply: a sender that sees none times out, as on an InfiniBand fabric.
enum class SmaDrop : std::uint8_t {
    kNotFabricPort,    // arrived on (or would leave by) a port not marked as a fabric port
    kBadPort,          // no such port on this node
    kPortDown,         // the link of the port it arrived on or would leave by is not up
    kMalformed,        // does not decode as an SMP (counted by field too)
    kBadHopPointer,    // a hop pointer the directed-route rules (IBA 14.2.2) do not allow here
    kNotASwitch,       // a CA asked to forward a directed-route SMP
    kBadPathPort,      // the path names port 0 or a port the node does not have
    kNoRoute,          // LID-routed onward, but the forwarding table has no port for the LID
    kNotForUs,         // LID-routed to another LID and this node does not forward (a CA)
    kMKey,             // refused by the M_Key check (IBA 14.2.4)
    kUnexpected,       // a response or trap where only requests are handled, a stray TrapRepress
    kNoReturnAddress,  // a LID-routed request whose source LID cannot be answered
    kCount
};

const char *drop_name(SmaDrop reason);

struct SmaCounters {
    std::uint64_t received = 0;  // SMPs handed to handle() from a port
    std::uint64_t from_sm = 0;   // SMPs the SM on this node handed to originate()
    std::uint64_t gets = 0, sets = 0;
    std::uint64_t replies = 0;        // replies this SMA made (any status)
    std::uint64_t forwarded = 0;      // SMPs passed on (directed route, or by LID through the LFT)
    std::uint64_t to_sm = 0;          // handed to the SM on this node
    std::uint64_t unsupported = 0;    // replies with status unsupported method / attribute
    std::uint64_t invalid_field = 0;  // replies with status invalid field (a Set left undone)
    std::uint64_t bad_version = 0;    // replies with status bad version
    std::uint64_t m_key_violations = 0;
    std::uint64_t m_key_lease_expiries = 0;
    std::uint64_t traps_sent = 0, trap_repeats = 0, traps_repressed = 0;
    std::array<std::uint64_t, static_cast<std::size_t>(SmaDrop::kCount)> dropped{};
    std::map<std::string, std::uint64_t> malformed_by_field;  // "SMP.hop_count" -> n

    std::uint64_t dropped_total() const;
    std::uint64_t drops(SmaDrop reason) const { return dropped[static_cast<std::size_t>(reason)]; }
};

}  // namespace weft::sm
