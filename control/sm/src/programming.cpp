#include "weft/sm/programming.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "weft/routing/vswitch.hpp"
#include "weft/sm/linear_forwarding_table.hpp"
#include "weft/sm/multicast_forwarding_table.hpp"
#include "weft/sm/sl_to_vl_table.hpp"

#include "lft_rows.hpp"
#include "smp_batch.hpp"

namespace weft::sm {

namespace {

using routing::NodeIdx;

using Batch = SmpBatch;

struct Context {
    const DiscoveryResult &d;
    const routing::RoutingTables &t;
    const ProgramOptions &options;
    ProgramReport &report;
    Lid sm_lid;
    std::set<std::uint64_t> lft_failed;  // switches a block Set did not reach

    std::string where(NodeIdx n, PortNum port, bool with_port) const {
        const DiscoveredNode &x = d.nodes[n];
        char guid[24];
        std::snprintf(guid, sizeof guid, "0x%016llx", static_cast<unsigned long long>(x.info.node_guid));
        std::string s = with_port ? "port " + std::to_string(port) + " of " : std::string();
        s += std::string(x.is_switch() ? "switch " : "CA ") + guid;
        if (!x.description.empty()) s += " '" + x.description + "'";
        if (const DrPath *r = x.route_to_port(port)) s += " via path " + path_text(*r);
        return s;
    }
    // Whether a Set (or Get) came back as asked; logs and counts when not.
    bool ok(const SmpCompletion &c, const std::string &what) {
        const std::string why = failure_text(c);
        if (why.empty()) return true;
        ++report.failures;
        std::string line = "programming: " + what + ": " + why;
        if (options.log) options.log(line);
        report.problems.push_back(std::move(line));
        return false;
    }
    // What an earlier sweep programmed into switch x, when the switch still holds it (its
    // LinearFDBTop reads as programmed).
    const HeldTables *held(const DiscoveredNode &x) const {
        if (!options.held || !x.switch_info || x.switch_info->linear_fdb_top == 0) return nullptr;
        auto it = options.held->find(x.info.node_guid);
        return it != options.held->end() && it->second.top == x.switch_info->linear_fdb_top ? &it->second
                                                                                            : nullptr;
    }
    void problem(std::string line) {
        line.insert(0, "programming: ");
        ++report.failures;
        if (options.log) options.log(line);
        report.problems.push_back(std::move(line));
    }
};

Smp request(Method m, std::uint16_t attr_id, std::uint32_t mod, const DrPath &path,
            const SmpData &data = {}) {
    Smp s = make_dr_smp(m, attr_id, mod, path, 0);
    s.data = data;
    return s;
}

// PortInfo as read, turned into a Set that changes nothing but what the caller then fills in.
PortInfo unchanged(PortInfo p) {
    p.port_state = PortState::kNoChange;
    p.phys_state = PhysState::kNoChange;
    p.link_down_default_state = 0;
    p.operational_vls = 0;
    p.client_reregister = false;
    return p;
}

std::uint8_t operational_vls_code(unsigned vls, std::uint8_t vl_cap) {
    std::uint8_t code = 1;
    while (code < 5 && (1u << (code - 1)) < vls) ++code;
    return vl_cap ? std::min(code, vl_cap) : code;
}

void end_ports(Batch &b, Context &cx, Lid sm_lid) {
    const routing::Fabric &f = cx.d.fabric;
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const DiscoveredNode &x = cx.d.nodes[n];
        for (PortNum port = 0; port <= x.info.num_ports; ++port) {
            if (x.is_switch() != (port == 0)) continue;
            const routing::Port &fp = f.port(n, port);
            const DrPath *route = x.route_to_port(port);
            if (fp.lid == 0 || !route || !x.ports[port]) continue;
            const PortInfo &now = *x.ports[port];
            if (now.lid == fp.lid && now.lmc == fp.lmc && now.master_sm_lid == sm_lid) continue;
            PortInfo want = unchanged(now);
            want.lid = static_cast<Lid>(fp.lid);
            want.lmc = fp.lmc;
            want.master_sm_lid = sm_lid;
            const auto data = encode_port_info(want, PortKind::kEndPort);
            if (!data) {
                cx.problem("PortInfo of " + cx.where(n, port, true) +
                           " does not encode: " + data.error().message());
                continue;
            }
            ++cx.report.port_info_sets;
            const std::string what =
                "Set PortInfo (LID " + std::to_string(fp.lid) + ") of " + cx.where(n, port, true);
            b.add(request(Method::kSet, attr::kPortInfo, port, *route, *data),
                  [&cx, what](const SmpCompletion &c) { cx.ok(c, what); });
        }
    }
}

void switch_infos(Batch &b, Context &cx, Lid top) {
    const routing::Fabric &f = cx.d.fabric;
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const DiscoveredNode &x = cx.d.nodes[n];
        if (!x.is_switch() || !x.switch_info) continue;
        if (x.switch_info->linear_fdb_top == top && !x.switch_info->port_state_change) continue;
        SwitchInfo want = *x.switch_info;
        want.linear_fdb_top = top;
        // PortStateChange read as set is cleared (by writing 1): this sweep has seen the change,
        // and a light sweep then looks for the next one.
        want.port_state_change = x.switch_info->port_state_change;
        const auto data = encode_switch_info(want);
        if (!data) {
            cx.problem("SwitchInfo of " + cx.where(n, 0, false) +
                       " does not encode: " + data.error().message());
            continue;
        }
        ++cx.report.switch_info_sets;
        const std::string what =
            "Set SwitchInfo (LinearFDBTop " + std::to_string(top) + ") of " + cx.where(n, 0, false);
        const std::uint64_t guid = x.info.node_guid;
        b.add(request(Method::kSet, attr::kSwitchInfo, 0, x.path, *data),
              [&cx, what, guid](const SmpCompletion &c) {
                  if (!cx.ok(c, what)) cx.lft_failed.insert(guid);  // its top is not what the memory says
              });
    }
}

void lfts(Batch &b, Context &cx) {
    const routing::Fabric &f = cx.d.fabric;
    // vLIDs (seed 002) are in the secondary LFT: the primary one ends at the last pLID.
    const routing::Lid max = routing::max_plid(f);
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const DiscoveredNode &x = cx.d.nodes[n];
        if (!x.is_switch() || !x.switch_info) continue;
        if (max >= x.switch_info->linear_fdb_cap) {
            cx.problem(cx.where(n, 0, false) + " holds " + std::to_string(x.switch_info->linear_fdb_cap) +
                       " LIDs, the fabric needs " + std::to_string(max + 1) +
                       "; its table is not programmed");
            continue;
        }
        const auto &row = cx.t.lft[f.node(n).sw];
        const Lid old_top = x.switch_info->linear_fdb_top;
        const HeldTables *held = cx.held(x);
        HeldTables now{static_cast<Lid>(max), {}, {}, {}, {}};
        for (std::uint32_t block = 0; block <= max / kLftBlockSize; ++block) {
            LftBlock want;
            want.block = static_cast<std::uint16_t>(block);
            for (unsigned i = 0; i < kLftBlockSize; ++i) {
                const routing::Lid lid = block * kLftBlockSize + i;
                want.ports[i] = lid <= max && lid < row.size() ? row[lid] : kNoPort;
            }
            now.entries.insert(now.entries.end(), want.ports.begin(), want.ports.end());
            const std::string what =
                "LinearForwardingTable block " + std::to_string(block) + " of " + cx.where(n, 0, false);
            const std::uint64_t guid = x.info.node_guid;
            auto write = [&b, &cx, &x, want, what, guid]() {
                const auto data = encode_lft_block(want, x.info.num_ports);
                if (!data) {
                    cx.problem(what + " does not encode: " + data.error().message());
                    return;
                }
                ++cx.report.lft_blocks_set;
                b.add(request(Method::kSet, attr::kLinearForwardingTable, want.block, x.path, *data),
                      [&cx, what, guid](const SmpCompletion &c) {
                          if (!cx.ok(c, "Set " + what)) cx.lft_failed.insert(guid);
                      });
            };
            if (old_top == 0 || block * kLftBlockSize > old_top) {
                write();  // nothing valid there to keep
                continue;
            }
            if (held && (block + 1) * kLftBlockSize <= held->entries.size()) {
                ++cx.report.lft_blocks_remembered;
                if (std::equal(want.ports.begin(), want.ports.end(),
                               held->entries.begin() + block * kLftBlockSize)) {
                    ++cx.report.lft_blocks_unchanged;
                } else {
                    write();
                }
                continue;
            }
            ++cx.report.lft_blocks_read;
            b.add(request(Method::kGet, attr::kLinearForwardingTable, block, x.path),
                  [&cx, &x, want, what, write](const SmpCompletion &c) {
                      if (cx.ok(c, "Get " + what)) {
                          const auto got = decode_lft_block(c.response, x.info.num_ports);
                          if (got && *got == want) {
                              ++cx.report.lft_blocks_unchanged;
                              return;
                          }
                          if (!got) cx.problem("Get " + what + ": malformed reply: " + got.error().message());
                      }
                      write();
                  });
        }
        HeldTables &memory = cx.report.programmed[x.info.node_guid] = std::move(now);
        // The vLIDs' blocks (1024 and up): only a switch that said it holds them gets vLIDs
        // (VENDOR_ATTRIBUTES.md), and it checks every block against its capacity. A block this
        // SM set and the switch kept (its LinearFDBTop is the one set) is not sent again.
        for (std::uint32_t block = kFirstVlidLftBlock; block <= f.max_lid() / kLftBlockSize; ++block) {
            const LftBlock want = lft_block_of(row, block);
            if (held) {
                const auto it = held->vlid.find(block);
                if (it != held->vlid.end() && it->second == want.ports) {
                    ++cx.report.lft_blocks_unchanged;
                    memory.vlid.emplace(block, want.ports);
                    continue;
                }
            }
            const std::string what =
                "LinearForwardingTable vLID block " + std::to_string(block) + " of " + cx.where(n, 0, false);
            const auto data = encode_lft_block(want, x.info.num_ports);
            if (!data) {
                cx.problem(what + " does not encode: " + data.error().message());
                continue;
            }
            ++cx.report.lft_blocks_set;
            ++cx.report.lft_vlid_blocks_set;
            memory.vlid.emplace(block, want.ports);
            const std::uint64_t guid = x.info.node_guid;
            HeldTables *mem = &memory;
            b.add(request(Method::kSet, attr::kLinearForwardingTable, block, x.path, *data),
                  [&cx, what, guid, mem, block](const SmpCompletion &c) {
                      if (!cx.ok(c, "Set " + what)) {
                          cx.lft_failed.insert(guid);
                          mem->vlid.erase(block);  // set again next time
                      }
                  });
        }
    }
}

void sl2vl(Batch &b, Context &cx) {
    const routing::Fabric &f = cx.d.fabric;
    // Engines that hand out SLs without SL2VL tables mean SL n on VL n (as verified: capped at
    // the VLs used); the switches' own defaults may differ, so those are programmed too.
    if (!cx.t.has_sl2vl() && cx.t.vls_used <= 1) return;
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const DiscoveredNode &x = cx.d.nodes[n];
        if (!x.is_switch()) continue;
        const unsigned radix = x.info.num_ports;
        const auto sw = f.node(n).sw;
        const HeldTables *held = cx.held(x);
        auto mine = cx.report.programmed.find(x.info.node_guid);  // absent: its LFT was not programmed
        auto linked = [&](unsigned port) {
            return f.port(n, static_cast<PortNum>(port)).peer != routing::kNoNode;
        };
        // A port that was not ACTIVE when read has come (back) up: its tables are set again.
        auto settled = [&](unsigned port) {
            return port == 0 || (x.ports[port] && (x.ports[port]->port_state == PortState::kActive ||
                                                   x.ports[port]->port_state == PortState::kActiveDefer));
        };
        for (unsigned in = 0; in <= radix; ++in) {
            if (in != 0 && !linked(in)) continue;
            for (unsigned out = 1; out <= radix; ++out) {
                if (out == in || !linked(out)) continue;
                SlToVlTable table;
                if (!cx.t.has_sl2vl()) {
                    for (unsigned sl = 0; sl < 16; ++sl)
                        table.vl[sl] = static_cast<std::uint8_t>(std::min(sl, cx.t.vls_used - 1));
                } else if (cx.t.sl2vl_all) {
                    table.vl = *cx.t.sl2vl_all;
                } else {
                    const std::size_t i = std::size_t{in} * (radix + 1) + out;
                    if (sw >= cx.t.sl2vl.size() || i >= cx.t.sl2vl[sw].size()) continue;
                    table.vl = cx.t.sl2vl[sw][i];
                }
                const auto mod = sl_to_vl_attr_mod(static_cast<PortNum>(in), static_cast<PortNum>(out));
                if (held && settled(in) && settled(out)) {
                    auto it = held->sl2vl.find(mod);
                    if (it != held->sl2vl.end() && it->second == table) {
                        ++cx.report.sl2vl_unchanged;
                        if (mine != cx.report.programmed.end()) mine->second.sl2vl.emplace(mod, table);
                        continue;
                    }
                }
                const auto data = encode_sl_to_vl_table(table);
                if (!data) continue;
                ++cx.report.sl2vl_sets;
                const std::string what = "Set SLtoVLMappingTable in " + std::to_string(in) + " out " +
                                         std::to_string(out) + " of " + cx.where(n, 0, false);
                HeldTables *memory = mine != cx.report.programmed.end() ? &mine->second : nullptr;
                if (memory) memory->sl2vl.emplace(mod, table);
                b.add(request(Method::kSet, attr::kSlToVlTable, mod, x.path, *data),
                      [&cx, what, memory, mod](const SmpCompletion &c) {
                          if (!cx.ok(c, what) && memory) memory->sl2vl.erase(mod);  // set again next time
                      });
            }
        }
    }
}

void mfts(Batch &b, Context &cx) {
    if (!cx.options.mcast || cx.options.mcast->empty()) return;
    const routing::Fabric &f = cx.d.fabric;
    std::set<std::uint32_t> blocks;  // of the MLIDs in use
    for (const routing::McastTree &tree : *cx.options.mcast)
        blocks.insert((tree.mlid - kFirstMulticastLid) / kMftBlockSize);
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const DiscoveredNode &x = cx.d.nodes[n];
        if (!x.is_switch() || !x.switch_info) continue;
        const auto sw = f.node(n).sw;
        const HeldTables *held = cx.held(x);
        auto mine = cx.report.programmed.find(x.info.node_guid);
        HeldTables *memory = mine != cx.report.programmed.end() ? &mine->second : nullptr;
        using Masks = std::array<std::uint16_t, kMftBlockSize>;
        std::map<std::uint32_t, Masks> want;
        for (std::uint32_t block : blocks)
            for (unsigned position = 0; position <= x.info.num_ports / 16u; ++position)
                want[(position << 28) | block] = {};
        for (const routing::McastTree &tree : *cx.options.mcast) {
            if (sw >= tree.ports.size()) continue;
            const unsigned block = (tree.mlid - kFirstMulticastLid) / kMftBlockSize;
            const unsigned i = (tree.mlid - kFirstMulticastLid) % kMftBlockSize;
            for (PortNum port : tree.ports[sw])
                want[(std::uint32_t{port / 16u} << 28) | block][i] |=
                    static_cast<std::uint16_t>(1u << (port % 16));
        }
        if (held)
            for (const auto &[mod, masks] : held->mft) want.try_emplace(mod);  // a group gone: emptied
        const Lid top_mlid =
            static_cast<Lid>(kFirstMulticastLid + (*blocks.rbegin() + 1) * kMftBlockSize - 1);
        if (x.switch_info->multicast_fdb_cap == 0 ||
            top_mlid - kFirstMulticastLid >= x.switch_info->multicast_fdb_cap) {
            cx.problem(cx.where(n, 0, false) + " holds " + std::to_string(x.switch_info->multicast_fdb_cap) +
                       " MLIDs, the groups need " + std::to_string(top_mlid - kFirstMulticastLid + 1) +
                       "; its multicast table is not programmed");
            continue;
        }
        for (const auto &[mod, masks] : want) {
            if (held) {
                auto it = held->mft.find(mod);
                if (it != held->mft.end() && it->second == masks) {
                    ++cx.report.mft_blocks_unchanged;
                    if (memory) memory->mft.emplace(mod, masks);
                    continue;
                }
            }
            MftBlock block;
            block.block = static_cast<std::uint16_t>(mod & 0x1FF);
            block.position = static_cast<std::uint8_t>(mod >> 28);
            block.port_masks = masks;
            const auto data = encode_mft_block(block, x.info.num_ports);
            if (!data) {
                cx.problem("MulticastForwardingTable block of " + cx.where(n, 0, false) +
                           " does not encode: " + data.error().message());
                continue;
            }
            ++cx.report.mft_blocks_set;
            if (memory) memory->mft.emplace(mod, masks);
            const std::string what = "Set MulticastForwardingTable block " + std::to_string(block.block) +
                                     " position " + std::to_string(block.position) + " of " +
                                     cx.where(n, 0, false);
            const std::uint32_t attr_mod =
                mod;  // a structured binding: not capturable before C++20's clang 16
            b.add(request(Method::kSet, attr::kMulticastForwardingTable, attr_mod, x.path, *data),
                  [&cx, what, memory, attr_mod](const SmpCompletion &c) {
                      if (!cx.ok(c, what) && memory) memory->mft.erase(attr_mod);  // set again next time
                  });
        }
    }
}

// Every end of every link one step up: INIT -> ARMED (with the OperationalVLs the routing needs),
// or ARMED -> ACTIVE. `state` holds what each (node, port) is in and is updated from the replies.
void step_states(Batch &b, Context &cx, std::map<std::pair<NodeIdx, PortNum>, PortState> &state,
                 PortState from, PortState to) {
    const routing::Fabric &f = cx.d.fabric;
    for (auto &[end, now] : state) {
        if (now != from) continue;
        const auto [n, port] = end;
        const DiscoveredNode &x = cx.d.nodes[n];
        const DrPath *route = x.route_to_port(port);
        if (!route) continue;
        PortInfo want = unchanged(*x.ports[port]);
        want.port_state = to;
        // OperationalVLs goes with the ACTIVE Set as well: 0 means "no change" to IBA, but some
        // SMAs (ibsim's among them) store it as sent, and OpenSM repeats the value too.
        if (cx.t.vls_used > 1) want.operational_vls = operational_vls_code(cx.t.vls_used, want.vl_cap);
        const PortKind kind = x.is_switch() ? PortKind::kSwitchExternal : PortKind::kEndPort;
        if (kind == PortKind::kEndPort) {  // what step 1 programmed, not what was read
            want.lid = static_cast<Lid>(f.port(n, port).lid);
            want.lmc = f.port(n, port).lmc;
            want.master_sm_lid = cx.sm_lid;
        }
        const auto data = encode_port_info(want, kind);
        if (!data) {
            cx.problem("PortInfo of " + cx.where(n, port, true) +
                       " does not encode: " + data.error().message());
            continue;
        }
        ++(to == PortState::kArmed ? cx.report.armed : cx.report.activated);
        const std::string what = std::string("Set PortInfo (") +
                                 (to == PortState::kArmed ? "ARMED" : "ACTIVE") + ") of " +
                                 cx.where(n, port, true);
        PortState *slot = &now;
        b.add(request(Method::kSet, attr::kPortInfo, port, *route, *data), [&cx, what, slot, to,
                                                                            kind](const SmpCompletion &c) {
            if (!cx.ok(c, what)) return;
            const auto got = decode_port_info(c.response, kind);
            if (got)
                *slot = got->port_state == PortState::kActiveDefer ? PortState::kActive : got->port_state;
            if (got && *slot != to) {
                cx.problem(what + ": the port went to state " +
                           std::to_string(static_cast<unsigned>(got->port_state)));
            }
        });
    }
}

}  // namespace

ProgramReport program_fabric(SmpEngine &engine, const SmClock &clock, const DiscoveryResult &d,
                             const routing::RoutingTables &t, Lid sm_lid, const ProgramOptions &options) {
    ProgramReport report;
    Context cx{d, t, options, report, sm_lid, {}};
    const routing::Fabric &f = d.fabric;
    {
        Batch b(engine, clock);
        end_ports(b, cx, sm_lid);
        b.run();
    }
    {
        Batch b(engine, clock);
        switch_infos(b, cx, static_cast<Lid>(routing::max_plid(f)));
        lfts(b, cx);
        sl2vl(b, cx);
        mfts(b, cx);
        b.run();
    }
    for (std::uint64_t guid : cx.lft_failed) report.programmed.erase(guid);
    if (!options.activate) return report;
    std::map<std::pair<NodeIdx, PortNum>, PortState> state;
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        for (PortNum port = 1; port <= f.node(n).num_ports; ++port) {
            if (f.port(n, port).peer == routing::kNoNode || !d.nodes[n].ports[port]) continue;
            const PortState s = d.nodes[n].ports[port]->port_state;
            state[{n, port}] = s == PortState::kActiveDefer ? PortState::kActive : s;
        }
    for (const auto &[from, to] :
         {std::pair{PortState::kInit, PortState::kArmed}, std::pair{PortState::kArmed, PortState::kActive}}) {
        Batch b(engine, clock);
        step_states(b, cx, state, from, to);
        b.run();
    }
    report.port_states = std::move(state);
    return report;
}

}  // namespace weft::sm
