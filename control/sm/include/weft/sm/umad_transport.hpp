// SmpTransport over rdma-core's libibumad, as an SM uses it: the port's umad device opened,
// agents registered for the SMI classes (0x81 directed route, 0x01 LID-routed, the latter also
// receiving Trap and TrapRepress), SMPs sent to QP0 with the kernel tracking each reply by TID
// and reporting timeouts. Runs on real HCAs and on ibsim through libumad2sim.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "weft/sm/smp_transport.hpp"

namespace weft::sm {

struct UmadPortInfo {
    std::string ca_name;
    int port_num = 0;
    Lid lid = 0;
    Lid sm_lid = 0;
    std::uint8_t lmc = 0;
    std::uint8_t state = 0;  // 1 Down .. 4 Active
    std::uint64_t port_guid = 0;
};

class UmadError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class UmadTransport final : public SmpTransport {
  public:
    // `ca_name` empty and `port` 0: the first port with a link, as OpenSM picks by default.
    // `claim_sm`: also open the port's issm device, which sets IsSM in the port's capability mask
    // (the fabric then sends this port its traps), as a running SM does.
    // Throws UmadError with what failed and why (no device, no permission, ...).
    UmadTransport(const std::string &ca_name, int port, int retries = 0, bool claim_sm = false);
    ~UmadTransport() override;
    UmadTransport(const UmadTransport &) = delete;
    UmadTransport &operator=(const UmadTransport &) = delete;

    bool send(const OutgoingSmp &smp) override;
    std::optional<ReceivedSmp> receive(std::chrono::milliseconds wait) override;
    const std::string &error() const override { return error_; }

    const UmadPortInfo &port() const { return port_; }

  private:
    void release();

    int port_id_ = -1;
    int issm_fd_ = -1;
    int dr_agent_ = -1;
    int lid_agent_ = -1;
    int retries_ = 0;
    UmadPortInfo port_;
    std::string error_;
};

}  // namespace weft::sm
