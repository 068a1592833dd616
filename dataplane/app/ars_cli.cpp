#include "ars_cli.hpp"

#include <cstdio>
#include <optional>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "weft/ars/capabilities.hpp"
#include "weft/ars/port_config.hpp"
#include "weft/ars/worker.hpp"
#include "weft/dataplane/counters.hpp"

namespace weft::app {

namespace dp = weft::dataplane;

ars::BuildResult ArsState::build(ars::Ticks ticks_per_us) const {
    ars::ConfigBuilder b(profile, ticks_per_us);
    for (const auto &[id, p] : ports) b.add_port(p);
    for (const auto &[id, o] : objects) {
        ars::ArsObjectConfig copy = o;
        copy.monitoring = copy.monitoring || monitor;
        b.add_ars_object(copy);
    }
    for (const auto &[id, l] : lags) b.add_lag(l);
    for (const auto &[id, n] : nhgs) b.add_nhg(n);
    b.set_acl(acl);
    return b.build();
}

namespace {

using Words = std::vector<std::string>;

std::optional<std::uint64_t> number(const std::string &s, std::uint64_t max) {
    if (s.empty() || s[0] == '-') return std::nullopt;
    try {
        std::size_t used = 0;
        const unsigned long long v = std::stoull(s, &used, 0);
        if (used != s.size() || v > max) return std::nullopt;
        return v;
    } catch (const std::exception &) {
        return std::nullopt;
    }
}

std::optional<bool> on_off(const std::string &s) {
    if (s == "on" || s == "enable") return true;
    if (s == "off" || s == "disable") return false;
    return std::nullopt;
}

std::optional<ars::Mode> mode_of(const std::string &s) {
    if (s == "flowlet-quality") return ars::Mode::kFlowletQuality;
    if (s == "flowlet-random") return ars::Mode::kFlowletRandom;
    if (s == "per-packet-quality") return ars::Mode::kPerPacketQuality;
    if (s == "per-packet-random") return ars::Mode::kPerPacketRandom;
    if (s == "fixed") return ars::Mode::kFixed;
    return std::nullopt;
}

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep)) out.push_back(cur);
    return out;
}

// Validates `next` as a whole; on success it becomes the accepted state and is published with
// the FIB (`publish` false: the caller changes the FIB too and commits itself).
bool accept(CommandContext &ctx, struct cmdline *cl, const ArsState &next, bool publish = true) {
    ars::BuildResult r = next.build(ctx.ticks_per_us);
    if (!r.ok()) {
        ++ctx.errors;
        for (const auto &e : r.errors) cmdline_printf(cl, "error: %s\n", e.message.c_str());
        cmdline_printf(cl, "nothing changed\n");
        return false;
    }
    ctx.ars = next;
    ctx.ars_config = r.config;
    ctx.fib->set_ars(r.config);
    if (ctx.sampler != nullptr) ctx.sampler->set_config(r.config);
    return publish ? commit(ctx, cl) : true;
}

// The dataplane members of an ARS group, in ARS member order; a LAG member adds its ports.
std::vector<dp::NhgMemberSpec> dataplane_members(const ArsState &state, const ars::NhgConfig &n) {
    std::vector<dp::NhgMemberSpec> out;
    for (const ars::NhgMember &m : n.members) {
        if (m.target.kind == ars::EgressTarget::Kind::kPort) {
            out.push_back({m.target.id, {}});
        } else if (const auto it = state.lags.find(m.target.id); it != state.lags.end()) {
            for (std::uint16_t p : it->second.ports) out.push_back({p, {}});
        }
    }
    return out;
}

bool bad(struct cmdline *cl, const std::string &why) {
    refuse(cl, why);
    return false;
}

std::optional<std::uint16_t> port_arg(CommandContext &ctx, const std::string &s) {
    const auto v = number(s, 0xFFFF);
    if (!v || *v >= ctx.dp->num_ports()) return std::nullopt;
    return static_cast<std::uint16_t>(*v);
}

// ---- set ars profile <attr> <value> ----
bool set_profile(CommandContext &ctx, struct cmdline *cl, const Words &w) {
    // w: set ars profile attr value...
    if (w.size() < 5) return bad(cl, "set ars profile needs an attribute and a value");
    ArsState next = ctx.ars;
    ars::Profile &p = next.profile;
    const std::string &attr = w[3];
    auto u32 = [&](const std::string &s) { return number(s, 0xFFFFFFFFu); };
    if (attr == "band") {
        if (w.size() != 7) return bad(cl, "set ars profile band <0..7> <min-mbps> <max-mbps>");
        const auto i = number(w[4], 7);
        const auto lo = u32(w[5]), hi = u32(w[6]);
        if (!i || !lo || !hi) return bad(cl, "bad band: index 0..7, thresholds in Mbps");
        p.bands[*i] = ars::LoadBand{static_cast<std::uint32_t>(*lo), static_cast<std::uint32_t>(*hi)};
        return accept(ctx, cl, next);
    }
    if (w.size() != 5) return bad(cl, "set ars profile " + attr + " takes one value");
    const std::string &v = w[4];
    if (attr == "past-load" || attr == "future-load" || attr == "current-load") {
        const auto b = on_off(v);
        if (!b) return bad(cl, attr + " is on or off");
        (attr == "past-load"     ? p.past_load_enabled
         : attr == "future-load" ? p.future_load_enabled
                                 : p.current_load_enabled) = *b;
        return accept(ctx, cl, next);
    }
    const auto n = u32(v);
    if (!n) return bad(cl, "bad value " + v);
    if (attr == "sampling-interval") {
        p.sampling_interval_us = static_cast<std::uint32_t>(*n);
    } else if (attr == "seed") {
        p.random_seed = static_cast<std::uint32_t>(*n);
    } else if (attr == "past-weight" || attr == "future-weight" || attr == "ewma-exponent") {
        if (*n > 255) return bad(cl, attr + " " + v + " does not fit 0..255");
        (attr == "past-weight"     ? p.past_load_weight
         : attr == "future-weight" ? p.future_load_weight
                                   : p.ewma_exponent) = static_cast<std::uint8_t>(*n);
    } else {
        return bad(cl, "unknown profile attribute " + attr);
    }
    return accept(ctx, cl, next);
}

// ---- set ars port N enable|disable|speed G|scale T|weights PAST FUTURE ----
bool set_port(CommandContext &ctx, struct cmdline *cl, const Words &w) {
    if (w.size() < 5)
        return bad(cl, "set ars port <p> enable|disable|speed <G>|scale <tenths>|weights <past> <future>");
    const auto port = port_arg(ctx, w[3]);
    if (!port) return bad(cl, "no port " + w[3]);
    ArsState next = ctx.ars;
    ars::PortConfig &pc = next.ports[*port];
    pc.id = *port;
    const std::string &what = w[4];
    if ((what == "enable" || what == "disable") && w.size() == 5) {
        pc.ars_enabled = what == "enable";
    } else if (what == "speed" && w.size() == 6) {
        const auto g = number(w[5], 0xFFFFFFFFu);
        const auto t = g ? ars::scale_tenths_for_speed_gbps(static_cast<std::uint32_t>(*g)) : std::nullopt;
        if (!t) return bad(cl, "speed " + w[5] + " has no scaling factor (10 25 40 50 100 200 400 800)");
        pc.scale_tenths = *t;
    } else if (what == "scale" && w.size() == 6) {
        const auto t = number(w[5], 0xFFFFFFFFu);
        if (!t) return bad(cl, "bad scale " + w[5]);
        pc.scale_tenths = static_cast<std::uint32_t>(*t);
    } else if (what == "weights" && w.size() == 7) {
        const auto a = number(w[5], 255), b = number(w[6], 255);
        if (!a || !b) return bad(cl, "weights are percentages");
        pc.past_weight_percent = static_cast<std::uint8_t>(*a);
        pc.future_weight_percent = static_cast<std::uint8_t>(*b);
    } else {
        return bad(cl, "set ars port <p> enable|disable|speed <G>|scale <tenths>|weights <past> <future>");
    }
    return accept(ctx, cl, next);
}

// ---- ars object add ID mode M idle-time US max-flows N [monitor on|off] | ars object del ID ----
bool object_cmd(CommandContext &ctx, struct cmdline *cl, const Words &w) {
    if (w.size() == 4 && w[2] == "del") {
        const auto id = number(w[3], 0xFFFF);
        if (!id || ctx.ars.objects.count(static_cast<std::uint16_t>(*id)) == 0)
            return bad(cl, "no ARS object " + w[3]);
        ArsState next = ctx.ars;
        next.objects.erase(static_cast<std::uint16_t>(*id));
        return accept(ctx, cl, next);
    }
    if (w.size() < 4 || w[2] != "add" || (w.size() - 4) % 2 != 0)
        return bad(cl, "ars object add <id> mode <m> idle-time <us> max-flows <n> [monitor on|off]");
    const auto id = number(w[3], 0xFFFE);
    if (!id) return bad(cl, "bad ARS object id " + w[3]);
    ars::ArsObjectConfig o;
    o.id = static_cast<std::uint16_t>(*id);
    for (std::size_t i = 4; i + 1 < w.size(); i += 2) {
        const std::string &k = w[i], &v = w[i + 1];
        if (k == "mode") {
            const auto m = mode_of(v);
            if (!m)
                return bad(
                    cl, "mode is flowlet-quality|flowlet-random|per-packet-quality|per-packet-random|fixed");
            o.mode = *m;
        } else if (k == "idle-time" || k == "max-flows") {
            const auto n = number(v, 0xFFFFFFFFu);
            if (!n) return bad(cl, "bad " + k + " " + v);
            (k == "idle-time" ? o.idle_time_us : o.max_flows) = static_cast<std::uint32_t>(*n);
        } else if (k == "monitor") {
            const auto b = on_off(v);
            if (!b) return bad(cl, "monitor is on or off");
            o.monitoring = *b;
        } else {
            return bad(cl, "unknown ARS object attribute " + k);
        }
    }
    ArsState next = ctx.ars;
    next.objects[o.id] = o;
    return accept(ctx, cl, next);
}

// ---- lag add ID ports P[,P..] [ars OBJ] | lag del ID ----
bool lag_cmd(CommandContext &ctx, struct cmdline *cl, const Words &w) {
    if (w.size() == 3 && w[1] == "del") {
        const auto id = number(w[2], 0xFFFF);
        if (!id || ctx.ars.lags.count(static_cast<std::uint16_t>(*id)) == 0) return bad(cl, "no LAG " + w[2]);
        ArsState next = ctx.ars;
        next.lags.erase(static_cast<std::uint16_t>(*id));
        return accept(ctx, cl, next);
    }
    if (!(w.size() == 5 || w.size() == 7) || w[1] != "add" || w[3] != "ports" ||
        (w.size() == 7 && w[5] != "ars"))
        return bad(cl, "lag add <id> ports <p>[,<p>...] [ars <object>]");
    const auto id = number(w[2], 0xFFFF);
    if (!id) return bad(cl, "bad LAG id " + w[2]);
    ars::LagConfig lag;
    lag.id = static_cast<std::uint16_t>(*id);
    for (const std::string &s : split(w[4], ',')) {
        const auto p = port_arg(ctx, s);
        if (!p) return bad(cl, "no port " + s);
        lag.ports.push_back(*p);
    }
    if (w.size() == 7) {
        const auto o = number(w[6], 0xFFFE);
        if (!o) return bad(cl, "bad ARS object " + w[6]);
        lag.ars_object = static_cast<std::uint16_t>(*o);
    }
    ArsState next = ctx.ars;
    next.lags[lag.id] = lag;
    if (!next.build(ctx.ticks_per_us).ok()) return accept(ctx, cl, next);  // prints why, changes nothing
    // ARS groups with this LAG as a member get its new ports as dataplane members.
    for (const auto &[nhg_id, n] : next.nhgs) {
        bool uses = false;
        for (const ars::NhgMember &m : n.members)
            uses |= m.target.kind == ars::EgressTarget::Kind::kLag && m.target.id == lag.id;
        if (!uses) continue;
        const dp::Status s = ctx.fib->set_nhg(nhg_id, dataplane_members(next, n), dp::NhgMode::Ars);
        if (!s.ok()) return bad(cl, s.message());
    }
    return accept(ctx, cl, next);
}

// ---- nhg add ID ars OBJ|none primary M[,M..] [alternate M[,M..]] [cost C] [bias B] [threshold T] ----
// A member M is a port number or lag<L>.
bool nhg_ars(CommandContext &ctx, struct cmdline *cl, const Words &w) {
    const char *usage =
        "nhg add <id> ars <object>|none primary <m>[,<m>...] [alternate <m>[,<m>...]] [cost <c>] [bias <b>] "
        "[threshold <t>]   (m: <port> or lag<id>)";
    if (w.size() < 7 || (w.size() - 5) % 2 != 0) return bad(cl, usage);
    const auto id = number(w[2], 0xFFFFFFFFu);
    if (!id) return bad(cl, usage);
    ars::NhgConfig n;
    n.id = static_cast<std::uint32_t>(*id);
    if (w[4] != "none") {
        const auto o = number(w[4], 0xFFFE);
        if (!o) return bad(cl, "bad ARS object " + w[4]);
        n.ars_object = static_cast<std::uint16_t>(*o);
    }
    ArsState next = ctx.ars;
    bool have_primary = false;
    std::vector<ars::NhgMember> primaries, alternates;
    for (std::size_t i = 5; i + 1 < w.size(); i += 2) {
        const std::string &k = w[i], &v = w[i + 1];
        if (k == "primary" || k == "alternate") {
            have_primary |= k == "primary";
            for (const std::string &m : split(v, ',')) {
                ars::NhgMember member;
                member.role = k == "primary" ? ars::MemberRole::kPrimary : ars::MemberRole::kAlternate;
                if (m.rfind("lag", 0) == 0) {
                    const auto l = number(m.substr(3), 0xFFFF);
                    const auto it = l ? next.lags.find(static_cast<std::uint16_t>(*l)) : next.lags.end();
                    if (it == next.lags.end()) return bad(cl, "no LAG " + m);
                    member.target = ars::EgressTarget::lag(it->first);
                } else {
                    const auto p = port_arg(ctx, m);
                    if (!p) return bad(cl, "no port " + m);
                    member.target = ars::EgressTarget::port(*p);
                }
                (k == "primary" ? primaries : alternates).push_back(member);
            }
        } else if (k == "cost" || k == "bias" || k == "threshold") {
            const auto c = number(v, 0xFFFFFFFFu);
            if (!c) return bad(cl, "bad " + k + " " + v);
            (k == "cost"   ? n.path_selection.alternate_cost
             : k == "bias" ? n.path_selection.alternate_bias
                           : n.path_selection.primary_quality_threshold) = static_cast<std::uint32_t>(*c);
        } else {
            return bad(cl, usage);
        }
    }
    if (!have_primary) return bad(cl, usage);
    // ARS member order (primaries, then alternates) is also the dataplane member order, so the
    // index ARS returns names the dataplane member; LAG members add each of their ports.
    for (auto *set : {&primaries, &alternates})
        for (ars::NhgMember &m : *set) {
            m.member_id = static_cast<std::uint32_t>(n.members.size());
            n.members.push_back(m);
        }
    std::vector<dp::NhgMemberSpec> dp_members = dataplane_members(next, n);
    next.nhgs[n.id] = n;
    const ArsState before = ctx.ars;
    const auto before_config = ctx.ars_config;
    if (!accept(ctx, cl, next, false)) return false;
    const dp::Status s = ctx.fib->set_nhg(n.id, std::move(dp_members), dp::NhgMode::Ars);
    if (!s.ok()) {
        ctx.ars = before;
        ctx.ars_config = before_config;
        ctx.fib->set_ars(before_config);
        if (ctx.sampler != nullptr) ctx.sampler->set_config(before_config);
        return bad(cl, s.message());
    }
    return commit(ctx, cl);
}

// ---- acl add PRIO [match...] action A [A...] | acl clear ----
bool acl_cmd(CommandContext &ctx, struct cmdline *cl, const Words &w) {
    const char *usage =
        "acl add <priority> [ethertype <x>] [ip-version 4|6] [proto <n>] [sport <a>[-<b>]] [dport <a>[-<b>]] "
        "[dscp <d>[,<d>...]] action disable-ars|set-ars <object>|monitor on|off ... | acl clear";
    if (w.size() == 2 && w[1] == "clear") {
        ArsState next = ctx.ars;
        next.acl.clear();
        return accept(ctx, cl, next);
    }
    if (w.size() < 5 || w[1] != "add") return bad(cl, usage);
    const auto prio = number(w[2], 0xFFFFFFFFu);
    if (!prio) return bad(cl, usage);
    ars::AclRule rule;
    rule.priority = static_cast<std::uint32_t>(*prio);
    auto range = [](const std::string &s) -> std::optional<ars::PortRange> {
        const auto parts = split(s, '-');
        if (parts.size() == 1) {
            const auto a = number(parts[0], 0xFFFF);
            if (!a) return std::nullopt;
            return ars::PortRange{static_cast<std::uint16_t>(*a), static_cast<std::uint16_t>(*a)};
        }
        if (parts.size() != 2) return std::nullopt;
        const auto a = number(parts[0], 0xFFFF), b = number(parts[1], 0xFFFF);
        if (!a || !b || *a > *b) return std::nullopt;
        return ars::PortRange{static_cast<std::uint16_t>(*a), static_cast<std::uint16_t>(*b)};
    };
    std::size_t i = 3;
    for (; i + 1 < w.size() && w[i] != "action"; i += 2) {
        const std::string &k = w[i], &v = w[i + 1];
        if (k == "ethertype") {
            const auto x = number(v, 0xFFFF);
            if (!x) return bad(cl, "bad ethertype " + v);
            rule.match.ether_type = static_cast<std::uint16_t>(*x);
        } else if (k == "ip-version") {
            if (v != "4" && v != "6") return bad(cl, "ip-version is 4 or 6");
            rule.match.ip_version = static_cast<std::uint8_t>(v == "4" ? 4 : 6);
        } else if (k == "proto") {
            const auto x = number(v, 255);
            if (!x) return bad(cl, "bad protocol " + v);
            rule.match.ip_protocol = static_cast<std::uint8_t>(*x);
        } else if (k == "sport" || k == "dport") {
            const auto r = range(v);
            if (!r) return bad(cl, "bad port range " + v);
            (k == "sport" ? rule.match.l4_src_ports : rule.match.l4_dst_ports) = *r;
        } else if (k == "dscp") {
            std::uint64_t set = 0;
            for (const std::string &d : split(v, ',')) {
                const auto x = number(d, 63);
                if (!x) return bad(cl, "DSCP values are 0..63");
                set |= std::uint64_t{1} << *x;
            }
            rule.match.dscp_set = set;
        } else {
            return bad(cl, usage);
        }
    }
    if (i >= w.size() || w[i] != "action" || i + 1 >= w.size()) return bad(cl, usage);
    for (++i; i < w.size();) {
        if (w[i] == "disable-ars") {
            rule.action.disable_ars = true;
            ++i;
        } else if (w[i] == "set-ars" && i + 1 < w.size()) {
            const auto o = number(w[i + 1], 0xFFFE);
            if (!o) return bad(cl, "bad ARS object " + w[i + 1]);
            rule.action.set_ars = static_cast<std::uint16_t>(*o);
            i += 2;
        } else if (w[i] == "monitor" && i + 1 < w.size() && on_off(w[i + 1])) {
            rule.action.set_monitoring = *on_off(w[i + 1]);
            i += 2;
        } else {
            return bad(cl, usage);
        }
    }
    ArsState next = ctx.ars;
    next.acl.push_back(rule);
    return accept(ctx, cl, next);
}

// ---- show ars nhg N [json] | show ars quality [json] ----
const char *role_name(const ars::SelectionGroup &g, std::size_t i) {
    return i < g.primary_count ? "primary" : "alternate";
}

bool show_nhg(CommandContext &ctx, struct cmdline *cl, const Words &w, bool json) {
    const auto id = number(w[3], 0xFFFFFFFFu);
    const ars::Config *c = ctx.ars_config.get();
    const ars::SelectionGroup *g = id && c != nullptr ? c->nhg(static_cast<std::uint32_t>(*id)) : nullptr;
    if (g == nullptr) return bad(cl, "no ARS nhg " + w[3]);
    const auto nhg = static_cast<std::uint32_t>(*id);
    const auto workers = ctx.dp->ars_workers();
    const ars::CounterValues v = ars::sum_nhg_counters(workers, nhg);
    const ars::PortBoard &board = ctx.dp->ars_board();
    std::uint64_t pkts = 0, bytes = 0;
    if (const auto index = ctx.fib->nhg_index(nhg))
        std::tie(pkts, bytes) = dp::sum_nhg(ctx.dp->counters(), *index);
    const ars::ArsObjectRuntime *o = c->ars_object(g->ars_object);
    const std::string mode = o != nullptr ? std::string(ars::to_string(o->mode)) : "static-hash";
    auto quality = [&](const ars::GroupMember &m) -> int {
        return m.target.kind == ars::EgressTarget::Kind::kPort ? board.port_quality(m.target.id)
                                                               : board.lag_quality(m.target.id);
    };
    auto link = [&](const ars::GroupMember &m) {
        if (m.target.kind == ars::EgressTarget::Kind::kPort) return board.link_up(m.target.id);
        const ars::LagConfig &l = ctx.ars.lags.at(m.target.id);
        for (std::uint16_t p : l.ports)
            if (board.link_up(p)) return true;
        return false;
    };
    const char *modes[] = {"flowlet_quality", "flowlet_random", "per_packet_quality", "per_packet_random",
                           "fixed"};
    if (json) {
        cmdline_printf(cl,
                       "{\"nhg\": %u, \"ars_object\": %d, \"mode\": \"%s\", \"threshold\": %u, \"cost\": %u, "
                       "\"bias\": %u, \"members\": [",
                       nhg, g->ars_object == ars::kNoArsObject ? -1 : g->ars_object, mode.c_str(),
                       g->path_selection.primary_quality_threshold, g->path_selection.alternate_cost,
                       g->path_selection.alternate_bias);
        for (std::size_t i = 0; i < g->members.size(); ++i) {
            const ars::GroupMember &m = g->members[i];
            cmdline_printf(
                cl,
                "%s{\"index\": %zu, \"role\": \"%s\", \"%s\": %u, \"usable\": %s, \"link_up\": %s, "
                "\"quality\": %d}",
                i ? ", " : "", i, role_name(*g, i),
                m.target.kind == ars::EgressTarget::Kind::kPort ? "port" : "lag", m.target.id,
                m.usable ? "true" : "false", link(m) ? "true" : "false", quality(m));
        }
        cmdline_printf(cl,
                       "], \"counters\": {\"packets\": %llu, \"bytes\": %llu, \"packet_drops\": %llu, "
                       "\"next_hop_reassignments\": %llu, \"port_reassignments\": %llu, "
                       "\"link_down_reassignments\": %llu, \"static_hash_decisions\": %llu",
                       static_cast<unsigned long long>(pkts), static_cast<unsigned long long>(bytes),
                       static_cast<unsigned long long>(v.packet_drops),
                       static_cast<unsigned long long>(v.next_hop_reassignments),
                       static_cast<unsigned long long>(v.port_reassignments),
                       static_cast<unsigned long long>(v.link_down_reassignments),
                       static_cast<unsigned long long>(v.static_hash_decisions));
        for (int m = 0; m < ars::kModeCount; ++m)
            cmdline_printf(cl, ", \"decisions_%s\": %llu", modes[m],
                           static_cast<unsigned long long>(v.decisions[static_cast<std::size_t>(m)]));
        cmdline_printf(cl, "}}\n");
        return true;
    }
    cmdline_printf(cl, "ars nhg %u: object %s, mode %s, threshold %u cost %u bias %u\n", nhg,
                   g->ars_object == ars::kNoArsObject ? "none" : std::to_string(g->ars_object).c_str(),
                   mode.c_str(), g->path_selection.primary_quality_threshold,
                   g->path_selection.alternate_cost, g->path_selection.alternate_bias);
    for (std::size_t i = 0; i < g->members.size(); ++i) {
        const ars::GroupMember &m = g->members[i];
        cmdline_printf(cl, "  member %zu %-9s %s %u  quality %d  link %s%s\n", i, role_name(*g, i),
                       m.target.kind == ars::EgressTarget::Kind::kPort ? "port" : "lag", m.target.id,
                       quality(m), link(m) ? "up" : "down",
                       m.usable ? "" : "  (not usable: admin down or ARS off)");
    }
    cmdline_printf(cl,
                   "  packets %llu bytes %llu drops %llu nh-reassignments %llu port-reassignments %llu "
                   "link-down-reassignments %llu static-hash %llu\n",
                   static_cast<unsigned long long>(pkts), static_cast<unsigned long long>(bytes),
                   static_cast<unsigned long long>(v.packet_drops),
                   static_cast<unsigned long long>(v.next_hop_reassignments),
                   static_cast<unsigned long long>(v.port_reassignments),
                   static_cast<unsigned long long>(v.link_down_reassignments),
                   static_cast<unsigned long long>(v.static_hash_decisions));
    cmdline_printf(cl, "  decisions:");
    for (int m = 0; m < ars::kModeCount; ++m)
        cmdline_printf(cl, " %s %llu", modes[m],
                       static_cast<unsigned long long>(v.decisions[static_cast<std::size_t>(m)]));
    cmdline_printf(cl, "\n");
    return true;
}

bool show_quality(CommandContext &ctx, struct cmdline *cl, bool json) {
    if (ctx.sampler == nullptr) return bad(cl, "no quality sampler");
    const auto ports = ctx.sampler->ports();
    const unsigned long long rounds = ctx.sampler->rounds();
    if (json) cmdline_printf(cl, "{\"rounds\": %llu, \"ports\": [", rounds);
    for (std::size_t p = 0; p < ports.size(); ++p) {
        const dp::ArsPortQuality &q = ports[p];
        if (json) {
            cmdline_printf(
                cl,
                "%s{\"port\": %zu, \"past_mbps\": %llu, \"future_mbps\": %llu, \"combined_mbps\": %llu, "
                "\"scaled_mbps\": %llu, \"quality\": %u, \"link_up\": %s, \"tx_bytes\": %llu, "
                "\"backlog_bytes\": %llu}",
                p ? ", " : "", p, static_cast<unsigned long long>(q.load.past_mbps),
                static_cast<unsigned long long>(q.load.future_mbps),
                static_cast<unsigned long long>(q.load.combined_mbps),
                static_cast<unsigned long long>(q.load.scaled_mbps), q.band, q.link_up ? "true" : "false",
                static_cast<unsigned long long>(q.tx_bytes),
                static_cast<unsigned long long>(q.backlog_bytes));
        } else {
            cmdline_printf(
                cl,
                "port %zu: past %llu Mbps future %llu Mbps combined %llu scaled %llu quality %u link %s "
                "tx-bytes %llu backlog %llu\n",
                p, static_cast<unsigned long long>(q.load.past_mbps),
                static_cast<unsigned long long>(q.load.future_mbps),
                static_cast<unsigned long long>(q.load.combined_mbps),
                static_cast<unsigned long long>(q.load.scaled_mbps), q.band, q.link_up ? "up" : "down",
                static_cast<unsigned long long>(q.tx_bytes),
                static_cast<unsigned long long>(q.backlog_bytes));
        }
    }
    if (json)
        cmdline_printf(cl, "]}\n");
    else
        cmdline_printf(cl, "%llu sampling rounds\n", rounds);
    return true;
}

void record_event(void *context, const ars::ReassignEvent &e) {
    auto *log = static_cast<MonitorLog *>(context);
    const std::uint64_t h = log->head.load(std::memory_order_relaxed);
    log->ring[h % MonitorLog::kSize] = e;
    log->head.store(h + 1, std::memory_order_release);
}

}  // namespace

void ars_init(CommandContext &ctx) {
    ctx.ars.profile.random_seed = 1;
    for (std::uint16_t p = 0; p < ctx.dp->num_ports(); ++p) {
        ars::PortConfig pc;
        pc.id = p;
        ctx.ars.ports[p] = pc;
    }
    ars::BuildResult r = ctx.ars.build(ctx.ticks_per_us);
    ctx.ars_config = r.config;
    ctx.fib->set_ars(r.config);
    if (ctx.sampler != nullptr) ctx.sampler->set_config(r.config);
}

void ars_forget_nhg(CommandContext &ctx, std::uint32_t id) {
    if (ctx.ars.nhgs.erase(id) == 0) return;
    ars::BuildResult r = ctx.ars.build(ctx.ticks_per_us);
    if (!r.ok()) return;  // removing a group cannot make a valid config invalid
    ctx.ars_config = r.config;
    ctx.fib->set_ars(r.config);
    if (ctx.sampler != nullptr) ctx.sampler->set_config(r.config);
}

ars::MonitorHook monitor_hook_for(unsigned worker_index, void *logs) {
    auto &v = *static_cast<std::vector<std::unique_ptr<MonitorLog>> *>(logs);
    return ars::MonitorHook{&record_event, v.at(worker_index).get()};
}

void print_monitor_events(CommandContext &ctx, struct cmdline *cl) {
    static const char *reasons[] = {"flowlet-expired", "link-down", "member-removed"};
    for (std::size_t w = 0; w < ctx.monitor_logs.size(); ++w) {
        MonitorLog &log = *ctx.monitor_logs[w];
        const std::uint64_t head = log.head.load(std::memory_order_acquire);
        if (head - log.tail > MonitorLog::kSize) {
            cmdline_printf(cl, "monitor: worker %zu: %llu events not shown\n", w,
                           static_cast<unsigned long long>(head - log.tail - MonitorLog::kSize));
            log.tail = head - MonitorLog::kSize;
        }
        for (; log.tail < head; ++log.tail) {
            const ars::ReassignEvent &e = log.ring[log.tail % MonitorLog::kSize];
            cmdline_printf(cl, "monitor: worker %zu %s %u bucket %u member %u -> %u (%s %u -> %s %u) %s\n", w,
                           e.is_lag ? "lag" : "nhg", e.group_id, e.bucket, e.old_member_id, e.new_member_id,
                           e.old_target.kind == ars::EgressTarget::Kind::kPort ? "port" : "lag",
                           e.old_target.id,
                           e.new_target.kind == ars::EgressTarget::Kind::kPort ? "port" : "lag",
                           e.new_target.id, reasons[static_cast<int>(e.reason) % 3]);
        }
    }
}

bool ars_command(CommandContext &ctx, struct cmdline *cl, const Words &w) {
    if (w.size() >= 3 && w[0] == "set" && w[1] == "ars" && w[2] == "profile") return set_profile(ctx, cl, w);
    if (w.size() >= 3 && w[0] == "set" && w[1] == "ars" && w[2] == "port") return set_port(ctx, cl, w);
    if (w.size() >= 2 && w[0] == "ars" && w[1] == "object") return object_cmd(ctx, cl, w);
    if (w.size() >= 1 && w[0] == "lag") return lag_cmd(ctx, cl, w);
    if (w.size() >= 1 && w[0] == "acl") return acl_cmd(ctx, cl, w);
    if (w.size() >= 4 && w[0] == "nhg" && w[1] == "add" && w[3] == "ars") return nhg_ars(ctx, cl, w);
    if (w.size() >= 2 && w[0] == "monitor" && w.size() == 2 && (w[1] == "start" || w[1] == "stop")) {
        ArsState next = ctx.ars;
        next.monitor = w[1] == "start";
        return accept(ctx, cl, next);
    }
    if (w.size() >= 3 && w[0] == "show" && w[1] == "ars") {
        const bool json = w.back() == "json";
        const std::size_t n = w.size() - (json ? 1 : 0);
        if (w[2] == "nhg" && n == 4) return show_nhg(ctx, cl, w, json);
        if (w[2] == "quality" && n == 3) return show_quality(ctx, cl, json);
    }
    return bad(cl, "bad ARS command");
}

}  // namespace weft::app
