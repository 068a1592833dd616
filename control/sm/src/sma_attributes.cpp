// The SMA's attributes: Get answers with the state, Set checks the whole request first (a field
// out of range leaves everything as it was and answers "invalid field" with the current value,
// IBA 14.2.5), then changes the state and tells the observer what changed.
#include <algorithm>
#include <stdexcept>

#include "weft/sm/node_description.hpp"
#include "weft/sm/sma.hpp"
#include "weft/sm/vendor_attributes.hpp"
#include "weft/sm/vendor_extended_lids.hpp"

namespace weft::sm {

namespace {

void refuse(Smp &reply, std::uint16_t why) {
    reply.status = why;
}

}  // namespace

void Sma::get_set(const Smp &request, Smp &reply, PortNum in_port, bool hide_m_key) {
    const bool set = request.method == Method::kSet;
    if (ethernet_ && is_weft_attribute(request.attr_id)) {
        if (ethernet_->handle(request, reply) && observer_)
            observer_->ethernet_table_committed(ethernet_->table());
        return;
    }
    switch (request.attr_id) {
        case attr::kNodeInfo:
            if (set) break;
            reply.data = encode_node_info(node_info(in_port)).value();
            return;
        case attr::kNodeDescription:
            if (set) break;
            reply.data = encode_node_description({config_.description}).value();
            return;
        case attr::kSwitchInfo:
            if (!is_switch()) break;
            return switch_info_attr(request, reply);
        case attr::kPortInfo:
            return port_info_attr(request, reply, in_port, hide_m_key);
        case attr::kLinearForwardingTable:
            if (!is_switch()) break;
            return lft_attr(request, reply);
        case attr::kMulticastForwardingTable:
            if (!is_switch()) break;
            return mft_attr(request, reply);
        case attr::kSlToVlTable:
            return sl_to_vl_attr(request, reply, in_port);
        case attr::kWeftExtendedLids:
            if (set || !is_switch() || vlft_.empty()) break;
            return extended_lids_attr(request, reply);
        default:
            break;
    }
    refuse(reply, status::kUnsupportedMethodAttr);
}

void Sma::enable_ethernet(EthernetAgentConfig config) {
    if (!is_switch()) throw std::invalid_argument("Sma: Ethernet mode is a switch's");
    ethernet_.emplace(std::move(config), config_.num_ports);
}

void Sma::switch_info_attr(const Smp &request, Smp &reply) {
    if (request.method == Method::kSet) {
        const Result<SwitchInfo> want = decode_switch_info(request.data);
        const auto port_ok = [this](PortNum p) { return p <= config_.num_ports || p == kNoPort; };
        if (!want || want->linear_fdb_top >= switch_info_.linear_fdb_cap ||
            (want->multicast_fdb_top != 0 &&
             want->multicast_fdb_top >= kFirstMulticastLid + switch_info_.multicast_fdb_cap) ||
            !port_ok(want->default_port) || !port_ok(want->default_multicast_primary_port) ||
            !port_ok(want->default_multicast_not_primary_port)) {
            refuse(reply, status::kInvalidField);
        } else {
            // Only these are the SM's to write; PortStateChange is cleared by writing 1.
            SwitchInfo next = switch_info_;
            next.linear_fdb_top = want->linear_fdb_top;
            next.multicast_fdb_top = want->multicast_fdb_top;
            next.default_port = want->default_port;
            next.default_multicast_primary_port = want->default_multicast_primary_port;
            next.default_multicast_not_primary_port = want->default_multicast_not_primary_port;
            next.life_time_value = want->life_time_value;
            if (want->port_state_change) next.port_state_change = false;
            if (!(next == switch_info_)) {
                switch_info_ = next;
                if (observer_) observer_->switch_info_changed(switch_info_);
            }
        }
    }
    reply.data = encode_switch_info(switch_info_).value();
}

void Sma::port_info_attr(const Smp &request, Smp &reply, PortNum in_port, bool hide_m_key) {
    // A switch names the port in the modifier; a CA answers for the port named, 0 meaning the port
    // the SMP came in by.
    std::uint32_t port = request.attr_mod;
    if (!is_switch() && port == 0) port = in_port;
    if (port > config_.num_ports || (!is_switch() && port == 0)) {
        refuse(reply, status::kInvalidField);
        return;
    }
    const auto p = static_cast<PortNum>(port);
    const PortKind kind = is_switch() && p != 0 ? PortKind::kSwitchExternal : PortKind::kEndPort;
    if (request.method == Method::kSet) {
        const Result<PortInfo> want = decode_port_info(request.data, kind);
        if (!want || set_port_info(p, *want)) refuse(reply, status::kInvalidField);
    }
    PortInfo now = ports_[p];
    now.local_port_num = in_port;  // IBA: the port that received this SMP
    if (hide_m_key) now.m_key = 0;
    reply.data = encode_port_info(now, kind).value();
}

void Sma::lft_attr(const Smp &request, Smp &reply) {
    const std::uint32_t block = request.attr_mod;
    // A vLID block (1024..4095) is in the secondary LFT, which a legacy switch has none of.
    const bool vlid = block >= kFirstVlidLftBlock;
    std::vector<PortNum> &table = vlid ? vlft_ : lft_;
    const std::uint32_t at = (block - (vlid ? kFirstVlidLftBlock : 0)) * kLftBlockSize;
    if (!is_lft_block(block) || at + kLftBlockSize > table.size()) {
        refuse(reply, status::kInvalidField);
        return;
    }
    auto first = table.begin() + at;
    if (request.method == Method::kSet) {
        const Result<LftBlock> want = decode_lft_block(request.data, block, config_.num_ports);
        if (!want) {
            refuse(reply, status::kInvalidField);
        } else if (!std::equal(want->ports.begin(), want->ports.end(), first)) {
            std::copy(want->ports.begin(), want->ports.end(), first);
            if (observer_) observer_->lft_block_changed(*want);
        }
    }
    LftBlock now;
    now.block = static_cast<std::uint16_t>(block);
    std::copy(first, first + kLftBlockSize, now.ports.begin());
    reply.data = encode_lft_block(now).value();
}

void Sma::extended_lids_attr(const Smp &request, Smp &reply) {
    if (request.attr_mod != 0) {
        refuse(reply, status::kInvalidField);
        return;
    }
    ExtendedLids e;
    e.vlid_cap = static_cast<std::uint32_t>(vlft_.size());
    const auto used = std::find_if(vlft_.rbegin(), vlft_.rend(), [](PortNum p) { return p != kNoPort; });
    if (used != vlft_.rend()) e.vlft_top = kFirstVlid + static_cast<std::uint32_t>(vlft_.rend() - used - 1);
    reply.data = encode_extended_lids(e).value();
}

void Sma::mft_attr(const Smp &request, Smp &reply) {
    const std::uint32_t mod = request.attr_mod;
    const std::uint32_t block = mod & 0x1FFu, position = mod >> 28;
    if ((mod & 0x0FFFFE00u) != 0 || (block + 1) * kMftBlockSize > config_.multicast_fdb_cap ||
        position >= mft_positions_) {
        refuse(reply, status::kInvalidField);
        return;
    }
    auto at = [&](unsigned i) -> std::uint16_t & {
        return mft_[(block * kMftBlockSize + i) * mft_positions_ + position];
    };
    if (request.method == Method::kSet) {
        const Result<MftBlock> want = decode_mft_block(request.data, mod, config_.num_ports);
        if (!want) {
            refuse(reply, status::kInvalidField);
        } else {
            bool changed = false;
            for (unsigned i = 0; i < kMftBlockSize; ++i) {
                changed |= at(i) != want->port_masks[i];
                at(i) = want->port_masks[i];
            }
            if (changed && observer_) observer_->mft_block_changed(*want);
        }
    }
    MftBlock now;
    now.block = static_cast<std::uint16_t>(block);
    now.position = static_cast<std::uint8_t>(position);
    for (unsigned i = 0; i < kMftBlockSize; ++i) now.port_masks[i] = at(i);
    reply.data = encode_mft_block(now).value();
}

void Sma::sl_to_vl_attr(const Smp &request, Smp &reply, PortNum in_port) {
    // A switch: input port in bits 15..8, output port in 7..0 (no "all ports" bits: SwitchInfo
    // says OptimizedSLtoVLMappingProgramming is not supported). A CA: 0, or the port.
    const std::uint32_t mod = request.attr_mod;
    std::uint32_t in = (mod >> 8) & 0xFFu, out = mod & 0xFFu;
    if (!is_switch()) {
        if (in != 0 || (mod >> 16) != 0) out = config_.num_ports + 1u;  // refused below
        if (out == 0) out = in_port;
        in = 0;
    }
    if ((mod >> 16) != 0 || in > config_.num_ports || out > config_.num_ports || (!is_switch() && out == 0)) {
        refuse(reply, status::kInvalidField);
        return;
    }
    const std::size_t i = is_switch() ? in * (config_.num_ports + 1u) + out : out;
    if (request.method == Method::kSet) {
        const Result<SlToVlTable> want = decode_sl_to_vl_table(request.data);
        if (!want) {
            refuse(reply, status::kInvalidField);
        } else if (!(*want == sl_to_vl_[i])) {
            sl_to_vl_[i] = *want;
            if (observer_)
                observer_->sl_to_vl_changed(static_cast<PortNum>(in), static_cast<PortNum>(out), *want);
        }
    }
    reply.data = encode_sl_to_vl_table(sl_to_vl_[i]).value();
}

}  // namespace weft::sm
