// Private: the path trace's share of a pass over the destinations (routing_check.hpp). A
// PathTracer per thread counts what that thread's destinations give; merge_paths adds the
// shares up in an order that does not depend on which thread took which destinations.
#pragma once

#include <tuple>
#include <vector>

#include "dest_walk.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing::verify {

// Examples are the first few of each kind in the order (owner switch, LID, source switch).
using ExampleKey = std::tuple<SwitchIdx, Lid, SwitchIdx>;
struct PathExample {
    ExampleKey key;
    PathIssue issue;
};

class PathTracer {
  public:
    enum Kind { kUnreachable, kLoop, kNonMinimal, kKinds };
    static constexpr std::size_t kExamples = 5;

    PathTracer(const Fabric &f, const DestWalker &w);
    // After w.walk(d) delivered a walk with an owner switch.
    void visit(const DestWalker &w, Lid d);

    PathReport report;                          // counts and histogram (no examples)
    std::vector<PathExample> examples[kKinds];  // each sorted by key, at most kExamples

  private:
    void odd_switch(const DestWalker &w, Lid d, SwitchIdx s, std::uint32_t sw_src, std::uint32_t ca_src,
                    std::uint32_t shortest);
    bool wants(Kind k, const ExampleKey &key) const {
        return examples[k].size() < kExamples || key < examples[k].back().key;
    }
    void offer(Kind k, const ExampleKey &key, PathIssue issue);

    const Fabric &f_;
    std::uint64_t sources_ = 0;         // switches and CA ports: sources of every destination but itself
    std::vector<std::uint64_t> count_;  // delivered sources per distance (see visit)
};

PathReport merge_paths(const std::vector<const PathTracer *> &parts);

}  // namespace weft::routing::verify
