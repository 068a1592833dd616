// WeftArnGroup (vendor attribute 0xFFC5, Get/Set): the switch's dragonfly group as the SM found it,
// for ARN (arn/ARN_FORMAT.md): the group's local links (its prefix-multicast tree is built over
// them), its global links and the group at the far end of each, and which of the switch's next-hop
// groups lead to which destination group. Block b (the attribute modifier) holds entries 3b..3b+2;
// how many there are is WeftFibState's, and the entries go into the staging table with the groups
// and routes and become active with them at the Commit (vendor_fib_state.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "weft/sm/lid.hpp"
#include "weft/sm/smp.hpp"
#include "weft/sm/vendor_attributes.hpp"

namespace weft::sm {

inline constexpr unsigned kArnEntriesPerBlock = 3;
inline constexpr std::uint32_t kMaxArnBlock = 0x5554;  // entries 0..65535
inline constexpr std::uint32_t kMaxArnEntries = 0xFFFF;

enum class ArnEntryKind : std::uint8_t {
    kEmpty = 0,
    kLocalLink = 1,    // switch a's port_a is cabled to switch b's port_b, both in the group
    kGlobalLink = 2,   // switch a's port_a leads to group `group`
    kDestination = 3,  // next-hop group `nhg` of this switch leads to group `group`
};

struct ArnGroupEntry {
    ArnEntryKind kind = ArnEntryKind::kEmpty;
    std::uint64_t a = 0;  // node GUIDs
    PortNum port_a = 0;   // ports as the SM numbers them (1..254)
    std::uint64_t b = 0;
    PortNum port_b = 0;
    std::uint16_t group = 0;  // a dragonfly group, as the SM numbers them
    std::uint16_t nhg = 0;    // a WeftNextHopGroup id
    auto operator<=>(const ArnGroupEntry &) const = default;
};

struct ArnGroupBlock {
    static constexpr std::uint16_t kAttributeId = attr::kWeftArnGroup;

    std::uint16_t block = 0;
    std::array<ArnGroupEntry, kArnEntriesPerBlock> entries{};

    std::uint32_t attr_mod() const { return block; }
    friend bool operator==(const ArnGroupBlock &, const ArnGroupBlock &) = default;
};

// Checked: block <= kMaxArnBlock; each entry empty (all zero) or of a known kind with the fields
// it uses in range (GUIDs not 0 and a link's two ends apart, ports 1..254, a next-hop group id
// 1..65535) and the others zero.
Result<ArnGroupBlock> decode_arn_group_block(std::span<const std::uint8_t> data, std::uint32_t attr_mod);
Result<ArnGroupBlock> decode_arn_group_block(const Smp &smp);
Result<SmpData> encode_arn_group_block(const ArnGroupBlock &block);

}  // namespace weft::sm
