#include "weft/sm/ethernet_agent.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "weft/sm/vendor_attributes.hpp"

namespace weft::sm {

std::uint64_t EthernetAgentCounters::refused_total() const {
    return std::accumulate(refused.begin(), refused.end(), std::uint64_t{0});
}

EthernetAgent::EthernetAgent(EthernetAgentConfig config, PortNum num_ports)
    : config_(std::move(config)), num_ports_(num_ports) {
    config_.max_routes = std::min(config_.max_routes, kMaxRoutes);
    std::vector<HostSubnet> subnets = std::move(config_.host_subnets);
    set_host_subnets(std::move(subnets));
}

void EthernetAgent::set_host_subnets(std::vector<HostSubnet> subnets) {
    if (subnets.size() > 0xFFFF) throw std::invalid_argument("EthernetAgent: at most 65535 host subnets");
    // Each block must encode: the same checks a Get's reply passes.
    for (std::size_t i = 0; i < subnets.size(); ++i) {
        HostSubnetsBlock b;
        b.total = 1;
        b.entries[0] = subnets[i];
        if (!encode_host_subnets_block(b) || subnets[i].port > num_ports_)
            throw std::invalid_argument("EthernetAgent: host subnet " + subnets[i].prefix.to_string() +
                                        " on port " + std::to_string(subnets[i].port) +
                                        " is not one to announce");
    }
    config_.host_subnets = std::move(subnets);
    ++subnets_version_;
}

EthernetLimits EthernetAgent::limits() const {
    return {num_ports_, config_.max_routes, config_.max_groups, config_.max_primaries,
            config_.max_alternates};
}

FibState EthernetAgent::state() const {
    FibState s;
    s.staging_open = staging_.has_value();
    s.active_generation = table_.generation;
    s.generation = staging_ ? staging_->generation : 0;
    s.routes = static_cast<std::uint32_t>(table_.routes.size());
    s.groups = static_cast<std::uint16_t>(table_.groups.size());
    s.arn = static_cast<std::uint16_t>(table_.arn.size());
    s.max_routes = config_.max_routes;
    s.max_groups = config_.max_groups;
    s.max_primaries = config_.max_primaries;
    s.max_alternates = config_.max_alternates;
    s.subnets = static_cast<std::uint16_t>(config_.host_subnets.size());
    s.subnets_version = subnets_version_;
    return s;
}

void EthernetAgent::refuse(Smp &reply, EthernetRefusal why, std::string what) {
    reply.status = status::kInvalidField;
    ++counters_.refused[static_cast<std::size_t>(why)];
    last_refusal_ = std::string(refusal_name(why)) + ": " + what;
}

bool EthernetAgent::handle(const Smp &request, Smp &reply) {
    const bool set = request.method == Method::kSet;
    ++(set ? counters_.sets : counters_.gets);
    switch (request.attr_id) {
        case attr::kWeftHostSubnets:
            if (set) break;
            host_subnets_attr(request, reply);
            return false;
        case attr::kWeftFibState:
            return fib_state_attr(request, reply);
        case attr::kWeftNextHopGroup:
            group_attr(request, reply);
            return false;
        case attr::kWeftRoutes:
            routes_attr(request, reply);
            return false;
        case attr::kWeftArnGroup:
            arn_attr(request, reply);
            return false;
        default:
            break;
    }
    reply.status = status::kUnsupportedMethodAttr;
    return false;
}

void EthernetAgent::host_subnets_attr(const Smp &request, Smp &reply) {
    const auto &subnets = config_.host_subnets;
    const auto total = static_cast<std::uint16_t>(subnets.size());
    if (request.attr_mod >= HostSubnetsBlock::blocks_for(total)) {
        reply.status = status::kInvalidField;
        return;
    }
    HostSubnetsBlock b;
    b.block = static_cast<std::uint16_t>(request.attr_mod);
    b.total = total;
    b.version = subnets_version_;
    for (unsigned i = 0; i < kHostSubnetsPerBlock && b.block * kHostSubnetsPerBlock + i < total; ++i)
        b.entries[i] = subnets[b.block * kHostSubnetsPerBlock + i];
    reply.data = encode_host_subnets_block(b).value();
}

bool EthernetAgent::fib_state_attr(const Smp &request, Smp &reply) {
    bool committed = false;
    if (request.method == Method::kSet) {
        const Result<FibState> want = decode_fib_state(request.data, request.attr_mod);
        if (!want) {
            refuse(reply, EthernetRefusal::kMalformed, want.error().message());
        } else if (want->op == FibOp::kBegin) {
            staging_ = Staging{want->generation, want->begin_empty ? EthernetBlocks{} : active_};
            ++counters_.begins;
        } else if (want->op == FibOp::kCommit) {
            if (!staging_) {
                refuse(reply, EthernetRefusal::kNoStaging,
                       "commit of generation " + std::to_string(want->generation) + " without a begin");
            } else if (staging_->generation != want->generation) {
                refuse(reply, EthernetRefusal::kGeneration,
                       "commit of generation " + std::to_string(want->generation) + ", staging is " +
                           std::to_string(staging_->generation));
            } else {
                auto t = assemble_ethernet_table(staging_->blocks, want->routes, want->groups, limits(),
                                                 want->arn);
                if (auto *f = std::get_if<EthernetFault>(&t)) {
                    refuse(reply, f->reason, std::move(f->what));
                } else {
                    table_ = std::move(std::get<EthernetTable>(t));
                    table_.generation = want->generation;
                    active_ = split_ethernet_table(table_);
                    staging_.reset();
                    ++counters_.commits;
                    committed = true;
                }
            }
        }
    }
    reply.data = encode_fib_state(state()).value();
    return committed;
}

void EthernetAgent::group_attr(const Smp &request, Smp &reply) {
    if (request.method == Method::kSet) {
        // Decoded without the port count first, so a port the switch lacks is told apart.
        const Result<NextHopGroupBlock> want = decode_next_hop_group_block(request.data, request.attr_mod);
        if (!want) {
            refuse(reply, EthernetRefusal::kMalformed, want.error().message());
        } else if (!decode_next_hop_group_block(request.data, request.attr_mod, num_ports_)) {
            refuse(
                reply, EthernetRefusal::kUnknownPort,
                "group " + std::to_string(want->group) + " names a port past " + std::to_string(num_ports_));
        } else if (!staging_) {
            refuse(reply, EthernetRefusal::kNoStaging,
                   "group " + std::to_string(want->group) + " without a begin");
        } else {
            if (want->block == 0 && want->members == 0) {
                // No members: the group goes, its other blocks with it.
                for (unsigned k = 0; k <= kMaxGroupBlock; ++k)
                    staging_->blocks.groups.erase(NextHopGroupBlock::attr_mod_of(want->group, k));
            }
            staging_->blocks.groups[want->attr_mod()] = *want;
            ++counters_.block_sets;
        }
    }
    const std::uint32_t mod = request.attr_mod;
    if (mod >> 24 || (mod & 0xFFFF) == 0 || (mod >> 16) > kMaxGroupBlock) {
        reply.status = status::kInvalidField;
        return;
    }
    const auto &groups = readable().groups;
    auto it = groups.find(mod);
    NextHopGroupBlock now;
    now.group = static_cast<std::uint16_t>(mod);
    if (it != groups.end()) {
        now = it->second;
    } else if (mod >> 16) {
        reply.status = status::kInvalidField;  // past the group's blocks (or no group)
        return;
    }
    reply.data = encode_next_hop_group_block(now).value();
}

void EthernetAgent::routes_attr(const Smp &request, Smp &reply) {
    if (request.method == Method::kSet) {
        const Result<RoutesBlock> want = decode_routes_block(request.data, request.attr_mod);
        if (!want) {
            refuse(reply, EthernetRefusal::kMalformed, want.error().message());
        } else if (!staging_) {
            refuse(reply, EthernetRefusal::kNoStaging,
                   "routes block " + std::to_string(want->block) + " without a begin");
        } else {
            staging_->blocks.routes[want->block] = *want;
            ++counters_.block_sets;
        }
    }
    if (request.attr_mod > kMaxRoutesBlock) {
        reply.status = status::kInvalidField;
        return;
    }
    const auto &routes = readable().routes;
    auto it = routes.find(request.attr_mod);
    RoutesBlock now;
    now.block = static_cast<std::uint16_t>(request.attr_mod);
    if (it != routes.end()) now = it->second;
    reply.data = encode_routes_block(now).value();
}

void EthernetAgent::arn_attr(const Smp &request, Smp &reply) {
    if (request.method == Method::kSet) {
        const Result<ArnGroupBlock> want = decode_arn_group_block(request.data, request.attr_mod);
        if (!want) {
            refuse(reply, EthernetRefusal::kMalformed, want.error().message());
        } else if (!staging_) {
            refuse(reply, EthernetRefusal::kNoStaging,
                   "ARN group block " + std::to_string(want->block) + " without a begin");
        } else {
            staging_->blocks.arn[want->block] = *want;
            ++counters_.block_sets;
        }
    }
    if (request.attr_mod > kMaxArnBlock) {
        reply.status = status::kInvalidField;
        return;
    }
    const auto &arn = readable().arn;
    auto it = arn.find(request.attr_mod);
    ArnGroupBlock now;
    now.block = static_cast<std::uint16_t>(request.attr_mod);
    if (it != arn.end()) now = it->second;
    reply.data = encode_arn_group_block(now).value();
}

}  // namespace weft::sm
