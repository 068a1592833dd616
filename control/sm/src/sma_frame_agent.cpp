#include "weft/sm/sma_frame_agent.hpp"

#include "weft/sm/mad_frame.hpp"

namespace weft::sm {

SmaFrameAgent::SmaFrameAgent(Sma &sma, FramePorts &ports, IboeFrameConfig config)
    : sma_(sma), ports_(ports), config_(config), frame_(kSmpFrameSize) {}

std::optional<SmpForSm> SmaFrameAgent::on_frame(PortNum in_port, std::span<const std::uint8_t> frame,
                                                SmaTime now) {
    ++counters_.frames_in;
    const IboeDecode d = decode_mad_frame(frame, config_);
    if (!d) {
        counters_.refused.add(d.error->reason);
        return std::nullopt;
    }
    const IboeHeaders &h = d.packet.headers;
    if (h.dest_qp != kSmiQp) {
        ++counters_.gsi_ignored;
        return std::nullopt;
    }
    ++counters_.smps_in;
    last_slid_ = h.slid;
    return emit(sma_.handle(in_port, d.packet.payload, now, SmaLrh{h.slid, h.dlid}));
}

std::optional<SmpForSm> SmaFrameAgent::originate(PortNum sm_port, std::span<const std::uint8_t> mad,
                                                 SmaTime now, Lid dlid) {
    last_slid_ = sma_.lid();
    return emit(sma_.originate(sm_port, mad, now, dlid));
}

std::optional<SmpForSm> SmaFrameAgent::poll(SmaTime now) {
    last_slid_ = sma_.lid();
    if (std::optional<SmaOutput> o = sma_.poll(now)) return emit(*o);
    return std::nullopt;
}

std::optional<SmpForSm> SmaFrameAgent::set_link(PortNum port, bool up, SmaTime now, SmaLinkRate rate) {
    last_slid_ = sma_.lid();
    if (std::optional<SmaOutput> o = sma_.set_link(port, up, now, rate)) return emit(*o);
    return std::nullopt;
}

std::optional<SmpForSm> SmaFrameAgent::emit(const SmaOutput &out) {
    if (out.action == SmaAction::kToSm) return SmpForSm{out.bytes, last_slid_};
    if (out.action != SmaAction::kSend) return std::nullopt;
    const IboeHeaders h = smp_frame_headers(ports_.mac(out.port), out.lrh.slid, out.lrh.dlid, psn_++);
    const std::size_t n = encode_iboe_frame(h, out.bytes, frame_, config_);
    if (ports_.send(out.port, std::span(frame_).first(n)))
        ++counters_.frames_out;
    else
        ++counters_.send_failed;
    return std::nullopt;
}

}  // namespace weft::sm
