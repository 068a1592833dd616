#include "weft/dataplane/fib_snapshot.hpp"

#include "fib_tables.hpp"

namespace weft::dataplane {

FibSnapshot::FibSnapshot(std::uint64_t generation, std::shared_ptr<const Fib4Table> fib4,
                         std::shared_ptr<const Fib6Table> fib6,
                         std::shared_ptr<const std::vector<RouteEntry>> route_sample, std::size_t route_count,
                         std::vector<NhgEntry> nhgs, std::vector<ResolvedMember> members,
                         std::shared_ptr<const LidTables> lids,
                         std::array<std::array<std::uint8_t, kNumSl>, kMaxPorts> sl2vl,
                         std::shared_ptr<const ars::Config> ars, SwitchLid switch_lid)
    : generation_(generation),
      fib4_(std::move(fib4)),
      fib6_(std::move(fib6)),
      route_sample_(std::move(route_sample)),
      route_count_(route_count),
      fib4_raw_(fib4_.get()),
      fib6_raw_(fib6_.get()),
      nhgs_(std::move(nhgs)),
      nhg_count_(static_cast<std::uint32_t>(nhgs_.size())),
      members_(std::move(members)),
      lids_(std::move(lids)),
      lft_raw_(lids_->lft.data()),
      vlft_raw_(lids_->vlft.data()),
      vlft_size_(static_cast<std::uint32_t>(lids_->vlft.size())),
      mft_raw_(lids_->mft.data()),
      sl2vl_(sl2vl),
      ars_(std::move(ars)),
      switch_lid_(switch_lid) {
    for (NhgEntry &e : nhgs_)
        e.ars_selectable = e.mode == NhgMode::Ars && ars_ != nullptr && ars_->nhg(e.id) != nullptr;
}

FibSnapshot::~FibSnapshot() = default;

void FibSnapshot::lookup4(std::uint32_t *ips, std::uint64_t *nhg_index, unsigned n) const noexcept {
    fib4_raw_->lookup_bulk(ips, nhg_index, n);
}

void FibSnapshot::lookup6(std::uint8_t (*ips)[16], std::uint64_t *nhg_index, unsigned n) const noexcept {
    fib6_raw_->lookup_bulk(ips, nhg_index, n);
}

LftTarget FibSnapshot::lft(std::uint32_t lid) const noexcept {
    if (lid == 0 || lid > kMaxUnicastLid) return {};
    const std::uint32_t w = lft_raw_[lid];
    return {static_cast<LftTarget::Kind>(w >> 30), w & 0x3FFFFFFFu};
}

LftTarget FibSnapshot::unicast(std::uint32_t lid) const noexcept {
    if (lid - 1 >= kMaxUnicastLid) return vlft(lid);  // 0 and multicast LIDs wrap past its size too
    const std::uint32_t w = lft_raw_[lid];
    return {static_cast<LftTarget::Kind>(w >> 30), w & 0x3FFFFFFFu};
}

std::vector<FibSnapshot::LftEntry> FibSnapshot::lft_entries() const {
    std::vector<LftEntry> out;
    for (std::uint32_t lid = 1; lid <= kMaxUnicastLid; ++lid)
        if (const LftTarget t = lft(lid); t.kind != LftTarget::Kind::None) out.push_back({lid, t});
    for (std::uint32_t lid = kFirstVlid; lid < vlft_end(); ++lid)
        if (const LftTarget t = vlft(lid); t.kind != LftTarget::Kind::None) out.push_back({lid, t});
    return out;
}

const PortMask &FibSnapshot::mft(std::uint16_t mlid) const noexcept {
    static constexpr PortMask kNone{};
    if (mlid < kFirstMulticastLid || mlid > kLastMulticastLid) return kNone;
    return mft_raw_[mlid - kFirstMulticastLid];
}

}  // namespace weft::dataplane
