// Building the simulated fabric: the routing library's fabric, routed by its engines, its ARS
// next-hop groups compiled for every switch and turned into each switch's ars::Config, exactly
// as a weft switch's control plane would program them.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "engine.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/parse_error.hpp"
#include "weft/routing/topology_io.hpp"

namespace weft::sim {
namespace {

std::uint32_t mix32(std::uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return static_cast<std::uint32_t>(x);
}

ars::Mode mode_of(Balancing b) {
    switch (b) {
        case Balancing::kFlowletQuality:
            return ars::Mode::kFlowletQuality;
        case Balancing::kFlowletRandom:
            return ars::Mode::kFlowletRandom;
        case Balancing::kPacketQuality:
            return ars::Mode::kPerPacketQuality;
        case Balancing::kPacketRandom:
            return ars::Mode::kPerPacketRandom;
        case Balancing::kFixed:
        case Balancing::kEcmp:
            break;
    }
    return ars::Mode::kFixed;
}

}  // namespace

Engine::Engine(const Scenario &s) : s_(s) {
    payload_ = s_.transport.mtu - s_.transport.header;
    lossless_ = s_.transport.kind == TransportKind::kRoce;
    // ARN's detectors read the sampler's loads, whatever the balancing.
    sample_quality_ = s_.sw.balancing == Balancing::kFlowletQuality ||
                      s_.sw.balancing == Balancing::kPacketQuality || s_.arn.enabled;
    pfc_xoff_ = s_.sw.pfc_xoff != 0 ? s_.sw.pfc_xoff : s_.sw.buffer_bytes / 8;
    pfc_xon_ = s_.sw.pfc_xoff != 0 ? s_.sw.pfc_xon : pfc_xoff_ / 2;
    ecn_span_ = static_cast<double>(s_.sw.ecn_kmax > s_.sw.ecn_kmin ? s_.sw.ecn_kmax - s_.sw.ecn_kmin : 0);
    build_fabric();
    build_ports();
    route();
    build_workloads();
    events_.reserve(ports_.size() * 2 + flows_.size() + 64);
}

void Engine::build_fabric() {
    try {
        fabric_ = s_.fabric.topology.empty() ? routing::read_topology(resolved(s_.fabric.topology_file))
                                             : routing::generate(s_.fabric.topology);
    } catch (const routing::ParseError &e) {
        if (!s_.fabric.topology_file.empty()) throw;  // located in the topology file itself
        throw routing::ParseError(s_.file, s_.fabric.topology_line, 0,
                                  "a topology the generator builds (" + std::string(e.what()) + ")");
    } catch (const std::exception &e) {
        throw routing::ParseError(s_.file, s_.fabric.topology_line, 0,
                                  "a topology the generator builds (" + std::string(e.what()) + ")");
    }
    // Links failed from the start are not there when the fabric is routed.
    for (const FailureSettings &f : s_.failures) {
        const routing::NodeIdx n = failure_node(f);
        if (f.at == 0) fabric_.disconnect(n, static_cast<routing::PortNum>(f.port));
    }
    routing::assign_lids(fabric_, {});
}

routing::NodeIdx Engine::failure_node(const FailureSettings &f) const {
    routing::NodeIdx n = routing::kNoNode;
    if (!f.node.empty() && f.node.front() == '#') {
        std::uint64_t v = 0;
        bool ok = f.node.size() > 1 && f.node.size() < 11;
        for (std::size_t i = 1; ok && i < f.node.size(); ++i) {
            ok = f.node[i] >= '0' && f.node[i] <= '9';
            v = v * 10 + static_cast<std::uint64_t>(f.node[i] - '0');
        }
        if (ok && v < fabric_.node_count()) n = static_cast<routing::NodeIdx>(v);
    } else {
        for (routing::NodeIdx i = 0; i < fabric_.node_count(); ++i)
            if (fabric_.node(i).desc == f.node) {
                n = i;
                break;
            }
    }
    if (n == routing::kNoNode)
        throw routing::ParseError(s_.file, f.link_line, f.link_column,
                                  "a node of the fabric (description or #index)", f.node);
    if (f.port > fabric_.node(n).num_ports ||
        fabric_.port(n, static_cast<routing::PortNum>(f.port)).peer == routing::kNoNode)
        throw routing::ParseError(s_.file, f.link_line, f.link_column, "a cabled port of " + f.node,
                                  std::to_string(f.port));
    return n;
}

void Engine::build_ports() {
    const routing::Fabric &f = fabric_;
    nodes_.resize(f.node_count());
    std::size_t total = 0;
    for (routing::NodeIdx n = 0; n < f.node_count(); ++n) {
        nodes_[n].first_port = static_cast<PortIdx>(total);
        nodes_[n].is_switch = f.node(n).is_switch();
        total += f.node(n).num_ports;
    }
    if (total >= Event::kIdMask)
        throw std::runtime_error("the fabric has more ports than the simulator numbers");
    ports_.resize(total);
    switches_.resize(f.switch_count());
    if (s_.arn.enabled) build_arn();
    for (routing::NodeIdx n = 0; n < f.node_count(); ++n) {
        const routing::Node &node = f.node(n);
        if (node.is_switch()) {
            nodes_[n].index = node.sw;
            SwitchNode &sw = switches_[node.sw];
            sw.node = n;
            sw.first_port = nodes_[n].first_port;
            sw.ports = node.num_ports;
            sw.salt = mix32(s_.run.seed * 0x9E3779B97F4A7C15ull + node.sw);
            sw.board = std::make_unique<ars::PortBoard>(node.num_ports + 1, 0, arn_remote_slots(node.sw));
            sw.sampler = std::make_unique<ars::QualitySampler>(node.num_ports + 1);
            sw.worker = std::make_unique<ars::Worker>(*sw.board, 0);
            sw.samples.resize(node.num_ports + 1);
            sw.rng = ars::Rng(s_.run.seed, 0x5EC0000ull + node.sw);
        } else {
            unsigned cabled = 0;
            for (routing::PortNum p = 1; p <= node.num_ports; ++p)
                cabled += f.port(n, p).peer != routing::kNoNode;
            if (cabled != 1)
                throw routing::ParseError(s_.file, s_.fabric.topology_line, 0,
                                          "hosts with one link each (host '" + node.desc + "' has " +
                                              std::to_string(cabled) +
                                              "; multi-homed hosts are not modelled)");
            nodes_[n].index = static_cast<std::uint32_t>(hosts_.size());
            Host h;
            h.node = n;
            hosts_.push_back(std::move(h));
        }
    }
    if (hosts_.size() < 2)
        throw routing::ParseError(s_.file, s_.fabric.topology_line, 0, "a fabric with two hosts or more");
    for (routing::NodeIdx n = 0; n < f.node_count(); ++n) {
        const routing::Node &node = f.node(n);
        for (routing::PortNum p = 1; p <= node.num_ports; ++p) {
            const routing::Port &fp = f.port(n, p);
            if (fp.peer == routing::kNoNode) continue;
            Port &port = ports_[nodes_[n].first_port + p - 1];
            const bool peer_switch = f.node(fp.peer).is_switch();
            port.peer = nodes_[fp.peer].first_port + fp.peer_port - 1;
            port.node = n;
            port.peer_node = fp.peer;
            port.host_side = !node.is_switch();
            port.fabric = node.is_switch() && peer_switch;
            port.to_switch = peer_switch;
            port.up = true;
            port.rate = port.fabric ? s_.fabric.fabric_rate : s_.fabric.host_rate;
            port.delay = s_.fabric.link_delay + (peer_switch ? s_.fabric.switch_latency : 0);
            if (node.is_switch()) {
                switches_[node.sw].board->set_link_up(p, true);
                if (!peer_switch) {
                    Host &h = hosts_[nodes_[fp.peer].index];
                    h.leaf = node.sw;
                    h.leaf_port = nodes_[n].first_port + p - 1;
                }
            } else {
                hosts_[nodes_[n].index].port = nodes_[n].first_port + p - 1;
            }
        }
    }
    // Links failed mid-run are resolved now, so that a bad one is refused before the run.
    for (const FailureSettings &fs : s_.failures) {
        if (fs.at == 0) continue;
        const routing::NodeIdx n = failure_node(fs);
        const PortIdx a = nodes_[n].first_port + fs.port - 1;
        failure_ports_.emplace_back(a, ports_[a].peer);
        FailureRecord r;
        r.at = fs.at;
        r.link = f.node(n).desc + ":" + std::to_string(fs.port);
        failures_.push_back(r);
    }
}

void Engine::route() {
    routing::RoutingOptions o;
    o.seed = s_.run.seed;
    tables_ = {};
    const routing::ChainResult cr = routing::run_chain(s_.fabric.routing, fabric_, o, tables_);
    if (!cr.ok) {
        std::string why = cr.error;
        for (const std::string &f : cr.failures) why += (why.empty() ? "" : "; ") + f;
        throw std::runtime_error("routing '" + s_.fabric.routing + "' failed: " + why);
    }
    routing::ArsOptions ao;
    ao.max_extra_hops = s_.fabric.alternates;
    ao.max_alternates = s_.fabric.max_alternates;
    routing::ArsCompileReport report;
    groups_ = routing::compile_ars_groups(fabric_, tables_, ao, &report);
    routing_note_ = "routing " + cr.engine + ", " + std::to_string(groups_.destinations.size()) +
                    " destinations, " + std::to_string(report.groups) + " groups, " +
                    std::to_string(report.primaries) + " primaries, " + std::to_string(report.alternates) +
                    " alternates";
    assign_destinations();
    for (std::uint32_t sw = 0; sw < switches_.size(); ++sw) program(sw);
}

void Engine::program(std::uint32_t sw) {
    SwitchNode &node = switches_[sw];
    node.config = switch_config(sw, s_.run.seed);
    node.worker->adopt(node.config);
    node.only.assign(groups_.destinations.size(), 0);
    for (std::size_t d = 0; d < groups_.destinations.size(); ++d) {
        const routing::ArsGroup g = groups_.group(d, sw);
        if (g.fixed != routing::kNoPort && g.primary.size() + g.alternate.size() == 1)
            node.only[d] = g.primary[0];
    }
}

// Each host's destination (the NHG id switches forward it by): its leaf's place in the groups.
void Engine::assign_destinations() {
    std::vector<std::uint32_t> dest_of_switch(switches_.size(), ~0u);
    for (std::size_t d = 0; d < groups_.destinations.size(); ++d)
        dest_of_switch[groups_.destinations[d].sw] = static_cast<std::uint32_t>(d);
    routes_.resize(hosts_.size());
    for (std::size_t i = 0; i < hosts_.size(); ++i) {
        Host &h = hosts_[i];
        h.dest = dest_of_switch[h.leaf];
        if (h.dest == ~0u) throw std::runtime_error("a host's switch is not an ARS destination");
        routes_[i] = {h.leaf, h.leaf_port, h.dest};
    }
}

std::shared_ptr<const ars::Config> Engine::switch_config(std::uint32_t sw, std::uint64_t seed) const {
    const SwitchSettings &ss = s_.sw;
    const SwitchNode &node = switches_[sw];
    ars::Profile profile;
    profile.sampling_interval_us = ss.sampling_interval_us;
    profile.random_seed = mix32(seed * 0xD1B54A32D192ED03ull + sw);
    profile.ewma_exponent = ss.ewma_exponent;
    profile.past_load_weight = ss.past_load_weight;
    profile.future_load_weight = ss.future_load_weight;
    profile.past_load_enabled = ss.past_load_weight != 0;
    profile.future_load_enabled = ss.future_load_weight != 0;
    profile.current_load_enabled = ss.current_load;
    ars::ConfigBuilder b(profile, kArsTicksPerUs);
    for (std::uint32_t p = 1; p <= node.ports; ++p) {
        const Port &port = ports_[node.first_port + p - 1];
        if (port.peer == kNoPortIdx) continue;
        ars::PortConfig pc;
        pc.id = static_cast<ars::PortId>(p);
        pc.scale_tenths = std::clamp<std::uint32_t>(
            static_cast<std::uint32_t>(std::lround(port.rate.gbps() * 10)), 1, ars::kMaxScaleTenths);
        b.add_port(pc);
    }
    const bool ars_object = ss.balancing != Balancing::kEcmp;
    if (ars_object) {
        ars::ArsObjectConfig o;
        o.id = 0;
        o.mode = mode_of(ss.balancing);
        o.idle_time_us = ss.idle_time_us;
        o.max_flows = ss.max_flows;
        o.max_primary_members = 64;
        o.max_alternate_members = 64;
        b.add_ars_object(o);
    }
    for (std::size_t d = 0; d < groups_.destinations.size(); ++d) {
        const routing::ArsGroup g = groups_.group(d, sw);
        if (g.fixed == routing::kNoPort) continue;
        ars::NhgConfig nhg;
        nhg.id = static_cast<ars::NhgId>(d);
        nhg.ars_object = ars_object ? 0 : ars::kNoArsObject;
        nhg.path_selection.primary_quality_threshold = ss.primary_threshold;
        nhg.path_selection.alternate_cost = ss.alternate_cost;
        nhg.path_selection.alternate_bias = ss.alternate_bias;
        // With ARN, a member toward another dragonfly group counts with the remote quality of
        // the paths beyond its port too.
        const std::uint32_t to = groups_.destinations[d].sw;
        for (const routing::PortNum p : g.primary)
            nhg.members.push_back(
                {p, ars::EgressTarget::port(p), ars::MemberRole::kPrimary, true, arn_slot(sw, to, p)});
        for (const routing::PortNum p : g.alternate)
            nhg.members.push_back(
                {p, ars::EgressTarget::port(p), ars::MemberRole::kAlternate, true, arn_slot(sw, to, p)});
        b.add_nhg(nhg);
    }
    ars::BuildResult r = b.build();
    if (!r.ok()) {
        std::string why;
        for (const auto &e : r.errors) why += (why.empty() ? "" : "; ") + e.message;
        throw std::runtime_error("switch '" + fabric_.node(node.node).desc +
                                 "': ARS configuration refused: " + why);
    }
    return r.config;
}

Time Engine::ideal_fct(const Flow &f) const {
    const Host &a = hosts_[f.src], &b = hosts_[f.dst];
    unsigned links = 2;
    if (a.leaf != b.leaf) {
        const routing::Node &dn = fabric_.node(b.node);
        routing::Lid lid = 0;
        for (routing::PortNum p = 1; p <= dn.num_ports && lid == 0; ++p) lid = fabric_.port(b.node, p).lid;
        const std::uint8_t h =
            lid < tables_.hops[a.leaf].size() ? tables_.hops[a.leaf][lid] : routing::kInfHops;
        links = h == routing::kInfHops ? 4 : 1u + h;
    }
    // What the flow takes alone on a minimal path. In a pipeline of store-and-forward links the
    // last byte is in at the latest of, over every link k: its first packet through the links
    // before k, all its bytes through k, its last packet through the links after k (max-plus).
    // Host links run at one rate, fabric links at another.
    const std::uint64_t wire = std::uint64_t{f.packets - 1} * s_.transport.mtu + f.last_size;
    const std::uint64_t first = f.packets == 1 ? f.last_size : s_.transport.mtu;
    auto rate = [&](unsigned i) -> const Rate & {
        return i == 0 || i + 1 == links ? s_.fabric.host_rate : s_.fabric.fabric_rate;
    };
    Time longest = 0;
    for (unsigned k = 0; k < links; ++k) {
        Time t = rate(k).serialize(wire);
        for (unsigned i = 0; i < k; ++i) t += rate(i).serialize(first);
        for (unsigned i = k + 1; i < links; ++i) t += rate(i).serialize(f.last_size);
        longest = std::max(longest, t);
    }
    const Time t = longest + links * s_.fabric.link_delay + (links - 1) * s_.fabric.switch_latency;
    return t;
}

std::string Engine::describe() const {
    std::size_t links = 0;
    for (const Port &p : ports_) links += p.peer != kNoPortIdx;
    return std::to_string(hosts_.size()) + " hosts, " + std::to_string(switches_.size()) + " switches, " +
           std::to_string(links / 2) + " links; " + routing_note_ + "; " + std::to_string(flows_.size()) +
           " flows planned";
}

}  // namespace weft::sim
