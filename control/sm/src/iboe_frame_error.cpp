#include "weft/sm/iboe_frame_error.hpp"

#include <cstdio>
#include <numeric>

namespace weft::sm {

namespace {

struct DropText {
    const char *name;
    const char *field;
};

// In FrameDrop's order.
constexpr DropText kText[kFrameDropCount] = {
    {"eth_truncated", "Ethernet header"},
    {"vlan_truncated", "VLAN tag"},
    {"not_iboe", "EtherType"},
    {"lrh_truncated", "LRH"},
    {"lrh_bad_version", "LRH.LVer"},
    {"lrh_raw_packet", "LRH.LNH"},
    {"lrh_bad_pkt_len", "LRH.PktLen"},
    {"lrh_pkt_len_past_frame", "LRH.PktLen"},
    {"grh_truncated", "GRH"},
    {"grh_bad_version", "GRH.IPVer"},
    {"grh_not_iba", "GRH.NxtHdr"},
    {"bth_truncated", "BTH"},
    {"bth_not_ud_send_only", "BTH.OpCode"},
    {"bth_bad_version", "BTH.TVer"},
    {"deth_truncated", "DETH"},
    {"pad_past_payload", "BTH.PadCnt"},
    {"bad_icrc", "ICRC"},
    {"mad_bad_length", "MAD"},
    {"vl15_not_qp0", "BTH.DestQP"},
    {"qp0_not_vl15", "LRH.VL"},
    {"not_management_qp", "BTH.DestQP"},
};

}  // namespace

const char *frame_drop_name(FrameDrop reason) {
    const auto i = static_cast<std::size_t>(reason);
    return i < kFrameDropCount ? kText[i].name : "?";
}

const char *frame_drop_field(FrameDrop reason) {
    const auto i = static_cast<std::size_t>(reason);
    return i < kFrameDropCount ? kText[i].field : "?";
}

std::string FrameError::message() const {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s at byte %zu = 0x%llx: %s", frame_drop_field(reason), offset,
                  static_cast<unsigned long long>(value), frame_drop_name(reason));
    return buf;
}

std::uint64_t FrameDropCounters::total() const {
    return std::accumulate(by_reason.begin(), by_reason.end(), std::uint64_t{0});
}

}  // namespace weft::sm
