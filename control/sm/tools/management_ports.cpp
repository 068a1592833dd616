#include "management_ports.hpp"

#include <algorithm>

#include "weft/sm/mad_frame.hpp"

namespace weft::sm::tools {

std::optional<ReceivedFrame> ManagementPorts::receive(std::chrono::milliseconds wait) {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point until = Clock::now() + wait;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
        std::optional<ReceivedFrame> f = inner_.receive(std::max(left, std::chrono::milliseconds(0)));
        if (!f) return f;
        const IboeDecode d = decode_iboe_frame(f->bytes, config_);
        // Malformed frames go on to the SMA's agent, which counts them by reason.
        if (!d || d.packet.headers.dest_qp == kSmiQp || d.packet.headers.dest_qp == kGsiQp) {
            if (d && d.packet.headers.vl == kSmpVl) neighbour_ = d.packet.headers.src_mac;
            return f;
        }
        ++data_frames_;
        data_(d.packet);
    }
}

}  // namespace weft::sm::tools
