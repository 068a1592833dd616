// The tables a snapshot shares with its predecessors and successors. The LPM tables are one pair
// for the builder's lifetime, changed in place (lpm_table.hpp); the LID tables are made anew
// when they change. Private to the library: the snapshot exposes lookups, never these objects.
#pragma once

#include <cstdint>
#include <vector>

#include "lpm_table.hpp"
#include "weft/dataplane/fib_snapshot.hpp"
#include "weft/dataplane/limits.hpp"

namespace weft::dataplane {

class Fib4Table : public Lpm4 {
  public:
    using Lpm4::Lpm4;
};

class Fib6Table : public Lpm6 {
  public:
    using Lpm6::Lpm6;
};

// Flat LFT and MFT. LFT words: kind in bits 30-31 (LftTarget::Kind), value in bits 0-29. The
// secondary LFT (vLIDs from kFirstVlid) is as long as its highest entry needs: empty on a fabric
// without vLIDs.
struct LidTables {
    std::vector<std::uint32_t> lft = std::vector<std::uint32_t>(kMaxUnicastLid + 1u, 0);
    std::vector<std::uint32_t> vlft;
    std::vector<PortMask> mft = std::vector<PortMask>(kLastMulticastLid - kFirstMulticastLid + 1u);

    static std::uint32_t encode(LftTarget t) noexcept {
        return (static_cast<std::uint32_t>(t.kind) << 30) | (t.value & 0x3FFFFFFFu);
    }
};

}  // namespace weft::dataplane
