#include "weft/sm/ethernet_programming.hpp"

#include <cstdio>

#include "weft/sm/vendor_fib_state.hpp"
#include "weft/sm/vendor_host_subnets.hpp"

#include "smp_batch.hpp"

namespace weft::sm {

namespace {

using routing::NodeIdx;

using Requests = SmpBatch;

// One weft switch through the step.
struct Switch {
    NodeIdx node = routing::kNoNode;
    std::uint64_t guid = 0;
    FibState state;
    std::vector<HostSubnetsBlock> subnet_blocks;
    std::size_t outstanding = 0;  // block Sets not yet answered
    bool failed = false;
};

struct Context {
    const DiscoveryResult &d;
    const EthernetOptions &options;
    EthernetReport &report;

    std::string where(NodeIdx n) const {
        const DiscoveredNode &x = d.nodes[n];
        char guid[24];
        std::snprintf(guid, sizeof guid, "0x%016llx", static_cast<unsigned long long>(x.info.node_guid));
        return std::string("switch ") + guid + (x.description.empty() ? "" : " '" + x.description + "'") +
               " via path " + path_text(x.path);
    }
    void problem(std::string line) {
        line.insert(0, "ethernet: ");
        ++report.failures;
        if (options.log) options.log(line);
        report.problems.push_back(std::move(line));
    }
    bool ok(const SmpCompletion &c, const std::string &what) {
        const std::string why = failure_text(c);
        if (why.empty()) return true;
        problem(what + ": " + why);
        return false;
    }
    const HeldEthernet *held(std::uint64_t guid) const {
        if (!options.held) return nullptr;
        auto it = options.held->find(guid);
        return it == options.held->end() ? nullptr : &it->second;
    }
};

std::uint16_t subnet_blocks(const FibState &s) {
    return static_cast<std::uint16_t>(HostSubnetsBlock::blocks_for(s.subnets));
}

// The subnets a switch's blocks give, when they all carry the version its state did.
void learn_subnets(Context &cx, Switch &sw) {
    std::vector<HostSubnet> subnets;
    for (const HostSubnetsBlock &b : sw.subnet_blocks) {
        if (b.version != sw.state.subnets_version || b.total != sw.state.subnets) {
            cx.problem("WeftHostSubnets of " + cx.where(sw.node) +
                       " changed while read; read again next sweep");
            sw.state.subnets_version = 0;  // not remembered
            return;
        }
        for (const HostSubnet &s : b.entries)
            if (!s.prefix.empty()) subnets.push_back(s);
    }
    cx.report.subnets += subnets.size();
    if (!subnets.empty()) cx.report.learned[sw.guid] = std::move(subnets);
}

// Step 1: every switch's WeftFibState, and its WeftHostSubnets unless remembered at that version.
std::vector<Switch> probe(SmpEngine &engine, const SmClock &clock, Context &cx) {
    std::vector<Switch> switches;
    for (NodeIdx n = 0; n < cx.d.nodes.size(); ++n)
        if (cx.d.nodes[n].is_switch() && !cx.d.nodes[n].vanished)
            switches.push_back({n, cx.d.nodes[n].info.node_guid, {}, {}, 0, false});
    std::vector<bool> weft(switches.size(), false);
    Requests q(engine, clock);
    for (std::size_t i = 0; i < switches.size(); ++i) {
        const DrPath &path = cx.d.nodes[switches[i].node].path;
        q.add(Method::kGet, attr::kWeftFibState, 0, path, {}, [&, i, path](const SmpCompletion &c) {
            Switch &sw = switches[i];
            if (!failure_text(c).empty() && c.outcome == SmpOutcome::kResponse &&
                (c.response.status & 0x1C) == status::kUnsupportedMethodAttr) {
                ++cx.report.other;  // speaks no weft
                return;
            }
            if (!cx.ok(c, "Get WeftFibState of " + cx.where(sw.node))) return;
            const Result<FibState> s = decode_fib_state(c.response);
            if (!s) {
                ++cx.report.other;
                if (cx.options.log)
                    cx.options.log("ethernet: " + cx.where(sw.node) +
                                   " is no weft switch: " + s.error().message());
                return;
            }
            weft[i] = true;
            sw.state = *s;
            ++cx.report.switches;
            // Discovery read them at this version already.
            const DiscoveredNode &x = cx.d.nodes[sw.node];
            if (x.host_subnets_version == s->subnets_version) {
                cx.report.subnets += x.host_subnets.size();
                if (!x.host_subnets.empty()) cx.report.learned[sw.guid] = x.host_subnets;
                return;
            }
            const HeldEthernet *h = cx.held(sw.guid);
            if (h && h->subnets_version && h->subnets_version == s->subnets_version) {
                cx.report.subnets += h->subnets.size();
                if (!h->subnets.empty()) cx.report.learned[sw.guid] = h->subnets;
                return;
            }
            sw.subnet_blocks.resize(subnet_blocks(*s));
            sw.outstanding = sw.subnet_blocks.size();
            for (std::uint16_t b = 0; b < sw.subnet_blocks.size(); ++b) {
                ++cx.report.subnet_blocks_read;
                q.add(Method::kGet, attr::kWeftHostSubnets, b, path, {}, [&, i, b](const SmpCompletion &r) {
                    Switch &me = switches[i];
                    const std::string what =
                        "Get WeftHostSubnets block " + std::to_string(b) + " of " + cx.where(me.node);
                    if (!cx.ok(r, what)) {
                        me.failed = true;
                    } else if (const auto got = decode_host_subnets_block(r.response); !got) {
                        cx.problem(what + ": malformed reply: " + got.error().message());
                        me.failed = true;
                    } else {
                        me.subnet_blocks[b] = *got;
                    }
                    if (--me.outstanding == 0 && !me.failed) learn_subnets(cx, me);
                    if (me.outstanding == 0 && me.failed) me.state.subnets_version = 0;
                });
            }
        });
    }
    q.run();
    std::vector<Switch> out;
    for (std::size_t i = 0; i < switches.size(); ++i)
        if (weft[i]) out.push_back(std::move(switches[i]));
    return out;
}

struct Write {
    std::uint16_t attr_id;
    std::uint32_t mod;
    SmpData data;
};

// Step 3 for one switch: Begin, the writes, Commit; the memory of it once committed.
void program_switch(Requests &q, Context &cx, Switch &sw, const EthernetTable &want) {
    const EthernetBlocks blocks = split_ethernet_table(want);
    const auto routes = static_cast<std::uint32_t>(want.routes.size());
    const auto groups = static_cast<std::uint16_t>(want.groups.size());
    const auto arn = static_cast<std::uint16_t>(want.arn.size());
    HeldEthernet now{sw.state.active_generation, blocks, routes, groups, arn, sw.state.subnets_version, {}};
    if (auto it = cx.report.learned.find(sw.guid); it != cx.report.learned.end()) now.subnets = it->second;
    const HeldEthernet *h = cx.held(sw.guid);
    const bool known = h && h->generation == sw.state.active_generation;
    const bool empty_now = sw.state.active_generation == 0 && sw.state.routes == 0 && sw.state.groups == 0;
    if ((known && h->blocks == blocks && h->routes == routes && h->groups == groups && h->arn == arn) ||
        (!known && empty_now && want.groups.empty() && want.routes.empty() && want.arn.empty())) {
        ++cx.report.unchanged;
        cx.report.programmed[sw.guid] = std::move(now);
        return;
    }
    std::vector<Write> writes;
    // The blocks of one attribute that differ from what the switch holds (all of them when the
    // SM does not know what it holds).
    auto differing = [&](const auto &want_blocks, const auto &held_blocks, std::uint16_t attr_id,
                         auto encode) {
        for (const auto &[mod, b] : want_blocks) {
            if (known) {
                auto it = held_blocks.find(mod);
                if (it != held_blocks.end() && it->second == b) {
                    ++cx.report.blocks_unchanged;
                    continue;
                }
            }
            writes.push_back({attr_id, mod, encode(b).value()});
        }
    };
    const EthernetBlocks none;
    const EthernetBlocks &held = known ? h->blocks : none;
    differing(blocks.groups, held.groups, attr::kWeftNextHopGroup,
              [](const NextHopGroupBlock &b) { return encode_next_hop_group_block(b); });
    if (known)  // groups it holds that are no more: deleted by an empty block 0
        for (const auto &[mod, b] : h->blocks.groups)
            if (b.block == 0 && b.members && !blocks.groups.count(mod)) {
                NextHopGroupBlock gone;
                gone.group = b.group;
                writes.push_back({attr::kWeftNextHopGroup, mod, encode_next_hop_group_block(gone).value()});
            }
    differing(blocks.routes, held.routes, attr::kWeftRoutes, encode_routes_block);
    differing(blocks.arn, held.arn, attr::kWeftArnGroup, encode_arn_group_block);
    const std::uint32_t generation = sw.state.active_generation + 1 ? sw.state.active_generation + 1 : 1;
    now.generation = generation;
    const DrPath &path = cx.d.nodes[sw.node].path;
    auto commit = [&q, &cx, &sw, path, generation, routes, groups, arn, now]() {
        FibState c;
        c.op = FibOp::kCommit;
        c.generation = generation;
        c.routes = routes;
        c.groups = groups;
        c.arn = arn;
        q.add(Method::kSet, attr::kWeftFibState, 0, path, encode_fib_state(c).value(),
              [&cx, &sw, now](const SmpCompletion &r) {
                  if (!cx.ok(r, "Commit generation " + std::to_string(now.generation) + " of " +
                                    cx.where(sw.node)))
                      return;
                  ++cx.report.commits;
                  cx.report.programmed[sw.guid] = now;
              });
    };
    FibState begin;
    begin.op = FibOp::kBegin;
    begin.generation = generation;
    begin.begin_empty = !known;
    ++cx.report.begins;
    q.add(Method::kSet, attr::kWeftFibState, 0, path, encode_fib_state(begin).value(),
          [&q, &cx, &sw, path, writes, commit](const SmpCompletion &r) {
              if (!cx.ok(r, "Begin of " + cx.where(sw.node))) return;
              if (writes.empty()) return commit();
              sw.outstanding = writes.size();
              for (const Write &w : writes) {
                  ++(w.attr_id == attr::kWeftRoutes     ? cx.report.route_blocks_set
                     : w.attr_id == attr::kWeftArnGroup ? cx.report.arn_blocks_set
                                                        : cx.report.group_blocks_set);
                  const std::string what = "Set " + attribute_name(w.attr_id) + " " + std::to_string(w.mod) +
                                           " of " + cx.where(sw.node);
                  q.add(Method::kSet, w.attr_id, w.mod, path, w.data,
                        [&cx, &sw, what, commit](const SmpCompletion &c) {
                            if (!cx.ok(c, what)) sw.failed = true;
                            if (--sw.outstanding == 0 && !sw.failed)
                                commit();  // else left staged, not committed
                        });
              }
          });
}

}  // namespace

EthernetReport program_ethernet(SmpEngine &engine, const SmClock &clock, const DiscoveryResult &d,
                                const routing::RoutingTables &t, const EthernetOptions &options) {
    EthernetReport report;
    Context cx{d, options, report};
    std::vector<Switch> switches = probe(engine, clock, cx);
    if (switches.empty()) return report;
    const routing::Fabric &f = d.fabric;
    const routing::ArsGroups groups = routing::compile_ars_groups(f, t, options.ars, &report.ars);
    EthernetCompileOptions co = options.compile;
    for (const Switch &sw : switches)
        co.limits[sw.guid] = {d.nodes[sw.node].info.num_ports, sw.state.max_routes, sw.state.max_groups,
                              sw.state.max_primaries, sw.state.max_alternates};
    const std::vector<EthernetTable> tables =
        compile_ethernet_tables(f, groups, report.learned, co, &report.compile);
    for (const std::string &p : report.compile.problems)
        if (options.log) options.log("ethernet: " + p);
    Requests q(engine, clock);
    for (Switch &sw : switches) {
        const EthernetTable &want = tables[f.node(sw.node).sw];
        report.tables[sw.guid] = want;
        if (want.routes.size() > sw.state.max_routes || want.groups.size() > sw.state.max_groups) {
            cx.problem(cx.where(sw.node) + " takes " + std::to_string(sw.state.max_routes) + " routes and " +
                       std::to_string(sw.state.max_groups) + " groups, the fabric needs " +
                       std::to_string(want.routes.size()) + " and " + std::to_string(want.groups.size()) +
                       "; its table is not programmed");
            continue;
        }
        program_switch(q, cx, sw, want);
    }
    q.run();
    return report;
}

}  // namespace weft::sm
