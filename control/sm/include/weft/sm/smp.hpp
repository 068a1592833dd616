// The subnet management packet (IBA 14.2.1): 256 bytes, LID-routed (class 0x01) or directed
// route (class 0x81, with hop pointer and count, initial and return paths, DrSLID/DrDLID and the
// D bit). The attribute's 64 bytes are carried raw in `data`; the attribute headers
// (node_info.hpp, port_info.hpp, ...) give them types.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "weft/sm/lid.hpp"
#include "weft/sm/smp_error.hpp"

namespace weft::sm {

inline constexpr std::size_t kSmpSize = 256;
inline constexpr std::size_t kSmpDataSize = 64;
inline constexpr std::size_t kSmpDataOffset = 64;
inline constexpr unsigned kMaxHops = 63;  // the paths hold 64 bytes and entry 0 is unused

enum class MgmtClass : std::uint8_t { kLidRouted = 0x01, kDirectedRoute = 0x81 };

enum class Method : std::uint8_t {
    kGet = 0x01,
    kSet = 0x02,
    kGetResp = 0x81,
    kTrap = 0x05,
    kTrapRepress = 0x07,
};

// Attribute IDs the SM uses (IBA table 145).
namespace attr {
inline constexpr std::uint16_t kNotice = 0x0002;
inline constexpr std::uint16_t kNodeDescription = 0x0010;
inline constexpr std::uint16_t kNodeInfo = 0x0011;
inline constexpr std::uint16_t kSwitchInfo = 0x0012;
inline constexpr std::uint16_t kPortInfo = 0x0015;
inline constexpr std::uint16_t kSlToVlTable = 0x0017;
inline constexpr std::uint16_t kLinearForwardingTable = 0x0019;
inline constexpr std::uint16_t kMulticastForwardingTable = 0x001B;
inline constexpr std::uint16_t kSmInfo = 0x0020;
}  // namespace attr

// MAD status (IBA 13.4.7): bits 2-4 carry the reason of an error reply.
namespace status {
inline constexpr std::uint16_t kBusy = 0x0001;
inline constexpr std::uint16_t kRedirect = 0x0002;
inline constexpr std::uint16_t kBadVersion = 0x0004;
inline constexpr std::uint16_t kUnsupportedMethod = 0x0008;
inline constexpr std::uint16_t kUnsupportedMethodAttr = 0x000C;
inline constexpr std::uint16_t kInvalidField = 0x001C;
}  // namespace status

using SmpData = std::array<std::uint8_t, kSmpDataSize>;
using SmpBytes = std::array<std::uint8_t, kSmpSize>;
using DrPathBytes = std::array<std::uint8_t, 64>;

struct Smp {
    MgmtClass mgmt_class = MgmtClass::kDirectedRoute;
    Method method = Method::kGet;
    std::uint16_t status = 0;  // 15 bits in a directed-route SMP (the D bit is the 16th)
    bool direction = false;    // D bit (directed route only): set on the way back
    std::uint8_t hop_pointer = 0;
    std::uint8_t hop_count = 0;
    std::uint64_t tid = 0;
    std::uint16_t attr_id = 0;
    std::uint32_t attr_mod = 0;
    std::uint64_t m_key = 0;
    Lid dr_slid = kPermissiveLid;  // directed route only
    Lid dr_dlid = kPermissiveLid;
    SmpData data{};
    DrPathBytes initial_path{};  // directed route only; entry i is the port out of hop i
    DrPathBytes return_path{};

    bool directed() const { return mgmt_class == MgmtClass::kDirectedRoute; }
    bool is_response() const { return (static_cast<std::uint8_t>(method) & 0x80) != 0; }
    friend bool operator==(const Smp &, const Smp &) = default;
};

// Checks and encodes: base and class version 1, a known class and method, hop count <= 63 and
// hop pointer <= hop count + 1, path ports <= 254 for the hops used, DrSLID/DrDLID unicast,
// 0 or permissive, a 15-bit status in directed-route SMPs, traps LID-routed.
Result<SmpBytes> encode_smp(const Smp &smp);

// The inverse of encode_smp for outside input: anything but exactly 256 bytes of a valid SMP
// gives a located error. Reserved bytes are ignored (IBA: receivers ignore them), so
// encode(decode(b)) equals b with its reserved bytes cleared.
Result<Smp> decode_smp(std::span<const std::uint8_t> bytes);

// A directed-route request from the SM's own port: `path` holds the port out of each hop (hop 1
// first; empty addresses the SM's own node), DrSLID/DrDLID permissive.
Smp make_dr_smp(Method method, std::uint16_t attr_id, std::uint32_t attr_mod,
                std::span<const std::uint8_t> path, std::uint64_t tid);

// A LID-routed request (the destination LID travels in the transport's address).
Smp make_lid_smp(Method method, std::uint16_t attr_id, std::uint32_t attr_mod, std::uint64_t tid);

// The reply an SMA would send to `request`: GetResp, the D bit set on directed-route SMPs.
Smp make_response(const Smp &request, const SmpData &data, std::uint16_t status = 0);

// Names for logs and counters: "NodeInfo", "Get"; unknown ones as "0x0030".
std::string attribute_name(std::uint16_t attr_id);
bool is_known_method(std::uint8_t method);  // one of the SM class's methods IBA defines
std::string method_name(Method method);

// Checks that `smp` carries attribute `attr_id` and a zero status: the first step of every
// attribute decoder that takes an SMP.
std::optional<SmpError> check_attribute(const Smp &smp, std::uint16_t attr_id);

}  // namespace weft::sm
