#include "weft/sm/light_sweep.hpp"

#include <cstdio>

#include "weft/sm/switch_info.hpp"

namespace weft::sm {

LightSweepReport light_sweep(SmpEngine &engine, const SmClock &clock, const DiscoveryResult &last) {
    LightSweepReport r;
    const SmTime t0 = clock();
    const SmpCounters before = engine.counters();
    std::vector<routing::NodeIdx> asked;
    for (routing::NodeIdx n = 0; n < last.nodes.size(); ++n) {
        const DiscoveredNode &x = last.nodes[n];
        if (!x.is_switch()) continue;
        engine.submit(
            {make_dr_smp(Method::kGet, attr::kSwitchInfo, 0, x.path, 0), kPermissiveLid, asked.size()},
            clock());
        asked.push_back(n);
    }
    r.switches = asked.size();
    auto note = [&](std::size_t i, const std::string &what) {
        r.changed = true;
        if (!r.why.empty()) return;
        const DiscoveredNode &x = last.nodes[asked[i]];
        char guid[24];
        std::snprintf(guid, sizeof guid, "0x%016llx", static_cast<unsigned long long>(x.info.node_guid));
        r.why = what + " on switch " + guid + (x.description.empty() ? "" : " '" + x.description + "'") +
                " via path " + path_text(x.path);
    };
    run_until_idle(engine, clock, [&](SmpCompletion &c) {
        if (c.cookie >= asked.size()) return;
        const std::string failed = failure_text(c);
        if (!failed.empty()) {
            ++r.unanswered;
            return note(c.cookie, "no SwitchInfo (" + failed + ")");
        }
        const auto info = decode_switch_info(c.response);
        if (!info) {
            engine.count_malformed(c.request);
            ++r.unanswered;
            return note(c.cookie, "malformed SwitchInfo (" + info.error().message() + ")");
        }
        if (info->port_state_change) {
            ++r.flagged;
            note(c.cookie, "PortStateChange");
        }
    });
    r.seconds = std::chrono::duration<double>(clock() - t0).count();
    r.smps = counters_since(engine.counters(), before);
    return r;
}

}  // namespace weft::sm
