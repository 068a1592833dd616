#include "weft/sm/light_sweep.hpp"

#include <cstdio>

#include "weft/sm/switch_info.hpp"
#include "weft/sm/vendor_fib_state.hpp"

namespace weft::sm {

LightSweepReport light_sweep(SmpEngine &engine, const SmClock &clock, const DiscoveryResult &last,
                             const SubnetVersions *subnets) {
    LightSweepReport r;
    const SmTime t0 = clock();
    const SmpCounters before = engine.counters();
    std::vector<routing::NodeIdx> asked;
    // Cookies from `asked.size()` on: the WeftFibState reads, with the version each expects.
    std::vector<std::pair<std::size_t, std::uint16_t>> fib_states;
    for (routing::NodeIdx n = 0; n < last.nodes.size(); ++n) {
        const DiscoveredNode &x = last.nodes[n];
        if (!x.is_switch()) continue;
        engine.submit(
            {make_dr_smp(Method::kGet, attr::kSwitchInfo, 0, x.path, 0), kPermissiveLid, asked.size()},
            clock());
        if (subnets)
            if (const auto it = subnets->find(x.info.node_guid); it != subnets->end())
                fib_states.emplace_back(asked.size(), it->second);
        asked.push_back(n);
    }
    r.switches = asked.size();
    for (std::size_t i = 0; i < fib_states.size(); ++i)
        engine.submit({make_dr_smp(Method::kGet, attr::kWeftFibState, 0,
                                   last.nodes[asked[fib_states[i].first]].path, 0),
                       kPermissiveLid, asked.size() + i},
                      clock());
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
        if (c.cookie >= asked.size() && c.cookie < asked.size() + fib_states.size()) {
            const auto [i, version] = fib_states[c.cookie - asked.size()];
            const std::string failed = failure_text(c);
            if (!failed.empty()) {
                ++r.unanswered;
                return note(i, "no WeftFibState (" + failed + ")");
            }
            const auto state = decode_fib_state(c.response);
            if (!state) {
                engine.count_malformed(c.request);
                ++r.unanswered;
                return note(i, "malformed WeftFibState (" + state.error().message() + ")");
            }
            if (state->subnets_version != version) {
                ++r.subnets_changed;
                note(i, "host subnets changed");
            }
            return;
        }
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
