// smp_probe: directed-route SMPs through the SM core's engine and the umad transport, printed
// as key=value lines for smp_probe_test.py to check against the fabric's net file and
// infiniband-diags' smpquery.
//
//   smp_probe [--ca NAME] [--port N] [--capture DIR] [--max-wire N] [--await-trap SECONDS]
//
// Get(NodeInfo) and Get(NodeDescription) of hop 0 (the SM's own node) and of hop 1 (through the
// SM's port); if hop 1 is a switch, Get(SwitchInfo) and Get(PortInfo) of each of its ports, all
// queued at once so the window of --max-wire SMPs fills. --capture writes every reply as a
// 256-byte file (seeds for the fuzz targets). --await-trap claims the port as the SM (IsSM),
// makes it the leaf switch's SM with a route back, prints "ready" and waits for a trap (the
// test then unlinks a port in ibsim's console). Exit 0 when every request was answered and
// decoded, 1 otherwise, 2 on usage errors or when the fabric cannot be reached.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "weft/sm/linear_forwarding_table.hpp"
#include "weft/sm/multicast_forwarding_table.hpp"
#include "weft/sm/node_description.hpp"
#include "weft/sm/node_info.hpp"
#include "weft/sm/notice.hpp"
#include "weft/sm/port_info.hpp"
#include "weft/sm/sl_to_vl_table.hpp"
#include "weft/sm/smp_engine.hpp"
#include "weft/sm/switch_info.hpp"
#include "weft/sm/umad_transport.hpp"

namespace {

using namespace weft::sm;

struct Probe {
    SmpEngine &engine;
    std::string capture_dir;
    int failures = 0;
    int captured = 0;

    SmTime now() const { return std::chrono::steady_clock::now().time_since_epoch(); }

    // Sends every request, waits for all of them, returns the replies in order (failed ones
    // reported and left empty).
    std::vector<std::optional<Smp>> run(const std::vector<Smp> &requests) {
        std::vector<std::optional<Smp>> replies(requests.size());
        for (std::size_t i = 0; i < requests.size(); ++i)
            engine.submit(SmpRequest{requests[i], kPermissiveLid, i}, now());
        const std::function<SmTime()> clock = [this] { return now(); };
        while (engine.pump(clock, std::chrono::milliseconds(50))) {
        }
        while (auto c = engine.next_completion()) {
            if (c->outcome == SmpOutcome::kResponse && c->response.status == 0) {
                replies[c->cookie] = c->response;
                save(c->response);
                continue;
            }
            ++failures;
            std::printf("error request=%llu attr=%s mod=%u outcome=%d status=0x%x attempts=%u %s%s\n",
                        static_cast<unsigned long long>(c->cookie),
                        attribute_name(c->request.attr_id).c_str(), c->request.attr_mod,
                        static_cast<int>(c->outcome), c->response.status, c->attempts,
                        c->error ? c->error->message().c_str() : "", c->transport_error.c_str());
        }
        return replies;
    }

    void save(const Smp &smp) {
        if (capture_dir.empty()) return;
        const auto bytes = encode_smp(smp);
        if (!bytes) return;
        const std::string path =
            capture_dir + "/" + attribute_name(smp.attr_id) + "_" + std::to_string(captured++) + ".smp";
        std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char *>(bytes->data()), kSmpSize);
    }

    template <class T>
    std::optional<T> decoded(const Result<T> &r, const char *what) {
        if (r) return r.value();
        ++failures;
        std::printf("error decode=%s %s\n", what, r.error().message().c_str());
        return std::nullopt;
    }
};

std::string path_text(const std::vector<std::uint8_t> &path) {
    std::string s = "0";
    for (auto p : path) s += "," + std::to_string(p);
    return s;
}

void print_node(const std::vector<std::uint8_t> &path, const NodeInfo &n, const std::string &desc) {
    std::printf(
        "node hops=%zu path=%s type=%u ports=%u guid=0x%016llx port_guid=0x%016llx system_guid=0x%016llx "
        "local_port=%u partition_cap=%u device_id=0x%04x revision=0x%08x vendor_id=0x%06x desc=%s\n",
        path.size(), path_text(path).c_str(), static_cast<unsigned>(n.node_type), n.num_ports,
        static_cast<unsigned long long>(n.node_guid), static_cast<unsigned long long>(n.port_guid),
        static_cast<unsigned long long>(n.system_image_guid), n.local_port_num, n.partition_cap, n.device_id,
        n.revision, n.vendor_id, desc.c_str());
}

void print_switch(const SwitchInfo &s) {
    std::printf(
        "switch linear_fdb_cap=%u random_fdb_cap=%u multicast_fdb_cap=%u linear_fdb_top=%u default_port=%u "
        "life_time=%u port_state_change=%d lids_per_port=%u partition_enforcement_cap=%u enhanced_port0=%d "
        "multicast_fdb_top=0x%x\n",
        s.linear_fdb_cap, s.random_fdb_cap, s.multicast_fdb_cap, s.linear_fdb_top, s.default_port,
        s.life_time_value, s.port_state_change, s.lids_per_port, s.partition_enforcement_cap,
        s.enhanced_port0, s.multicast_fdb_top);
}

void print_port(unsigned port, const PortInfo &p) {
    std::printf(
        "port port=%u lid=%u sm_lid=%u lmc=%u state=%u phys=%u local_port=%u width_enabled=%u "
        "width_supported=%u "
        "width_active=%u speed_supported=%u speed_enabled=%u speed_active=%u neighbor_mtu=%u mtu_cap=%u "
        "vl_cap=%u oper_vls=%u capability_mask=0x%x link_down_default=%u vl_stall=%u vl_arb_high=%u "
        "vl_arb_low=%u\n",
        port, p.lid, p.master_sm_lid, p.lmc, static_cast<unsigned>(p.port_state),
        static_cast<unsigned>(p.phys_state), p.local_port_num, p.link_width_enabled, p.link_width_supported,
        p.link_width_active, p.link_speed_supported, p.link_speed_enabled, p.link_speed_active,
        p.neighbor_mtu, p.mtu_cap, p.vl_cap, p.operational_vls, p.capability_mask, p.link_down_default_state,
        p.vl_stall_count, p.vl_arbitration_high_cap, p.vl_arbitration_low_cap);
}

void print_tables(const char *where, const LftBlock &lft, const MftBlock &mft, const SlToVlTable &sl2vl,
                  std::uint32_t sl2vl_mod) {
    std::printf(
        "tables node=%s lft_block=%u lft_routes=%zu mft_block=%u mft_position=%u mft_ports=%zu sl2vl_in=%u "
        "sl2vl_out=%u sl2vl=",
        where, lft.block,
        static_cast<std::size_t>(
            std::count_if(lft.ports.begin(), lft.ports.end(), [](PortNum p) { return p != kNoPort; })),
        mft.block, mft.position,
        static_cast<std::size_t>(std::count_if(mft.port_masks.begin(), mft.port_masks.end(),
                                               [](std::uint16_t m) { return m != 0; })),
        sl2vl_mod >> 8, sl2vl_mod & 0xFF);
    for (unsigned sl = 0; sl < 16; ++sl) std::printf(sl ? ",%u" : "%u", sl2vl.vl[sl]);
    std::printf("\n");
}

// Makes the SM's port the switch's SM (port 0's MasterSMLID), routes the SM's LID back through
// the switch (LFT entry, LinearFDBTop) and brings the link between them up to ACTIVE, as an SM
// does before it can receive traps; then
// prints "ready" and waits for the trap a port change sends, answers it with TrapRepress.
void await_trap(Probe &probe, UmadTransport &transport, const std::vector<std::uint8_t> &path,
                const NodeInfo &sw, Lid sm_lid, PortNum sm_port, int seconds) {
    if (!is_unicast_lid(sm_lid)) {
        std::printf("error trap: the SM's port has no LID\n");
        ++probe.failures;
        return;
    }
    const std::uint32_t block = sm_lid / kLftBlockSize;
    const auto got = probe.run({make_dr_smp(Method::kGet, attr::kPortInfo, 0, path, 0),
                                make_dr_smp(Method::kGet, attr::kSwitchInfo, 0, path, 0),
                                make_dr_smp(Method::kGet, attr::kLinearForwardingTable, block, path, 0)});
    if (!got[0] || !got[1] || !got[2]) return;
    auto port0 = probe.decoded(decode_port_info(*got[0]), "PortInfo");
    auto info = probe.decoded(decode_switch_info(*got[1]), "SwitchInfo");
    auto lft = probe.decoded(decode_lft_block(*got[2], sw.num_ports), "LinearForwardingTable");
    if (!port0 || !info || !lft) return;
    port0->master_sm_lid = sm_lid;
    port0->port_state = PortState::kNoChange;
    port0->phys_state = PhysState::kNoChange;
    info->linear_fdb_top = std::max(info->linear_fdb_top, sm_lid);
    info->port_state_change = false;
    lft->ports[sm_lid % kLftBlockSize] = sw.local_port_num;
    std::vector<Smp> sets(3);
    sets[0] = make_dr_smp(Method::kSet, attr::kPortInfo, 0, path, 0);
    sets[0].data = encode_port_info(*port0).value();
    sets[1] = make_dr_smp(Method::kSet, attr::kSwitchInfo, 0, path, 0);
    sets[1].data = encode_switch_info(*info).value();
    sets[2] = make_dr_smp(Method::kSet, attr::kLinearForwardingTable, block, path, 0);
    sets[2].data = encode_lft_block(*lft).value();
    const auto set = probe.run(sets);
    if (!set[0] || !set[1] || !set[2]) return;
    // The link between the SM's port and the switch: ARMED, then ACTIVE (traps travel only over
    // active links).
    const std::vector<std::uint8_t> here;
    const auto ports = probe.run({make_dr_smp(Method::kGet, attr::kPortInfo, sm_port, here, 0),
                                  make_dr_smp(Method::kGet, attr::kPortInfo, sw.local_port_num, path, 0)});
    if (!ports[0] || !ports[1]) return;
    auto ca_port = probe.decoded(decode_port_info(*ports[0]), "PortInfo");
    auto sw_port = probe.decoded(decode_port_info(*ports[1], PortKind::kSwitchExternal), "PortInfo");
    if (!ca_port || !sw_port) return;
    for (const PortState state : {PortState::kArmed, PortState::kActive}) {
        ca_port->port_state = sw_port->port_state = state;
        ca_port->phys_state = sw_port->phys_state = PhysState::kNoChange;
        std::vector<Smp> arm{make_dr_smp(Method::kSet, attr::kPortInfo, sm_port, here, 0),
                             make_dr_smp(Method::kSet, attr::kPortInfo, sw.local_port_num, path, 0)};
        arm[0].data = encode_port_info(*ca_port).value();
        arm[1].data = encode_port_info(*sw_port, PortKind::kSwitchExternal).value();
        const auto done = probe.run(arm);
        if (!done[0] || !done[1]) return;
    }
    std::printf("ready switch_lid=%u sm_lid=%u\n", port0->lid, sm_lid);
    std::fflush(stdout);

    const SmTime deadline = probe.now() + std::chrono::seconds(seconds);
    while (probe.now() < deadline) {
        probe.engine.pump([&] { return probe.now(); }, std::chrono::milliseconds(100));
        auto u = probe.engine.next_unsolicited();
        if (!u) continue;
        probe.save(u->smp);
        const auto notice = probe.decoded(decode_notice(u->smp), "Notice");
        if (!notice) return;
        const auto change = decode_port_state_change(*notice);
        std::printf("trap method=%s number=%u issuer_lid=%u slid=%u lid=%u producer=%u\n",
                    method_name(u->smp.method).c_str(), notice->trap_number, notice->issuer_lid, u->slid,
                    change ? change->lid : 0, notice->producer_type);
        SmpRequest repress{make_trap_repress(u->smp), u->slid, 0};
        if (!probe.engine.post(repress, probe.now())) {
            std::printf("error trap: TrapRepress not sent: %s\n", transport.error().c_str());
            ++probe.failures;
        }
        return;
    }
    std::printf("error trap: none within %d s\n", seconds);
    ++probe.failures;
}

int usage() {
    std::fprintf(
        stderr,
        "usage: smp_probe [--ca NAME] [--port N] [--capture DIR] [--max-wire N] [--await-trap SECONDS]\n");
    return 2;
}

}  // namespace

int main(int argc, char **argv) {
    std::string ca, capture;
    int port = 0;
    int await_trap_seconds = 0;
    SmpEngineConfig config;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) return usage();
        if (a == "--ca") {
            ca = argv[++i];
        } else if (a == "--port") {
            port = std::atoi(argv[++i]);
        } else if (a == "--capture") {
            capture = argv[++i];
        } else if (a == "--await-trap") {
            await_trap_seconds = std::atoi(argv[++i]);
        } else if (a == "--max-wire") {
            config.max_wire_smps = static_cast<std::size_t>(std::atoi(argv[++i]));
        } else {
            return usage();
        }
    }
    std::optional<UmadTransport> transport;
    try {
        transport.emplace(ca, port, 0, /*claim_sm=*/await_trap_seconds > 0);
    } catch (const UmadError &e) {
        std::fprintf(stderr, "smp_probe: cannot reach the fabric: %s\n", e.what());
        return 2;
    }
    const UmadPortInfo &local = transport->port();
    std::printf("local ca=%s port=%d lid=%u state=%u port_guid=0x%016llx\n", local.ca_name.c_str(),
                local.port_num, local.lid, local.state, static_cast<unsigned long long>(local.port_guid));

    SmpEngine engine(*transport, config);
    Probe probe{engine, capture};
    const auto get = [](std::uint16_t attr_id, std::uint32_t mod, const std::vector<std::uint8_t> &path) {
        return make_dr_smp(Method::kGet, attr_id, mod, path, 0);
    };

    std::optional<std::pair<std::vector<std::uint8_t>, NodeInfo>> leaf;
    for (const std::vector<std::uint8_t> &path :
         {std::vector<std::uint8_t>{},
          std::vector<std::uint8_t>{static_cast<std::uint8_t>(local.port_num)}}) {
        const auto r = probe.run({get(attr::kNodeInfo, 0, path), get(attr::kNodeDescription, 0, path)});
        if (!r[0] || !r[1]) continue;
        const auto node = probe.decoded(decode_node_info(*r[0]), "NodeInfo");
        const auto desc = probe.decoded(decode_node_description(*r[1]), "NodeDescription");
        if (!node || !desc) continue;
        print_node(path, *node, desc->text);
        if (path.empty() || !node->is_switch()) continue;
        leaf.emplace(path, *node);

        std::vector<Smp> requests{get(attr::kSwitchInfo, 0, path)};
        for (unsigned p = 0; p <= node->num_ports; ++p) requests.push_back(get(attr::kPortInfo, p, path));
        const auto replies = probe.run(requests);
        if (replies[0])
            if (auto s = probe.decoded(decode_switch_info(*replies[0]), "SwitchInfo")) print_switch(*s);
        for (unsigned p = 0; p <= node->num_ports; ++p) {
            if (!replies[p + 1]) continue;
            const PortKind kind = p == 0 ? PortKind::kEndPort : PortKind::kSwitchExternal;
            if (auto info = probe.decoded(decode_port_info(*replies[p + 1], kind), "PortInfo"))
                print_port(p, *info);
        }
        // The switch's tables: the first LFT and MFT blocks, and the SL2VL table from its port 2 out
        // of the port the probe came in by.
        const std::uint32_t sl2vl_mod = sl_to_vl_attr_mod(2, node->local_port_num);
        const auto tables = probe.run({get(attr::kLinearForwardingTable, 0, path),
                                       get(attr::kMulticastForwardingTable, 0, path),
                                       get(attr::kSlToVlTable, sl2vl_mod, path)});
        if (tables[0] && tables[1] && tables[2]) {
            const auto lft =
                probe.decoded(decode_lft_block(*tables[0], node->num_ports), "LinearForwardingTable");
            const auto mft =
                probe.decoded(decode_mft_block(*tables[1], node->num_ports), "MulticastForwardingTable");
            const auto sl2vl = probe.decoded(decode_sl_to_vl_table(*tables[2]), "SLtoVLMappingTable");
            if (lft && mft && sl2vl) print_tables("switch", *lft, *mft, *sl2vl, sl2vl_mod);
        }
    }
    if (await_trap_seconds > 0) {
        if (!leaf) {
            std::printf("error trap: no switch at hop 1\n");
            ++probe.failures;
        } else {
            await_trap(probe, *transport, leaf->first, leaf->second, local.lid,
                       static_cast<PortNum>(local.port_num), await_trap_seconds);
        }
    }
    const SmpCounters &c = engine.counters();
    for (const auto &[kind, k] : c.per_kind)
        std::printf("counters kind=%s sent=%llu received=%llu retried=%llu timed_out=%llu malformed=%llu\n",
                    (method_name(kind.method) + "/" + attribute_name(kind.attr_id)).c_str(),
                    static_cast<unsigned long long>(k.sent), static_cast<unsigned long long>(k.received),
                    static_cast<unsigned long long>(k.retried), static_cast<unsigned long long>(k.timed_out),
                    static_cast<unsigned long long>(k.malformed));
    std::printf("window max_wire=%zu max_outstanding=%zu unmatched=%llu unsolicited=%llu\n",
                config.max_wire_smps, c.max_outstanding, static_cast<unsigned long long>(c.unmatched),
                static_cast<unsigned long long>(c.unsolicited));
    return probe.failures == 0 ? 0 : 1;
}
