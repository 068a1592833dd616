#include "weft/sm/mad_frame.hpp"

namespace weft::sm {

IboeHeaders smp_frame_headers(const MacAddr &src_mac, Lid slid, Lid dlid, std::uint32_t psn) {
    IboeHeaders h;
    h.dst_mac = kSmpGroupMac;
    h.src_mac = src_mac;
    h.vl = kSmpVl;
    h.sl = 0;
    h.dlid = dlid;
    h.slid = slid;
    h.p_key = kDefaultPKey;
    h.dest_qp = kSmiQp;
    h.src_qp = kSmiQp;
    h.q_key = 0;
    h.psn = psn & 0xFFFFFF;
    return h;
}

IboeDecode decode_mad_frame(std::span<const std::uint8_t> frame, const IboeFrameConfig &config) {
    IboeDecode d = decode_iboe_frame(frame, config);
    if (!d) return d;
    const IboeHeaders &h = d.packet.headers;
    const std::size_t lrh = d.packet.lrh_offset;
    const std::size_t bth = lrh + kLrhSize + (h.grh ? kGrhSize : 0);
    auto refuse = [&d](FrameDrop reason, std::size_t offset, std::uint64_t value) {
        d.error = FrameError{reason, offset, value};
        return d;
    };
    if (h.vl == kSmpVl && h.dest_qp != kSmiQp) return refuse(FrameDrop::kVl15NotQp0, bth + 5, h.dest_qp);
    if (h.dest_qp == kSmiQp && h.vl != kSmpVl) return refuse(FrameDrop::kQp0NotVl15, lrh, h.vl);
    if (h.dest_qp != kSmiQp && h.dest_qp != kGsiQp)
        return refuse(FrameDrop::kNotManagementQp, bth + 5, h.dest_qp);
    if (d.packet.payload.size() != kSmpSize)
        return refuse(FrameDrop::kMadBadLength, bth + kBthSize + kDethSize, d.packet.payload.size());
    return d;
}

}  // namespace weft::sm
