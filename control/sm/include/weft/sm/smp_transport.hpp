// How SMPs reach the fabric: the one interface between the SM core and a transport (rdma-core's
// umad here; IB-over-Ethernet frames through weft's own ports next). A transport moves encoded
// SMPs and reports what came back; matching replies to requests, the window of SMPs on the wire,
// retries and counting are SmpEngine's, above every transport.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "weft/sm/lid.hpp"
#include "weft/sm/smp.hpp"

namespace weft::sm {

// Transports may own the upper 32 bits of the TID (the kernel's umad agent writes its own ID
// there), so requests are told apart by the lower 32 bits only.
inline constexpr std::uint64_t kTidMask = 0xFFFF'FFFFull;

struct OutgoingSmp {
    SmpBytes bytes{};
    std::uint64_t tid = 0;                 // as in bytes
    bool directed = true;                  // class 0x81 (else 0x01)
    Lid dlid = kPermissiveLid;             // LID-routed SMPs: the destination; directed route: permissive
    std::chrono::milliseconds timeout{0};  // the transport's own wait for the reply, 0: none
};

enum class ReceiveKind : std::uint8_t {
    kMad,         // a MAD from the wire: a response, or an unsolicited trap (bytes not yet checked)
    kTimedOut,    // the transport gave up waiting for the reply to request `tid`
    kSendFailed,  // the transport could not put request `tid` on the wire (`error` says why)
};

struct ReceivedSmp {
    ReceiveKind kind = ReceiveKind::kMad;
    std::uint64_t tid = 0;  // kTimedOut, kSendFailed: the request's
    SmpBytes bytes{};       // kMad: the first `length` bytes are the MAD
    std::size_t length = 0;
    Lid slid = 0;       // kMad: where it came from (LID-routed traffic)
    std::string error;  // kSendFailed
};

class SmpTransport {
  public:
    virtual ~SmpTransport() = default;

    // Puts one SMP on the wire; false when it cannot (error() says why).
    virtual bool send(const OutgoingSmp &smp) = 0;

    // Waits up to `wait` (0: do not wait) for the next MAD or report.
    virtual std::optional<ReceivedSmp> receive(std::chrono::milliseconds wait) = 0;

    virtual const std::string &error() const = 0;
};

}  // namespace weft::sm
