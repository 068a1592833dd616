// The data weft-ca sends and counts: UD SEND_ONLY datagrams addressed by LID to QP kCaDataQp, whose
// payload starts with a magic, a sequence number (per sender, from 0) and the send time. A
// receiver keeps, per source LID, what arrived: how many, the highest sequence number, how many
// came out of order; frames for another LID are counted as misdelivered, not taken.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <span>

#include "weft/sm/iboe_frame.hpp"

namespace weft::sm::tools {

inline constexpr std::uint32_t kCaDataQp = 2;
inline constexpr std::uint32_t kCaDataQKey = 0x0000'CA01;
inline constexpr std::array<std::uint8_t, 8> kCaMagic{'w', 'e', 'f', 't', '-', 'c', 'a', 0};
inline constexpr std::size_t kCaPayloadMin = 24;  // magic, sequence, send time

struct CaDatagram {
    std::uint64_t seq = 0;
    std::uint64_t sent_ns = 0;  // the sender's steady clock
};

// Writes `d` into the first 24 bytes of `payload` (at least that long); the rest is left as is.
void encode_ca_payload(const CaDatagram &d, std::span<std::uint8_t> payload);
// Outside input: nullopt unless it starts with the magic and is long enough.
std::optional<CaDatagram> decode_ca_payload(std::span<const std::uint8_t> payload);

struct CaFlow {
    std::uint64_t received = 0;
    std::uint64_t highest = 0;    // the highest sequence number seen
    std::uint64_t reordered = 0;  // arrived after a higher one
    // Sequence numbers below the highest that have not arrived (duplicates not told apart).
    std::uint64_t missing() const {
        return received && received - 1 <= highest ? highest - (received - 1) : 0;
    }
};

struct CaReceiveCounters {
    std::uint64_t taken = 0;
    std::uint64_t misdelivered = 0;  // DLID not this port's LID (or no LID yet)
    std::uint64_t other_qp = 0;      // not for kCaDataQp
    std::uint64_t not_ca_data = 0;   // for kCaDataQp, without weft-ca's payload
};

class CaReceiver {
  public:
    // A decoded data frame; `own_lid` is this port's LID now (0: none yet).
    void take(const IboePacket &p, Lid own_lid);
    const std::map<Lid, CaFlow> &flows() const { return flows_; }
    const CaReceiveCounters &counters() const { return counters_; }
    std::uint64_t received() const { return counters_.taken; }

  private:
    std::map<Lid, CaFlow> flows_;
    CaReceiveCounters counters_;
};

}  // namespace weft::sm::tools
