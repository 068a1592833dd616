// A macro-flow table: the flow hash picks a bucket (the macro flow); the bucket remembers its
// member and when it last saw a packet. One table per (group, ARS object) per worker.
#pragma once

#include <cstdint>
#include <memory>

#include "weft/ars/types.hpp"

namespace weft::ars {

class MacroFlowTable {
  public:
    static constexpr std::uint16_t kEmpty = 0xFFFF;
    static constexpr int kTimeBits = 48;
    static constexpr std::uint64_t kTimeMask = (std::uint64_t{1} << kTimeBits) - 1;

    MacroFlowTable() = default;
    explicit MacroFlowTable(std::uint32_t size);  // size: a power of two

    // A bucket packs 48 bits of last-seen time with a 16-bit member index into 8 bytes, so 32K
    // buckets fit in 256 KiB. Time differences are taken modulo 2^48 ticks (days at GHz rates).
    struct Bucket {
        std::uint64_t bits;

        std::uint16_t member() const { return static_cast<std::uint16_t>(bits & 0xFFFF); }
        Ticks last_seen() const { return bits >> 16; }
        bool empty() const { return member() == kEmpty; }
        Ticks idle_for(Ticks now) const { return (now - last_seen()) & kTimeMask; }
        static Bucket make(std::uint16_t member, Ticks now) { return {(now << 16) | member}; }
    };

    std::uint32_t size() const { return mask_ + (buckets_ ? 1 : 0); }
    bool allocated() const { return buckets_ != nullptr; }

    // Fibonacci hashing: the high bits of a 64-bit product, so weak low bits of the flow hash do
    // not cluster the buckets.
    std::uint32_t index_of(std::uint32_t flow_hash) const { return index_in(flow_hash, mask_); }
    // The same for a table of mask + 1 buckets, for a caller that keeps the mask in a register.
    static std::uint32_t index_in(std::uint32_t flow_hash, std::uint32_t mask) {
        return static_cast<std::uint32_t>((flow_hash * 0x9E3779B97F4A7C15ull) >> 32) & mask;
    }
    std::uint32_t mask() const { return mask_; }
    Bucket *buckets() { return buckets_.get(); }
    Bucket *bucket(std::uint32_t index) { return &buckets_[index]; }
    const Bucket *bucket(std::uint32_t index) const { return &buckets_[index]; }

    void clear();

  private:
    std::unique_ptr<Bucket[]> buckets_;
    std::uint32_t mask_ = 0;
};

}  // namespace weft::ars
