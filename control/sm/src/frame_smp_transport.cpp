#include "weft/sm/frame_smp_transport.hpp"

#include <algorithm>

namespace weft::sm {

namespace {

// Frames one receive() takes at most before it returns: a wire that never goes quiet (wait 0
// and a frame always there) cannot keep the engine from its deadlines.
constexpr int kFramesPerReceive = 256;

}  // namespace

FrameSmpTransport::FrameSmpTransport(SmaFrameAgent &agent, FramePorts &ports, Clock clock, PortNum sm_port)
    : agent_(agent), ports_(ports), clock_(std::move(clock)), sm_port_(sm_port) {}

void FrameSmpTransport::take(std::optional<SmpForSm> s) {
    if (s) for_sm_.push_back(*s);
}

bool FrameSmpTransport::send(const OutgoingSmp &smp) {
    const Lid dlid = smp.directed ? kPermissiveLid : smp.dlid;
    const std::uint64_t failed = agent_.counters().send_failed;
    take(agent_.originate(sm_port_, smp.bytes, clock_(), dlid));
    if (agent_.counters().send_failed != failed) {
        error_ = "a frame port refused the SMP's frame";
        return false;
    }
    // Dropped by the node's own Sma (a path out of a port that is down...): no reply will come,
    // as on an InfiniBand fabric; the engine times it out.
    return true;
}

void FrameSmpTransport::on_frame(PortNum in_port, std::span<const std::uint8_t> frame) {
    take(agent_.on_frame(in_port, frame, clock_()));
}

void FrameSmpTransport::poll() {
    take(agent_.poll(clock_()));
}

std::optional<ReceivedSmp> FrameSmpTransport::receive(std::chrono::milliseconds wait) {
    const SmaTime deadline = clock_() + wait;
    for (int frames = 0; for_sm_.empty() && frames < kFramesPerReceive; ++frames) {
        const auto left = std::max(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_()),
                                   std::chrono::milliseconds(0));
        std::optional<ReceivedFrame> f = ports_.receive(left);
        if (!f) {
            poll();
            break;
        }
        on_frame(f->port, f->bytes);
    }
    if (for_sm_.empty()) return std::nullopt;
    ReceivedSmp r;
    r.kind = ReceiveKind::kMad;
    r.bytes = for_sm_.front().bytes;
    r.length = kSmpSize;
    r.slid = for_sm_.front().slid;
    for_sm_.pop_front();
    return r;
}

}  // namespace weft::sm
