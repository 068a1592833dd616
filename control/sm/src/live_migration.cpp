#include "weft/sm/live_migration.hpp"

#include <cstdio>
#include <set>

#include "lft_rows.hpp"
#include "smp_batch.hpp"
#include "weft/sm/linear_forwarding_table.hpp"
#include "weft/sm/vendor_extended_lids.hpp"

namespace weft::sm {

namespace {

std::string switch_name(const DiscoveryResult &d, routing::NodeIdx n) {
    char guid[24];
    std::snprintf(guid, sizeof guid, "0x%016llx", static_cast<unsigned long long>(d.nodes[n].info.node_guid));
    return "switch " + std::string(guid) + " '" + d.nodes[n].description + "'";
}

}  // namespace

VlidProbe probe_vlids(SmpEngine &engine, const SmClock &clock, const DiscoveryResult &d) {
    VlidProbe p;
    SmpBatch b(engine, clock);
    for (routing::NodeIdx n = 0; n < d.nodes.size(); ++n) {
        const DiscoveredNode &x = d.nodes[n];
        if (!x.is_switch() || x.vanished) continue;
        ++p.switches;
        b.add(Method::kGet, attr::kWeftExtendedLids, 0, x.path, SmpData{},
              [&p, &d, n](const SmpCompletion &c) {
                  const std::string why = failure_text(c);
                  if (!why.empty()) {
                      p.legacy.push_back(switch_name(d, n) + ": " + why);
                      return;
                  }
                  const auto e = decode_extended_lids(c.response);
                  if (!e) {
                      p.legacy.push_back(switch_name(d, n) + ": " + e.error().message());
                      return;
                  }
                  p.min_cap = p.extended++ == 0 ? e->vlid_cap : std::min(p.min_cap, e->vlid_cap);
              });
    }
    b.run();
    return p;
}

std::string migration_summary(const LiveMigrationReport &r, const routing::Fabric &f,
                              const std::string &from) {
    const routing::Migration &m = r.plan.migration;
    const std::string vm = m.vm < f.vms().size() ? f.vms()[m.vm].name : "?";
    const std::string to = m.to < f.node_count() ? f.node(m.to).desc : "?";
    // Entries for LIDs other than the two the move is about: routes of others moved with it (a
    // full re-route may re-balance them).
    std::uint64_t entries = 0, others = 0;
    for (const routing::SwitchUpdate &u : r.plan.updates)
        for (const routing::LftEntry &e : u.entries) {
            ++entries;
            others += e.lid != r.plan.vm_lid && e.lid != r.plan.route_lid;
        }
    char line[384];
    std::snprintf(
        line, sizeof line,
        "%s '%s' -> '%s' (LID %u %s LID %u): %s%s: %zu switches, %zu LFT blocks (planned %llu), %llu "
        "SMPs sent, %zu failures; %llu LFT entries changed, %llu of them for other LIDs",
        vm.c_str(), from.c_str(), to.c_str(), r.plan.vm_lid, r.plan.swap ? "swaps with" : "copies",
        r.plan.route_lid, std::string(routing::method_name(r.plan.method)).c_str(),
        r.plan.rebalanced ? "-rebalance" : "", r.switches, r.lft_blocks_set,
        static_cast<unsigned long long>(r.plan.smps), static_cast<unsigned long long>(r.smps.total().sent),
        r.failures, static_cast<unsigned long long>(entries), static_cast<unsigned long long>(others));
    return line;
}

LiveMigrationReport migrate_live(SmpEngine &engine, const SmClock &clock, DiscoveryResult &d,
                                 routing::RoutingTables &t, const routing::Migration &m,
                                 const LiveMigrationOptions &o, const routing::FatTreeSkyline *sky) {
    LiveMigrationReport r;
    routing::Fabric &f = d.fabric;
    if (std::string why = routing::migration_refusal(f, m); !why.empty()) {
        r.plan.error = why;
        return r;
    }
    routing::RoutingTables rerouted;
    switch (o.method) {
        case routing::ReconfigMethod::FullReroute:
            r.plan = routing::plan_full_reroute(f, t, m, o.chain, o.routing, rerouted);
            break;
        case routing::ReconfigMethod::ItRC:
            r.plan = routing::plan_itrc(f, t, m);
            break;
        case routing::ReconfigMethod::FTreeMinRC:
            if (!sky) {
                r.plan.error = "ftree-minrc needs a fat tree";
                return r;
            }
            r.plan = o.rebalance ? routing::plan_ftree_min_rc_rebalanced(f, t, *sky, m)
                                 : routing::plan_ftree_min_rc(f, t, *sky, m);
            break;
    }
    if (!r.plan.ok()) return r;
    routing::apply_migration(f, t, r.plan, &rerouted);

    const SmpCounters before = engine.counters();
    SmpBatch b(engine, clock);
    for (const routing::SwitchUpdate &u : r.plan.updates) {
        const routing::NodeIdx n = f.switch_node(u.sw);
        const DiscoveredNode &x = d.nodes[n];
        std::set<std::uint32_t> blocks;
        for (const routing::LftEntry &e : u.entries) blocks.insert(e.lid / kLftBlockSize);
        if (blocks.empty()) continue;
        ++r.switches;
        const auto &row = t.lft[u.sw];
        for (const std::uint32_t block : blocks) {
            // The whole block as the tables now hold it (a vLID's block is 1024 or more).
            const LftBlock want = lft_block_of(row, block);
            const std::string what =
                "LinearForwardingTable block " + std::to_string(block) + " of " + switch_name(d, n);
            const auto data = encode_lft_block(want, x.info.num_ports);
            if (!data) {
                ++r.failures;
                r.problems.push_back(what + " does not encode: " + data.error().message());
                continue;
            }
            ++r.lft_blocks_set;
            b.add(Method::kSet, attr::kLinearForwardingTable, block, x.path, *data,
                  [&r, what](const SmpCompletion &c) {
                      if (const std::string why = failure_text(c); !why.empty()) {
                          ++r.failures;
                          r.problems.push_back("Set " + what + ": " + why);
                      }
                  });
        }
    }
    b.run();
    r.smps = counters_since(engine.counters(), before);
    return r;
}

}  // namespace weft::sm
