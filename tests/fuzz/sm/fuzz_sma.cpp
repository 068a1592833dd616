// libFuzzer target: the SMA (weft::sm::Sma) taking SMPs from the fabric, which is every decoder
// an SMA runs on outside input: the SMP header, the directed-route rules, and the data of every
// attribute a Set carries (PortInfo, SwitchInfo, LFT, MFT, SL2VL), with M_Key checks on. The
// input is a sequence of steps, each a control byte and a 256-byte MAD (a shorter last step is
// handed over as it is): the control byte picks the port it arrives on (0: from the SM on the
// node), its LRH destination and the node (a switch, or a CA). Whatever comes in, every SMP the
// SMA sends decodes, and its state stays one that encodes (a Set never leaves a value its own
// Get could not answer with).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "weft/sm/sma.hpp"

namespace {

using namespace weft::sm;

Sma make(bool ca) {
    SmaConfig c;
    c.node_type = ca ? NodeType::kCa : NodeType::kSwitch;
    c.node_guid = 0x77;
    c.num_ports = ca ? 2 : 18;
    c.description = "fuzz";
    c.linear_fdb_cap = 256;
    c.multicast_fdb_cap = 64;
    Sma s(c);
    for (PortNum p = 1; p <= c.num_ports; ++p) {
        s.set_fabric_port(p, p != 2);
        if (p != 4) s.set_link(p, true, SmaTime{0});
    }
    return s;
}

void check(const Sma &s, const SmaOutput &o) {
    switch (o.action) {
        case SmaAction::kSend:
            if (o.port == 0 || o.port > s.config().num_ports || !s.link_up(o.port)) std::abort();
            [[fallthrough]];
        case SmaAction::kToSm:
            if (!decode_smp(o.bytes)) std::abort();
            break;
        case SmaAction::kDrop:
            if (o.drop == SmaDrop::kCount) std::abort();
            break;
        case SmaAction::kConsumed:
            break;
    }
}

void check_state(const Sma &s) {
    for (unsigned p = 0; p <= s.config().num_ports; ++p) {
        if (!s.is_switch() && p == 0) continue;
        const PortKind kind = s.is_switch() && p != 0 ? PortKind::kSwitchExternal : PortKind::kEndPort;
        if (!encode_port_info(s.port_info(static_cast<PortNum>(p)), kind)) std::abort();
    }
    if (s.is_switch() && !encode_switch_info(s.switch_info())) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size) {
    if (size == 0 || size > 16 * (kSmpSize + 1)) return 0;
    Sma sma = make(bytes[0] & 0x40);
    SmaTime now{0};
    std::uint64_t received = 0;
    for (std::size_t at = 0; at < size; at += kSmpSize + 1) {
        const std::uint8_t control = bytes[at];
        const std::span<const std::uint8_t> mad(bytes + at + 1, std::min(kSmpSize, size - at - 1));
        const PortNum port = static_cast<PortNum>(control & 0x1F);
        SmaLrh lrh;
        switch ((control >> 5) & 3) {
            case 1:
                lrh = {1, sma.lid()};
                break;
            case 2:
                lrh = {1, 9};
                break;
            case 3:
                lrh = {static_cast<Lid>(control), static_cast<Lid>(0xC000 | control)};
                break;
            default:
                break;
        }
        now += std::chrono::seconds(control & 7);
        SmaOutput o;
        if (port == 0) {
            o = sma.originate(sma.is_switch() ? 0 : 1, mad, now, lrh.dlid);
        } else {
            o = sma.handle(port, mad, now, lrh);
            ++received;
        }
        check(sma, o);
        if (std::optional<SmaOutput> t = sma.poll(now)) check(sma, *t);
        check_state(sma);
    }
    const SmaCounters &c = sma.counters();
    if (c.received != received) std::abort();
    return 0;
}
