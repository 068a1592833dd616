// NHG member selection: the seam where the SAI ARS engine plugs in. A worker owns one selector
// (ARS keeps per-worker macro-flow tables, so the selector may hold state) and asks it, per
// packet, which member of an NHG carries this flow now. The plain hash-ECMP selector below is
// what weft uses for NhgMode::Ecmp groups, and for every group until ARS is wired in.
#pragma once

#include <cstdint>

#include "weft/dataplane/drop_reason.hpp"
#include "weft/dataplane/fib_snapshot.hpp"
#include "weft/dataplane/link_state.hpp"

namespace weft::dataplane {

struct MemberChoice {
    const ResolvedMember *member = nullptr;  // null: drop for `reason`
    DropReason reason = DropReason::None;
};

// What a selection may depend on: the group and its members in the current snapshot, the flow
// hash, the time (TSC ticks, for flowlet gaps and quality sampling) and which ports are usable.
struct SelectionRequest {
    std::uint32_t nhg_index;
    const NhgEntry *nhg;
    std::uint32_t flow_hash;
    std::uint64_t now_tsc;
    bool need_mac;  // IP forwarding needs a resolved neighbour MAC; IBoE LFT groups do not
};

// Hash ECMP with minimal disruption: a flow keeps its member while that member is usable; flows
// of an unusable member are spread over the usable ones.
class EcmpSelector {
  public:
    explicit EcmpSelector(const LinkState &links) noexcept : links_(&links) {}
    MemberChoice select(const FibSnapshot &fib, const SelectionRequest &req) noexcept;

  private:
    const LinkState *links_;
};

// The selector workers use. ARS glue replaces this alias with a class of the same shape.
using NhgSelector = EcmpSelector;

}  // namespace weft::dataplane
