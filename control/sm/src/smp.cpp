#include "weft/sm/smp.hpp"

#include <algorithm>
#include <cstdio>

#include "bit_fields.hpp"
#include "weft/sm/vendor_attributes.hpp"

namespace weft::sm {

namespace {

using detail::get_bits;
using detail::set_bits;

constexpr std::uint8_t kBaseVersion = 1;
constexpr std::uint8_t kClassVersion = 1;

// Byte offsets (IBA 14.2.1.1 and 14.2.1.2).
constexpr std::size_t kDrSlidOffset = 32;
constexpr std::size_t kDrDlidOffset = 34;
constexpr std::size_t kInitialPathOffset = 128;
constexpr std::size_t kReturnPathOffset = 192;

// Every check encoding and decoding share; the bytes-only ones (versions, size) are in decode.
std::optional<SmpError> check(const Smp &smp) {
    const auto cls = static_cast<std::uint8_t>(smp.mgmt_class);
    if (smp.mgmt_class != MgmtClass::kLidRouted && smp.mgmt_class != MgmtClass::kDirectedRoute)
        return SmpError{"SMP.mgmt_class", cls, "0x01 (LID-routed) or 0x81 (directed route)"};
    const auto method = static_cast<std::uint8_t>(smp.method);
    if (!is_known_method(method))
        return SmpError{"SMP.method", method, "Get, Set, GetResp, Trap or TrapRepress"};
    if (!smp.directed()) {
        // Fields a LID-routed SMP does not carry: left at zero, so decoding gives back what was
        // encoded.
        if (smp.direction) return SmpError{"SMP.direction", 1, "0 in a LID-routed SMP"};
        if (smp.hop_pointer != 0 || smp.hop_count != 0)
            return SmpError{"SMP.hop_count", smp.hop_count, "0 in a LID-routed SMP"};
        if (smp.dr_slid != 0) return SmpError{"SMP.dr_slid", smp.dr_slid, "0 in a LID-routed SMP"};
        if (smp.dr_dlid != 0) return SmpError{"SMP.dr_dlid", smp.dr_dlid, "0 in a LID-routed SMP"};
        const auto nonzero = [](std::uint8_t x) { return x != 0; };
        if (std::any_of(smp.initial_path.begin(), smp.initial_path.end(), nonzero) ||
            std::any_of(smp.return_path.begin(), smp.return_path.end(), nonzero))
            return SmpError{"SMP.initial_path", 1, "no path in a LID-routed SMP"};
        return std::nullopt;
    }
    if (smp.method == Method::kTrap || smp.method == Method::kTrapRepress)
        return SmpError{"SMP.method", method, "Trap/TrapRepress only in LID-routed SMPs"};
    if (smp.status > 0x7FFF) return SmpError{"SMP.status", smp.status, "15 bits in a directed-route SMP"};
    if (smp.hop_count > kMaxHops) return SmpError{"SMP.hop_count", smp.hop_count, "0..63"};
    if (smp.hop_pointer > smp.hop_count + 1u)
        return SmpError{"SMP.hop_pointer", smp.hop_pointer, "0..hop_count+1"};
    if (is_multicast_lid(smp.dr_slid))
        return SmpError{"SMP.dr_slid", smp.dr_slid, "a unicast or the permissive LID"};
    if (is_multicast_lid(smp.dr_dlid))
        return SmpError{"SMP.dr_dlid", smp.dr_dlid, "a unicast or the permissive LID"};
    for (unsigned hop = 1; hop <= smp.hop_count; ++hop) {
        if (smp.initial_path[hop] > kMaxPortNum)
            return SmpError{"SMP.initial_path[hop]", smp.initial_path[hop], "a port number 0..254"};
    }
    return std::nullopt;
}

}  // namespace

Result<SmpBytes> encode_smp(const Smp &smp) {
    if (auto err = check(smp)) return *err;
    SmpBytes b{};
    b[0] = kBaseVersion;
    b[1] = static_cast<std::uint8_t>(smp.mgmt_class);
    b[2] = kClassVersion;
    b[3] = static_cast<std::uint8_t>(smp.method);
    if (smp.directed()) {
        set_bits(b, 32, 1, smp.direction ? 1 : 0);
        set_bits(b, 33, 15, smp.status);
        b[6] = smp.hop_pointer;
        b[7] = smp.hop_count;
    } else {
        set_bits(b, 32, 16, smp.status);
    }
    set_bits(b, 64, 64, smp.tid);
    set_bits(b, 128, 16, smp.attr_id);
    set_bits(b, 160, 32, smp.attr_mod);
    set_bits(b, 192, 64, smp.m_key);
    std::copy(smp.data.begin(), smp.data.end(), b.begin() + kSmpDataOffset);
    if (smp.directed()) {
        set_bits(b, kDrSlidOffset * 8, 16, smp.dr_slid);
        set_bits(b, kDrDlidOffset * 8, 16, smp.dr_dlid);
        std::copy(smp.initial_path.begin(), smp.initial_path.end(), b.begin() + kInitialPathOffset);
        std::copy(smp.return_path.begin(), smp.return_path.end(), b.begin() + kReturnPathOffset);
    }
    return b;
}

Result<Smp> decode_smp(std::span<const std::uint8_t> b) {
    if (b.size() != kSmpSize) return SmpError{"SMP.size", b.size(), "256 bytes"};
    if (b[0] != kBaseVersion) return SmpError{"SMP.base_version", b[0], "1"};
    if (b[1] != static_cast<std::uint8_t>(MgmtClass::kLidRouted) &&
        b[1] != static_cast<std::uint8_t>(MgmtClass::kDirectedRoute))
        return SmpError{"SMP.mgmt_class", b[1], "0x01 (LID-routed) or 0x81 (directed route)"};
    if (b[2] != kClassVersion) return SmpError{"SMP.class_version", b[2], "1"};
    Smp smp;
    smp.mgmt_class = static_cast<MgmtClass>(b[1]);
    smp.method = static_cast<Method>(b[3]);
    if (smp.directed()) {
        smp.direction = get_bits(b, 32, 1) != 0;
        smp.status = static_cast<std::uint16_t>(get_bits(b, 33, 15));
        smp.hop_pointer = b[6];
        smp.hop_count = b[7];
        smp.dr_slid = static_cast<Lid>(get_bits(b, kDrSlidOffset * 8, 16));
        smp.dr_dlid = static_cast<Lid>(get_bits(b, kDrDlidOffset * 8, 16));
        std::copy_n(b.begin() + kInitialPathOffset, smp.initial_path.size(), smp.initial_path.begin());
        std::copy_n(b.begin() + kReturnPathOffset, smp.return_path.size(), smp.return_path.begin());
    } else {
        smp.status = static_cast<std::uint16_t>(get_bits(b, 32, 16));
        smp.dr_slid = 0;
        smp.dr_dlid = 0;
    }
    smp.tid = get_bits(b, 64, 64);
    smp.attr_id = static_cast<std::uint16_t>(get_bits(b, 128, 16));
    smp.attr_mod = static_cast<std::uint32_t>(get_bits(b, 160, 32));
    smp.m_key = get_bits(b, 192, 64);
    std::copy_n(b.begin() + kSmpDataOffset, kSmpDataSize, smp.data.begin());
    if (auto err = check(smp)) return *err;
    return smp;
}

namespace {

Smp request(MgmtClass cls, Method method, std::uint16_t attr_id, std::uint32_t attr_mod, std::uint64_t tid) {
    Smp smp;
    smp.mgmt_class = cls;
    smp.method = method;
    smp.tid = tid;
    smp.attr_id = attr_id;
    smp.attr_mod = attr_mod;
    return smp;
}

}  // namespace

Smp make_dr_smp(Method method, std::uint16_t attr_id, std::uint32_t attr_mod,
                std::span<const std::uint8_t> path, std::uint64_t tid) {
    Smp smp = request(MgmtClass::kDirectedRoute, method, attr_id, attr_mod, tid);
    const std::size_t hops = std::min<std::size_t>(path.size(), kMaxHops);
    smp.hop_count = static_cast<std::uint8_t>(hops);
    std::copy_n(path.begin(), hops, smp.initial_path.begin() + 1);
    return smp;
}

Smp make_lid_smp(Method method, std::uint16_t attr_id, std::uint32_t attr_mod, std::uint64_t tid) {
    Smp smp = request(MgmtClass::kLidRouted, method, attr_id, attr_mod, tid);
    smp.dr_slid = 0;
    smp.dr_dlid = 0;
    return smp;
}

Smp make_response(const Smp &request, const SmpData &data, std::uint16_t status_value) {
    Smp r = request;
    r.method = Method::kGetResp;
    r.status = status_value;
    r.direction = request.directed();
    r.data = data;
    return r;
}

namespace {

std::string hex_name(unsigned value) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%04x", value);
    return text;
}

}  // namespace

bool is_known_method(std::uint8_t m) {
    switch (static_cast<Method>(m)) {
        case Method::kGet:
        case Method::kSet:
        case Method::kGetResp:
        case Method::kTrap:
        case Method::kTrapRepress:
            return true;
    }
    return false;
}
std::string attribute_name(std::uint16_t attr_id) {
    switch (attr_id) {
        case attr::kNotice:
            return "Notice";
        case attr::kNodeDescription:
            return "NodeDescription";
        case attr::kNodeInfo:
            return "NodeInfo";
        case attr::kSwitchInfo:
            return "SwitchInfo";
        case attr::kPortInfo:
            return "PortInfo";
        case attr::kSlToVlTable:
            return "SLtoVLMappingTable";
        case attr::kLinearForwardingTable:
            return "LinearForwardingTable";
        case attr::kMulticastForwardingTable:
            return "MulticastForwardingTable";
        case attr::kSmInfo:
            return "SMInfo";
        case attr::kWeftHostSubnets:
            return "WeftHostSubnets";
        case attr::kWeftFibState:
            return "WeftFibState";
        case attr::kWeftNextHopGroup:
            return "WeftNextHopGroup";
        case attr::kWeftRoutes:
            return "WeftRoutes";
        case attr::kWeftArnGroup:
            return "WeftArnGroup";
        default:
            return hex_name(attr_id);
    }
}

std::string method_name(Method method) {
    switch (method) {
        case Method::kGet:
            return "Get";
        case Method::kSet:
            return "Set";
        case Method::kGetResp:
            return "GetResp";
        case Method::kTrap:
            return "Trap";
        case Method::kTrapRepress:
            return "TrapRepress";
    }
    return hex_name(static_cast<unsigned>(method));
}

std::optional<SmpError> check_attribute(const Smp &smp, std::uint16_t attr_id) {
    if (smp.attr_id != attr_id) return SmpError{"SMP.attr_id", smp.attr_id, "the attribute asked for"};
    if (smp.status != 0) return SmpError{"SMP.status", smp.status, "0 (success)"};
    return std::nullopt;
}

}  // namespace weft::sm
