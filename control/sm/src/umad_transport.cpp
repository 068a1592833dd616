// The issm device is opened through the plain `open` symbol, as libibumad and OpenSM do:
// libumad2sim (ibsim's stand-in for the umad devices) intercepts `open`, and the build's
// _FILE_OFFSET_BITS=64 would turn the call into open64, which it does not see. Nothing here
// depends on the size of off_t (64 bits on the LP64 targets either way).
#undef _FILE_OFFSET_BITS

#include "weft/sm/umad_transport.hpp"

#include <endian.h>
#include <fcntl.h>
#include <infiniband/umad.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace weft::sm {

namespace {

constexpr int kQp0 = 0;
constexpr int kSmpClassVersion = 1;

std::string describe(const char *what, int rc) {
    return std::string(what) + ": " + std::strerror(rc < 0 ? -rc : rc);
}

// The bytes libibumad hands to and takes from the kernel: its header, then the MAD.
struct UmadBuffer {
    std::vector<std::uint8_t> raw = std::vector<std::uint8_t>(umad_size() + kSmpSize);
    void *get() { return raw.data(); }
    std::uint8_t *mad() { return static_cast<std::uint8_t *>(umad_get_mad(raw.data())); }
};

}  // namespace

UmadTransport::UmadTransport(const std::string &ca_name, int port, int retries, bool claim_sm)
    : retries_(retries) {
    if (umad_init() < 0) throw UmadError("umad_init failed: is rdma-core's umad (or libumad2sim) there?");
    const char *ca = ca_name.empty() ? nullptr : ca_name.c_str();
    umad_port_t info{};
    if (const int rc = umad_get_port(ca, port, &info); rc < 0)
        throw UmadError(describe(("umad_get_port(" + (ca_name.empty() ? std::string("any") : ca_name) + ", " +
                                  std::to_string(port) + ")")
                                     .c_str(),
                                 rc));
    port_.ca_name = info.ca_name;
    port_.port_num = info.portnum;
    port_.lid = static_cast<Lid>(info.base_lid);
    port_.sm_lid = static_cast<Lid>(info.sm_lid);
    port_.lmc = static_cast<std::uint8_t>(info.lmc);
    port_.state = static_cast<std::uint8_t>(info.state);
    port_.port_guid = be64toh(info.port_guid);
    umad_release_port(&info);

    port_id_ = umad_open_port(port_.ca_name.c_str(), port_.port_num);
    if (port_id_ < 0)
        throw UmadError(describe(
            ("umad_open_port(" + port_.ca_name + ", " + std::to_string(port_.port_num) + ")").c_str(),
            port_id_));
    // Directed route: replies only. LID-routed: replies, and the traps SMAs send to the SM.
    dr_agent_ =
        umad_register(port_id_, static_cast<int>(MgmtClass::kDirectedRoute), kSmpClassVersion, 0, nullptr);
    long trap_methods[16 / sizeof(long)] = {};
    for (const Method m : {Method::kTrap, Method::kTrapRepress}) {
        const auto bit = static_cast<unsigned>(m);
        trap_methods[bit / (8 * sizeof(long))] |= 1L << (bit % (8 * sizeof(long)));
    }
    lid_agent_ =
        umad_register(port_id_, static_cast<int>(MgmtClass::kLidRouted), kSmpClassVersion, 0, trap_methods);
    if (dr_agent_ < 0 || lid_agent_ < 0) {
        const int rc = dr_agent_ < 0 ? dr_agent_ : lid_agent_;
        release();
        throw UmadError(describe(("umad_register(SMI classes on " + port_.ca_name + " port " +
                                  std::to_string(port_.port_num) + "; another SM running?)")
                                     .c_str(),
                                 rc));
    }
    if (claim_sm) {
        char path[256];
        if (const int rc = umad_get_issm_path(port_.ca_name.c_str(), port_.port_num, path, sizeof path);
            rc < 0) {
            release();
            throw UmadError(describe("umad_get_issm_path", rc));
        }
        issm_fd_ = ::open(path, O_RDWR);
        if (issm_fd_ < 0) {
            const int err = errno;
            release();
            throw UmadError(describe((std::string("open ") + path + " (IsSM)").c_str(), err));
        }
    }
}

void UmadTransport::release() {
    if (issm_fd_ >= 0) ::close(issm_fd_);
    if (lid_agent_ >= 0) umad_unregister(port_id_, lid_agent_);
    if (dr_agent_ >= 0) umad_unregister(port_id_, dr_agent_);
    if (port_id_ >= 0) umad_close_port(port_id_);
    issm_fd_ = lid_agent_ = dr_agent_ = port_id_ = -1;
}

UmadTransport::~UmadTransport() {
    release();
}
bool UmadTransport::send(const OutgoingSmp &smp) {
    UmadBuffer buf;
    std::memcpy(buf.mad(), smp.bytes.data(), kSmpSize);
    umad_set_addr(buf.get(), smp.directed ? 0xFFFF : smp.dlid, kQp0, 0, 0);
    const int agent = smp.directed ? dr_agent_ : lid_agent_;
    const int rc = umad_send(port_id_, agent, buf.get(), static_cast<int>(kSmpSize),
                             static_cast<int>(smp.timeout.count()), retries_);
    if (rc < 0) {
        error_ = describe("umad_send", rc);
        return false;
    }
    return true;
}

std::optional<ReceivedSmp> UmadTransport::receive(std::chrono::milliseconds wait) {
    UmadBuffer buf;
    int length = static_cast<int>(kSmpSize);
    const int rc = umad_recv(port_id_, buf.get(), &length, static_cast<int>(wait.count()));
    if (rc == -ETIMEDOUT || rc == -EAGAIN || rc == -EINTR) return std::nullopt;
    ReceivedSmp out;
    if (rc < 0) {
        // The MAD did not fit the buffer or the device failed: report it as a MAD too short to
        // decode, so it is counted as malformed.
        error_ = describe("umad_recv", rc);
        out.length = 0;
        return out;
    }
    const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(length), kSmpSize);
    std::memcpy(out.bytes.data(), buf.mad(), n);
    out.length = static_cast<std::size_t>(length);
    out.tid = n >= 16 ? be64toh([&] {
        std::uint64_t t;
        std::memcpy(&t, out.bytes.data() + 8, sizeof t);
        return t;
    }())
                      : 0;
    out.slid = be16toh(umad_get_mad_addr(buf.get())->lid);
    // A send whose reply never came comes back with its status set.
    if (const int status = umad_status(buf.get()); status != 0) {
        out.kind = status == ETIMEDOUT ? ReceiveKind::kTimedOut : ReceiveKind::kSendFailed;
        if (out.kind == ReceiveKind::kSendFailed) out.error = describe("umad send status", status);
    }
    return out;
}

}  // namespace weft::sm
