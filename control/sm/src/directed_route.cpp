#include "directed_route.hpp"

namespace weft::sm::detail {

namespace {

DrStep drop(SmaDrop why) {
    DrStep s;
    s.drop = why;
    return s;
}

DrStep out(const DrNode &node, PortNum port) {
    if (port == 0 || port > node.num_ports) return drop(SmaDrop::kBadPathPort);
    DrStep s;
    s.action = DrAction::kOutPort;
    s.port = port;
    return s;
}

DrStep lid(Lid to) {
    DrStep s;
    s.action = DrAction::kOutLid;
    s.lid = to;
    return s;
}

DrStep act(DrAction a) {
    DrStep s;
    s.action = a;
    return s;
}

}  // namespace

DrStep dr_receive(Smp &smp, PortNum in_port, const DrNode &node) {
    const unsigned n = smp.hop_count;
    unsigned h = smp.hop_pointer;
    if (!smp.direction) {
        if (n > 0 && h == 0) return drop(SmaDrop::kBadHopPointer);  // C14-9:1: the sender increments
        if (h >= 1 && h < n) {                                      // C14-9:2: a hop on the way
            if (!node.is_switch) return drop(SmaDrop::kNotASwitch);
            const DrStep s = out(node, smp.initial_path[h + 1]);
            if (s.action != DrAction::kOutPort) return s;
            smp.return_path[h] = in_port;
            smp.hop_pointer = static_cast<std::uint8_t>(h + 1);
            return s;
        }
        if (h == n) {  // C14-9:3: the end of the directed part
            if (n > 0) smp.return_path[n] = in_port;
            smp.hop_pointer = static_cast<std::uint8_t>(n + 1);
            if (smp.dr_dlid == kPermissiveLid) return act(DrAction::kLocal);
            if (!node.is_switch) return drop(SmaDrop::kNotASwitch);
            return lid(smp.dr_dlid);
        }
        if (h == n + 1) {  // C14-9:4: reached by the DrDLID after the directed part
            DrStep s = act(DrAction::kLocal);
            s.lid_tail = true;
            return s;
        }
        return drop(SmaDrop::kBadHopPointer);  // C14-9:5
    }
    if (n > 0 && h == n + 1) {  // C14-13:1: back from the LID-routed tail, into the directed part
        if (!node.is_switch) return drop(SmaDrop::kNotASwitch);
        const DrStep s = out(node, smp.return_path[n]);
        if (s.action == DrAction::kOutPort) smp.hop_pointer = static_cast<std::uint8_t>(n);
        return s;
    }
    if (h >= 2 && h <= n) {  // C14-13:2: a hop on the way back
        if (!node.is_switch) return drop(SmaDrop::kNotASwitch);
        const DrStep s = out(node, smp.return_path[h - 1]);
        if (s.action == DrAction::kOutPort) smp.hop_pointer = static_cast<std::uint8_t>(h - 1);
        return s;
    }
    if (h == 1) {  // C14-13:3: the start of the directed part
        smp.hop_pointer = 0;
        if (smp.dr_slid == kPermissiveLid) return act(DrAction::kToSm);
        if (!node.is_switch) return drop(SmaDrop::kNotASwitch);
        return lid(smp.dr_slid);
    }
    if (h == 0) return act(DrAction::kToSm);  // C14-13:4
    return drop(SmaDrop::kBadHopPointer);     // C14-13:5
}

DrStep dr_send(Smp &smp, const DrNode &node, bool lid_tail) {
    const unsigned n = smp.hop_count;
    const unsigned h = smp.hop_pointer;
    if (!smp.direction) {
        if (n > 0 && h == 0) {  // C14-9:1: the SM's request leaves by the path's first port
            const DrStep s = out(node, smp.initial_path[1]);
            if (s.action == DrAction::kOutPort) smp.hop_pointer = 1;
            return s;
        }
        if (h == n) {  // a hop count of 0: for this very node (or LID-routed on by DrDLID)
            smp.hop_pointer = static_cast<std::uint8_t>(n + 1);
            if (smp.dr_dlid == kPermissiveLid) return act(DrAction::kLocal);
            if (!node.is_switch) return drop(SmaDrop::kNotASwitch);
            return lid(smp.dr_dlid);
        }
        return drop(SmaDrop::kBadHopPointer);
    }
    // The SMA's reply, from where the request ended.
    if (h != n + 1) return drop(SmaDrop::kBadHopPointer);
    if (n > 0) {
        if (lid_tail) return lid(kPermissiveLid);        // the caller sends it to the request's source LID
        const DrStep s = out(node, smp.return_path[n]);  // C14-13:1: back where it came in
        if (s.action == DrAction::kOutPort) smp.hop_pointer = static_cast<std::uint8_t>(n);
        return s;
    }
    smp.hop_pointer = 0;  // C14-13:3 with a hop count of 0
    if (smp.dr_slid == kPermissiveLid) return act(DrAction::kToSm);
    if (!node.is_switch) return drop(SmaDrop::kNotASwitch);
    return lid(smp.dr_slid);
}

}  // namespace weft::sm::detail
