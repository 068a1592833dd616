// The workloads' flows: permutation, all-to-all, incast, ring and tree all-reduce (steps started
// by the completion of the steps they need), and Poisson arrivals with sizes from a CDF.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "engine.hpp"
#include "flow_list.hpp"
#include "weft/routing/parse_error.hpp"
#include "weft/routing/seeded_rng.hpp"
#include "weft/routing/text_file.hpp"

namespace weft::sim {
namespace {

std::uint32_t flow_hash(std::uint64_t a, std::uint64_t b) {
    std::uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull);
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return static_cast<std::uint32_t>(x ^ (x >> 32));
}

}  // namespace

FlowId Engine::add_flow(std::uint32_t src, std::uint32_t dst, std::uint64_t bytes, std::uint32_t workload) {
    if (flows_.size() >= Event::kIdMask) throw std::runtime_error("more flows than the simulator numbers");
    const FlowId id = static_cast<FlowId>(flows_.size());
    Flow f;
    f.src = src;
    f.dst = dst;
    f.workload = workload;
    f.bytes = bytes;
    const std::uint64_t packets = (bytes + payload_ - 1) / payload_;
    if (packets >= (std::uint64_t{1} << 31)) throw std::runtime_error("a flow of more than 2^31 packets");
    f.packets = static_cast<std::uint32_t>(packets);
    f.last_size = static_cast<std::uint32_t>(bytes - (packets - 1) * payload_) + s_.transport.header;
    const std::uint64_t key = (std::uint64_t{src} << 32 | dst) ^ (std::uint64_t{id} * 0x100000001B3ull);
    f.hash_fwd = flow_hash(key, s_.run.seed);
    f.hash_rev = flow_hash(key, s_.run.seed + 1);
    flows_.push_back(f);
    ++flows_pending_;
    return id;
}

void Engine::add_successor(FlowId before, FlowId after) {
    if (successor_lists_.size() <= before) successor_lists_.resize(before + 1);
    successor_lists_[before].push_back(after);
    ++flows_[after].waiting;
}

std::string Engine::resolved(const std::string &path) const {
    return path.empty() || path.front() == '/' ? path : s_.dir + "/" + path;
}

// A file a workload names, read whole; a file that cannot be read is refused at the workload.
std::string Engine::read_relative(const WorkloadSettings &w, const std::string &path) const {
    try {
        routing::TextLimits limits;
        limits.max_bytes = std::size_t{64} << 20;
        return routing::read_text_file(resolved(path), limits);
    } catch (const routing::ParseError &) {
        throw;
    } catch (const std::exception &e) {
        throw routing::ParseError(s_.file, w.line, 0, "a readable file (" + std::string(e.what()) + ")");
    }
}

void Engine::build_workloads() {
    const auto host_count = static_cast<std::uint32_t>(hosts_.size());
    for (std::uint32_t wi = 0; wi < s_.workloads.size(); ++wi) {
        const WorkloadSettings &w = s_.workloads[wi];
        auto refuse = [&](const std::string &expected) {
            throw routing::ParseError(s_.file, w.line, 0, expected);
        };
        if (w.first_host >= host_count)
            refuse("first_host below the fabric's " + std::to_string(host_count) + " hosts");
        const std::uint32_t n = w.host_count == 0 ? host_count - w.first_host : w.host_count;
        if (w.first_host + std::uint64_t{n} > host_count || n < 2)
            refuse("at least two hosts within the fabric's " + std::to_string(host_count));
        const std::uint32_t first = w.first_host;
        routing::SeededRng rng(s_.run.seed * 0x2545F4914F6CDD1Dull + wi);
        const std::size_t before = flows_.size();
        switch (w.kind) {
            case WorkloadKind::kPermutation: {
                // Sattolo's shuffle: one cycle through every host, so nobody sends to itself; or
                // every host to the one `shift` places on (adversarial patterns, e.g. a dragonfly
                // group's hosts all to the next group's).
                std::vector<std::uint32_t> to(n);
                if (w.shift != 0) {
                    if (w.shift % n == 0) refuse("a shift that is not a multiple of the workload's hosts");
                    for (std::uint32_t i = 0; i < n; ++i) to[i] = (i + w.shift) % n;
                } else {
                    for (std::uint32_t i = 0; i < n; ++i) to[i] = i;
                    for (std::uint32_t i = n - 1; i > 0; --i) std::swap(to[i], to[rng.below(i)]);
                }
                for (std::uint32_t i = 0; i < n; ++i) add_flow(first + i, first + to[i], w.size, wi);
                break;
            }
            case WorkloadKind::kAllToAll:
                for (std::uint32_t i = 0; i < n; ++i)
                    for (std::uint32_t k = 1; k < n; ++k)
                        add_flow(first + i, first + (i + k) % n, w.size, wi);
                break;
            case WorkloadKind::kIncast: {
                if (w.receiver >= n) refuse("a receiver within the workload's hosts");
                if (w.senders > n - 1) refuse("at most " + std::to_string(n - 1) + " senders");
                std::uint32_t added = 0;
                for (std::uint32_t i = 0; i < n && added < w.senders; ++i) {
                    if (i == w.receiver) continue;
                    add_flow(first + i, first + w.receiver, w.size, wi);
                    ++added;
                }
                break;
            }
            case WorkloadKind::kRingAllreduce: {
                // 2(n-1) steps of size/n each; host i's step s+1 needs its own step s delivered
                // and host i-1's step s received.
                const std::uint64_t chunk = std::max<std::uint64_t>(1, w.size / n);
                const std::uint32_t steps = 2 * (n - 1);
                const auto base = static_cast<FlowId>(flows_.size());
                for (std::uint32_t s = 0; s < steps; ++s)
                    for (std::uint32_t i = 0; i < n; ++i) add_flow(first + i, first + (i + 1) % n, chunk, wi);
                for (std::uint32_t s = 1; s < steps; ++s)
                    for (std::uint32_t i = 0; i < n; ++i) {
                        const FlowId self = base + s * n + i;
                        add_successor(base + (s - 1) * n + i, self);
                        add_successor(base + (s - 1) * n + (i + n - 1) % n, self);
                    }
                break;
            }
            case WorkloadKind::kTreeAllreduce: {
                // A binary tree in heap order: reduce to host 0 (each node sends its whole buffer
                // up once its children's arrived), then broadcast down.
                const auto base = static_cast<FlowId>(flows_.size());
                auto up = [&](std::uint32_t k) { return base + (k - 1); };
                auto down = [&](std::uint32_t k) { return base + (n - 1) + (k - 1); };
                for (std::uint32_t k = 1; k < n; ++k) add_flow(first + k, first + (k - 1) / 2, w.size, wi);
                for (std::uint32_t k = 1; k < n; ++k) add_flow(first + (k - 1) / 2, first + k, w.size, wi);
                for (std::uint32_t k = 1; k < n; ++k) {
                    for (std::uint32_t c = 2 * k + 1; c <= 2 * k + 2 && c < n; ++c)
                        add_successor(up(c), up(k));
                    const std::uint32_t parent = (k - 1) / 2;
                    if (parent == 0) {
                        for (std::uint32_t c = 1; c <= 2 && c < n; ++c) add_successor(up(c), down(k));
                    } else {
                        add_successor(down(parent), down(k));
                    }
                }
                break;
            }
            case WorkloadKind::kFile: {
                const std::vector<FlowSpec> list =
                    parse_flow_list(read_relative(w, w.file), resolved(w.file), host_count);
                for (const FlowSpec &spec : list) {
                    if (spec.src < first || spec.src - first >= n || spec.dst < first ||
                        spec.dst - first >= n)
                        throw routing::ParseError(resolved(w.file), spec.line, 0,
                                                  "hosts within the workload's first_host and hosts");
                    const FlowId id = add_flow(spec.src, spec.dst, spec.bytes, wi);
                    flows_[id].start = w.start + spec.start;
                }
                break;
            }
            case WorkloadKind::kPoisson: {
                const std::string text = read_relative(w, w.cdf);
                const std::string path = resolved(w.cdf);
                PoissonSource src;
                src.workload = wi;
                src.first = first;
                src.count = n;
                if (w.to_hosts == 0) {
                    src.to_first = first;
                    src.to_count = n;
                } else {
                    if (w.to_first_host + std::uint64_t{w.to_hosts} > host_count)
                        refuse("destinations within the fabric's " + std::to_string(host_count) + " hosts");
                    src.to_first = w.to_first_host;
                    src.to_count = w.to_hosts;
                    // A flow needs a destination other than its source.
                    if (src.to_count == 1 && src.to_first >= first && src.to_first < first + n)
                        refuse("a destination range that is not one of the sources alone");
                }
                src.cdf = SizeCdf::parse(text, path);
                src.flows_per_ps = w.load * s_.fabric.host_rate.bps() * n / (8 * src.cdf.mean()) / 1e12;
                src.end = w.start + w.duration;
                src.rng = ars::Rng(s_.run.seed, 0xA771000ull + wi);
                sources_.push_back(std::move(src));
                break;
            }
        }
        for (std::size_t f = before; f < flows_.size(); ++f) {
            if (w.kind != WorkloadKind::kFile) flows_[f].start = w.start;
            if (flows_[f].waiting == 0)
                schedule(flows_[f].start, kEvFlowStart, static_cast<std::uint32_t>(f));
        }
    }
    // Successor lists flattened, in flow order.
    successor_lists_.resize(flows_.size());
    for (std::size_t f = 0; f < flows_.size(); ++f) {
        flows_[f].next_begin = static_cast<std::uint32_t>(successors_.size());
        successors_.insert(successors_.end(), successor_lists_[f].begin(), successor_lists_[f].end());
        flows_[f].next_end = static_cast<std::uint32_t>(successors_.size());
    }
    successor_lists_.clear();
    successor_lists_.shrink_to_fit();
    // Flows that start on their own wait in start order, only the next one in the event queue
    // (tens of thousands of them would make every event dearer): ties by flow id, as the event
    // queue itself would order them.
    std::stable_sort(planned_.begin(), planned_.end(),
                     [&](FlowId a, FlowId b) { return flows_[a].start < flows_[b].start; });
    if (!planned_.empty()) schedule(flows_[planned_[0]].start, kEvFlowStart, planned_[0]);
    for (std::uint32_t i = 0; i < sources_.size(); ++i) {
        PoissonSource &src = sources_[i];
        const Time first = s_.workloads[src.workload].start;
        const double u = static_cast<double>(src.rng.next() >> 11) * 0x1.0p-53;
        const Time at = first + static_cast<Time>(-std::log1p(-u) / src.flows_per_ps);
        if (at < src.end) {
            ++sources_running_;
            schedule(at, kEvArrival, i);
        }
    }
}

void Engine::arrival(std::uint32_t i) {
    PoissonSource &src = sources_[i];
    auto unit = [&] { return static_cast<double>(src.rng.next() >> 11) * 0x1.0p-53; };
    const std::uint32_t a = src.first + src.rng.below(src.count);
    std::uint32_t b;
    if (src.to_first == src.first && src.to_count == src.count) {
        b = src.first + src.rng.below(src.count - 1);
        if (b >= a) ++b;
    } else {
        do b = src.to_first + src.rng.below(src.to_count);
        while (b == a);
    }
    const std::uint64_t size = src.cdf.sample(unit());
    const FlowId id = add_flow(a, b, size, src.workload);
    start_flow(id);
    const Time next = now_ + static_cast<Time>(-std::log1p(-unit()) / src.flows_per_ps);
    if (next < src.end)
        schedule(next, kEvArrival, i);
    else
        --sources_running_;
}

}  // namespace weft::sim
