#include "weft/sm/notice.hpp"

#include <algorithm>

#include "attribute_codec.hpp"

namespace weft::sm {

namespace {

using detail::BitField;

template <class Io, class N>
void fields(Io &io, N &n) {
    io(BitField{"Notice.IsGeneric", 0, 1}, n.is_generic);
    io(BitField{"Notice.Type", 1, 7}, n.type);
    io(BitField{"Notice.ProducerType", 8, 24}, n.producer_type);
    io(BitField{"Notice.TrapNumber", 32, 16}, n.trap_number);
    io(BitField{"Notice.IssuerLID", 48, 16}, n.issuer_lid);
    io(BitField{"Notice.NoticeToggle", 64, 1}, n.toggle);
    io(BitField{"Notice.NoticeCount", 65, 15}, n.count);
}

// Details live at bytes 10..63.
constexpr std::size_t kDetailsOffset = 10;

std::optional<SmpError> check(const Notice &n) {
    if (!is_unicast_lid(n.issuer_lid)) return SmpError{"Notice.IssuerLID", n.issuer_lid, "a unicast LID"};
    return std::nullopt;
}

}  // namespace

Result<Notice> decode_notice(std::span<const std::uint8_t> data) {
    Result<Notice> r = detail::decode_attribute<Notice>(
        data, "Notice.size", [](auto &io, Notice &n) { fields(io, n); }, check);
    if (!r) return r;
    Notice n = std::move(r).value();
    std::copy_n(data.begin() + kDetailsOffset, n.data_details.size(), n.data_details.begin());
    return n;
}

Result<Notice> decode_notice(const Smp &smp) {
    if (smp.method != Method::kTrap && smp.method != Method::kTrapRepress)
        return SmpError{"SMP.method", static_cast<std::uint8_t>(smp.method),
                        "Trap or TrapRepress for a Notice"};
    if (auto err = check_attribute(smp, Notice::kAttributeId)) return *err;
    return decode_notice(smp.data);
}

Result<SmpData> encode_notice(const Notice &notice) {
    Result<SmpData> r = detail::encode_attribute(
        notice, [](auto &io, const Notice &n) { fields(io, n); }, check);
    if (!r) return r;
    SmpData data = r.value();
    std::copy(notice.data_details.begin(), notice.data_details.end(), data.begin() + kDetailsOffset);
    return data;
}

Result<PortStateChangeTrap> decode_port_state_change(const Notice &notice) {
    if (!notice.is_generic) return SmpError{"Notice.IsGeneric", 0, "1 (a generic notice)"};
    if (notice.trap_number != kTrapPortStateChange)
        return SmpError{"Notice.TrapNumber", notice.trap_number, "128 (port state change)"};
    const Lid lid = static_cast<Lid>(notice.data_details[0] << 8 | notice.data_details[1]);
    if (!is_unicast_lid(lid)) return SmpError{"Notice.DataDetails.LIDAddr", lid, "a unicast LID"};
    return PortStateChangeTrap{lid};
}

Notice make_port_state_change_notice(Lid switch_lid, std::uint32_t producer_type) {
    Notice n;
    n.is_generic = true;
    n.type = static_cast<std::uint8_t>(NoticeType::kUrgent);
    n.producer_type = producer_type;
    n.trap_number = kTrapPortStateChange;
    n.issuer_lid = switch_lid;
    n.data_details[0] = static_cast<std::uint8_t>(switch_lid >> 8);
    n.data_details[1] = static_cast<std::uint8_t>(switch_lid);
    return n;
}

Smp make_trap_repress(const Smp &trap) {
    Smp r = trap;
    r.method = Method::kTrapRepress;
    r.status = 0;
    return r;
}

}  // namespace weft::sm
