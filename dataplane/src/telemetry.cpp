#include "weft/dataplane/telemetry.hpp"

#include <rte_rcu_qsbr.h>
#include <rte_telemetry.h>

#include <algorithm>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "weft/ars/worker.hpp"

namespace weft::dataplane {

namespace {

Dataplane *g_dp = nullptr;
// Telemetry serves each client on its own thread; the snapshot reader id is one, so readers
// of the snapshot take turns (this is the management path, not the packet path).
std::mutex g_snapshot_mutex;
bool g_reader_registered = false;

// Runs `fn(snapshot)` as an RCU reader so the snapshot cannot be reclaimed meanwhile.
template <typename Fn>
void with_snapshot(Fn fn) {
    std::lock_guard<std::mutex> lock(g_snapshot_mutex);
    rte_rcu_qsbr *qsv = g_dp->publisher().qsbr();
    const unsigned id = g_dp->telemetry_reader_id();
    if (!g_reader_registered) g_reader_registered = rte_rcu_qsbr_thread_register(qsv, id) == 0;
    rte_rcu_qsbr_thread_online(qsv, id);
    const FibSnapshot *s = g_dp->publisher().current();
    if (s != nullptr) fn(*s);
    rte_rcu_qsbr_thread_offline(qsv, id);
}

bool parse_port(const char *params, std::uint16_t &port) {
    if (g_dp->num_ports() == 0) return false;
    const auto v = telemetry_id(params, g_dp->num_ports() - 1u);
    if (!v) return false;
    port = static_cast<std::uint16_t>(*v);
    return true;
}

// ARS counters as a telemetry dict.
void add_ars_counters(rte_tel_data *d, const ars::CounterValues &v) {
    static constexpr const char *kDecisions[] = {"decisions_flowlet_quality", "decisions_flowlet_random",
                                                 "decisions_per_packet_quality",
                                                 "decisions_per_packet_random", "decisions_fixed"};
    rte_tel_data_add_dict_u64(d, "packet_drops", v.packet_drops);
    rte_tel_data_add_dict_u64(d, "next_hop_reassignments", v.next_hop_reassignments);
    rte_tel_data_add_dict_u64(d, "port_reassignments", v.port_reassignments);
    rte_tel_data_add_dict_u64(d, "link_down_reassignments", v.link_down_reassignments);
    rte_tel_data_add_dict_u64(d, "static_hash_decisions", v.static_hash_decisions);
    for (int m = 0; m < ars::kModeCount; ++m)
        rte_tel_data_add_dict_u64(d, kDecisions[m], v.decisions[static_cast<std::size_t>(m)]);
}

// The ids of the groups (or LAGs) the published ARS configuration holds.
template <typename Groups>
std::vector<std::uint32_t> present_ids(Groups groups) {
    std::vector<std::uint32_t> ids;
    with_snapshot([&](const FibSnapshot &s) {
        if (s.ars() == nullptr) return;
        const auto &v = groups(*s.ars());
        for (std::size_t id = 0; id < v.size(); ++id)
            if (v[id].present) ids.push_back(static_cast<std::uint32_t>(id));
    });
    return ids;
}

// /weft/ars_nhg and /weft/ars_lag: one group's counters, or every group's by id.
template <typename Groups, typename Sum>
int ars_counters(const char *params, rte_tel_data *d, Groups groups, Sum sum) {
    const std::vector<std::uint32_t> ids = present_ids(groups);
    const auto workers = g_dp->ars_workers();
    rte_tel_data_start_dict(d);
    if (params != nullptr && *params != '\0') {
        const auto id = telemetry_id(params, 0xFFFFFFFFu);
        if (!id || std::find(ids.begin(), ids.end(), *id) == ids.end()) return -EINVAL;
        add_ars_counters(d, sum(workers, static_cast<std::uint32_t>(*id)));
        return 0;
    }
    unsigned n = 0;
    for (const std::uint32_t id : ids) {
        if (++n > RTE_TEL_MAX_DICT_ENTRIES) break;
        rte_tel_data *c = rte_tel_data_alloc();
        if (c == nullptr) return -ENOMEM;
        rte_tel_data_start_dict(c);
        add_ars_counters(c, sum(workers, id));
        rte_tel_data_add_dict_container(d, std::to_string(id).c_str(), c, 0);
    }
    return 0;
}

int tel_ars_nhg(const char *, const char *params, rte_tel_data *d) {
    return ars_counters(
        params, d, [](const ars::Config &c) -> const auto & { return c.nhgs(); },
        [](std::span<const ars::Worker *const> w, std::uint32_t id) { return ars::sum_nhg_counters(w, id); });
}

int tel_ars_lag(const char *, const char *params, rte_tel_data *d) {
    return ars_counters(
        params, d, [](const ars::Config &c) -> const auto & { return c.lags(); },
        [](std::span<const ars::Worker *const> w, std::uint32_t id) {
            return ars::sum_lag_counters(w, static_cast<ars::LagId>(id));
        });
}

int tel_ars_bands(const char *, const char *, rte_tel_data *d) {
    const ars::PortBoard &board = g_dp->ars_board();
    rte_tel_data *quality = rte_tel_data_alloc();
    rte_tel_data *link = rte_tel_data_alloc();
    rte_tel_data *lags = rte_tel_data_alloc();
    if (quality == nullptr || link == nullptr || lags == nullptr) {
        rte_tel_data_free(quality);
        rte_tel_data_free(link);
        rte_tel_data_free(lags);
        return -ENOMEM;
    }
    // Arrays by port id; LAGs by id.
    rte_tel_data_start_array(quality, RTE_TEL_U64_VAL);
    rte_tel_data_start_array(link, RTE_TEL_U64_VAL);
    for (std::uint16_t p = 0; p < g_dp->num_ports(); ++p) {
        rte_tel_data_add_array_u64(quality, board.port_quality(p));
        rte_tel_data_add_array_u64(link, board.link_up(p) ? 1 : 0);
    }
    rte_tel_data_start_dict(lags);
    unsigned n = 0;
    for (const std::uint32_t id : present_ids([](const ars::Config &c) -> const auto & { return c.lags(); }))
        if (++n <= RTE_TEL_MAX_DICT_ENTRIES)
            rte_tel_data_add_dict_u64(lags, std::to_string(id).c_str(),
                                      board.lag_quality(static_cast<ars::LagId>(id)));
    rte_tel_data_start_dict(d);
    rte_tel_data_add_dict_container(d, "port_quality", quality, 0);
    rte_tel_data_add_dict_container(d, "port_link_up", link, 0);
    rte_tel_data_add_dict_container(d, "lag_quality", lags, 0);
    return 0;
}

int tel_ports(const char *, const char *, rte_tel_data *d) {
    rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
    for (std::uint16_t p = 0; p < g_dp->num_ports(); ++p) rte_tel_data_add_array_int(d, p);
    return 0;
}

int tel_port_stats(const char *, const char *params, rte_tel_data *d) {
    std::uint16_t port = 0;
    if (!parse_port(params, port)) return -EINVAL;
    const PortTotals t = sum_port(g_dp->counters(), port);
    const PortStatus st = g_dp->port_status(port);
    rte_tel_data_start_dict(d);
    char mac[RTE_ETHER_ADDR_FMT_SIZE];
    rte_ether_format_addr(mac, sizeof mac, &st.mac);
    rte_tel_data_add_dict_string(d, "mac", mac);
    rte_tel_data_add_dict_int(d, "started", st.started);
    rte_tel_data_add_dict_int(d, "admin_up", st.admin_up);
    rte_tel_data_add_dict_int(d, "link_up", st.link_up);
    rte_tel_data_add_dict_int(d, "usable", g_dp->links().usable(port));
    rte_tel_data_add_dict_u64(d, "link_changes", st.link_changes);
    rte_tel_data_add_dict_u64(d, "rx_packets", t.rx_pkts);
    rte_tel_data_add_dict_u64(d, "rx_bytes", t.rx_bytes);
    rte_tel_data_add_dict_u64(d, "tx_packets", t.tx_pkts);
    rte_tel_data_add_dict_u64(d, "tx_bytes", t.tx_bytes);
    rte_tel_data_add_dict_u64(d, "tx_dropped", t.tx_dropped);
    rte_tel_data_add_dict_u64(d, "backlog_bytes", t.backlog_bytes);
    const ControlTxTotals ctl = g_dp->control_tx(port);
    rte_tel_data_add_dict_u64(d, "control_tx_sent", ctl.sent);
    rte_tel_data_add_dict_u64(d, "control_tx_failed", ctl.failed);
    return 0;
}

int tel_routes(const char *, const char *, rte_tel_data *d) {
    // Dict keys allow only [A-Za-z0-9_/] and arrays hold only arrays, so routes are two
    // parallel arrays: {"prefix": [...], "nhg": [...]}.
    rte_tel_data_start_dict(d);
    rte_tel_data *prefixes = rte_tel_data_alloc();
    rte_tel_data *nhgs = rte_tel_data_alloc();
    if (prefixes == nullptr || nhgs == nullptr) {
        rte_tel_data_free(prefixes);
        rte_tel_data_free(nhgs);
        return -ENOMEM;
    }
    rte_tel_data_start_array(prefixes, RTE_TEL_STRING_VAL);
    rte_tel_data_start_array(nhgs, RTE_TEL_U64_VAL);
    with_snapshot([&](const FibSnapshot &s) {
        unsigned n = 0;
        for (const auto &r : s.route_sample()) {
            if (++n > RTE_TEL_MAX_ARRAY_ENTRIES) break;  // larger tables are cut
            rte_tel_data_add_array_string(prefixes, r.prefix.to_string().c_str());
            rte_tel_data_add_array_u64(nhgs, r.nhg_id);
        }
    });
    rte_tel_data_add_dict_container(d, "prefix", prefixes, 0);
    rte_tel_data_add_dict_container(d, "nhg", nhgs, 0);
    return 0;
}

// Both LFTs: how many entries each holds, and the entries (LIDs and "port N" / "nhg-index N") as
// two parallel arrays, cut at the array limit; with a LID (decimal), that LID's entry alone.
int tel_lft(const char *, const char *params, rte_tel_data *d) {
    std::optional<std::uint64_t> one;
    if (params != nullptr && *params != '\0') {
        one = telemetry_id(params, kMaxVlid);
        if (!one) return -EINVAL;
    }
    rte_tel_data *lids = rte_tel_data_alloc();
    rte_tel_data *targets = rte_tel_data_alloc();
    if (lids == nullptr || targets == nullptr) {
        rte_tel_data_free(lids);
        rte_tel_data_free(targets);
        return -ENOMEM;
    }
    rte_tel_data_start_dict(d);
    rte_tel_data_start_array(lids, RTE_TEL_U64_VAL);
    rte_tel_data_start_array(targets, RTE_TEL_STRING_VAL);
    std::uint64_t plids = 0, vlids = 0;
    with_snapshot([&](const FibSnapshot &s) {
        unsigned n = 0;
        for (const auto &[lid, t] : s.lft_entries()) {
            ++(lid >= kFirstVlid ? vlids : plids);
            if ((one && lid != *one) || ++n > RTE_TEL_MAX_ARRAY_ENTRIES) continue;
            rte_tel_data_add_array_u64(lids, lid);
            const std::string what =
                (t.kind == LftTarget::Kind::Port ? "port " : "nhg-index ") + std::to_string(t.value);
            rte_tel_data_add_array_string(targets, what.c_str());
        }
    });
    rte_tel_data_add_dict_u64(d, "plid_entries", plids);
    rte_tel_data_add_dict_u64(d, "vlid_entries", vlids);
    rte_tel_data_add_dict_container(d, "lid", lids, 0);
    rte_tel_data_add_dict_container(d, "target", targets, 0);
    return 0;
}

int tel_nhg_stats(const char *, const char *, rte_tel_data *d) {
    rte_tel_data_start_dict(d);
    const auto counters = g_dp->counters();
    with_snapshot([&](const FibSnapshot &s) {
        unsigned n = 0;
        for (std::uint32_t i = 0; i < s.nhg_slots() && n < RTE_TEL_MAX_DICT_ENTRIES; ++i) {
            const NhgEntry *e = s.nhg(i);
            if (e == nullptr) continue;
            ++n;
            const auto [pkts, bytes] = sum_nhg(counters, i);
            rte_tel_data *c = rte_tel_data_alloc();
            if (c == nullptr) return;
            rte_tel_data_start_dict(c);
            rte_tel_data_add_dict_u64(c, "members", e->member_count);
            rte_tel_data_add_dict_string(c, "mode", nhg_mode_name(e->mode));
            rte_tel_data_add_dict_u64(c, "packets", pkts);
            rte_tel_data_add_dict_u64(c, "bytes", bytes);
            rte_tel_data_add_dict_container(d, std::to_string(e->id).c_str(), c, 0);
        }
    });
    return 0;
}

int tel_quality(const char *, const char *, rte_tel_data *d) {
    rte_tel_data_start_dict(d);
    for (std::uint16_t p = 0; p < g_dp->num_ports(); ++p) {
        const PortLoad load = g_dp->port_load(p);
        rte_tel_data *c = rte_tel_data_alloc();
        if (c == nullptr) break;
        rte_tel_data_start_dict(c);
        rte_tel_data_add_dict_u64(c, "tx_bytes", load.tx_bytes);
        rte_tel_data_add_dict_u64(c, "backlog_bytes", load.backlog_bytes);
        rte_tel_data_add_dict_string(c, "backlog_source", load.backlog_from_nic ? "nic" : "weft");
        rte_tel_data_add_dict_int(c, "usable", g_dp->links().usable(p));
        rte_tel_data_add_dict_int(c, "ars_quality", g_dp->ars_board().port_quality(p));  // 7 = best
        rte_tel_data_add_dict_int(c, "ars_link_up", g_dp->ars_board().link_up(p));
        rte_tel_data_add_dict_container(d, std::to_string(p).c_str(), c, 0);
    }
    return 0;
}

int tel_drops(const char *, const char *, rte_tel_data *d) {
    const Totals t = sum_totals(g_dp->counters());
    rte_tel_data_start_dict(d);
    rte_tel_data_add_dict_u64(d, "rx_packets", t.rx_pkts);
    rte_tel_data_add_dict_u64(d, "forwarded", t.fwd_pkts);
    rte_tel_data_add_dict_u64(d, "replicas", t.replicas);
    rte_tel_data_add_dict_u64(d, "punted", t.punted);
    for (std::size_t i = 1; i < kDropReasonCount; ++i)
        rte_tel_data_add_dict_u64(d, drop_reason_name(static_cast<DropReason>(i)), t.drops[i]);
    return 0;
}

}  // namespace

std::optional<std::uint64_t> telemetry_id(const char *params, std::uint64_t max) {
    if (params == nullptr || *params == '\0') return std::nullopt;
    if (params[0] == '0' && params[1] != '\0') return std::nullopt;  // no leading zero (octal?)
    std::uint64_t v = 0;
    for (const char *c = params; *c != '\0'; ++c) {
        if (*c < '0' || *c > '9') return std::nullopt;
        const std::uint64_t digit = static_cast<std::uint64_t>(*c - '0');
        if (digit > max || v > (max - digit) / 10) return std::nullopt;  // v * 10 + digit > max
        v = v * 10 + digit;
    }
    return v;
}

void register_telemetry(Dataplane &dp) {
    g_dp = &dp;
    rte_telemetry_register_cmd("/weft/ports", tel_ports, "Returns the weft port ids.");
    rte_telemetry_register_cmd("/weft/port_stats", tel_port_stats,
                               "Link state and counters of a port. Parameters: int port_id");
    rte_telemetry_register_cmd("/weft/routes", tel_routes, "Published routes: prefix -> nhg id.");
    rte_telemetry_register_cmd("/weft/lft", tel_lft,
                               "LFT entries, pLIDs and vLIDs (secondary LFT): counts, LIDs and targets. "
                               "Parameters: int lid (optional)");
    rte_telemetry_register_cmd("/weft/nhg_stats", tel_nhg_stats, "Packets and bytes per next-hop group.");
    rte_telemetry_register_cmd("/weft/quality", tel_quality,
                               "Per-port TX bytes and TX backlog (quality sampler input).");
    rte_telemetry_register_cmd(
        "/weft/drops", tel_drops,
        "Frames received, forwarded, punted to the control thread and dropped by reason.");
    rte_telemetry_register_cmd("/weft/ars_nhg", tel_ars_nhg,
                               "ARS counters of a next-hop group, or of every ARS group by id. Parameters: "
                               "int nhg_id (optional)");
    rte_telemetry_register_cmd(
        "/weft/ars_lag", tel_ars_lag,
        "ARS counters of a LAG, or of every LAG by id. Parameters: int lag_id (optional)");
    rte_telemetry_register_cmd("/weft/ars_bands", tel_ars_bands,
                               "Quality band (7 = best) and link of every port, quality band of every LAG.");
}

}  // namespace weft::dataplane
