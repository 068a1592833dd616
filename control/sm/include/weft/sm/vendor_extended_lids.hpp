// WeftExtendedLids (vendor attribute 0xFFC4, Get, modifier 0): whether a switch forwards seed
// 002's vLIDs (18-bit LIDs 0x10000..0x3FFFF) by a secondary LFT, and how many. An SM sends
// LinearForwardingTable blocks 1024..4095 (the vLIDs' blocks) only to a switch whose answer
// carries weft's magic and a capacity; every other switch (another vendor's, ibsim's) answers
// "unsupported attribute" and is legacy: if any switch of the fabric is, VMs take LIDs of the
// 16-bit space (seed 002's legacy compatibility mode). Layout in VENDOR_ATTRIBUTES.md.
#pragma once

#include <cstdint>
#include <span>

#include "weft/sm/linear_forwarding_table.hpp"
#include "weft/sm/smp.hpp"
#include "weft/sm/vendor_attributes.hpp"

namespace weft::sm {

namespace attr {
// Beside vendor_attributes.hpp's four: weft takes 0xFFC0-0xFFC4.
inline constexpr std::uint16_t kWeftExtendedLids = 0xFFC4;  // Get: the vLID space a switch forwards
}  // namespace attr

struct ExtendedLids {
    static constexpr std::uint16_t kAttributeId = attr::kWeftExtendedLids;

    std::uint32_t magic = kWeftMagic;  // anything else: not a weft switch
    std::uint8_t version = kWeftFormatVersion;
    // vLIDs the secondary LFT holds, from kFirstVlid: 0 (none) .. 196608, a multiple of 64.
    std::uint32_t vlid_cap = 0;
    std::uint32_t vlft_top = 0;  // the highest vLID with an entry (0: none)

    std::uint32_t vlid_end() const { return kFirstVlid + vlid_cap; }  // one past the last vLID held
    friend bool operator==(const ExtendedLids &, const ExtendedLids &) = default;
};

inline constexpr std::uint32_t kMaxVlidCap = kMaxVlid - kFirstVlid + 1;  // 196608

// Checked: weft's magic and format version, the capacity within the vLID space and whole blocks,
// the top 0 or a vLID within it.
Result<ExtendedLids> decode_extended_lids(std::span<const std::uint8_t> data, std::uint32_t attr_mod = 0);
Result<ExtendedLids> decode_extended_lids(const Smp &smp);
Result<SmpData> encode_extended_lids(const ExtendedLids &e);

}  // namespace weft::sm
