// SmaTablePublisher: the Sma's tables into the FibBuilder, one snapshot per batch.
#include "weft/control/fabric/sma_table_publisher.hpp"

#include <cstdio>

#include "weft/control/arn_apply.hpp"
#include "weft/control/cli.hpp"
#include "weft/dataplane/limits.hpp"

namespace weft::control::fabric {

namespace dp = weft::dataplane;

bool SmaTablePublisher::pending() const {
    return !lft_blocks_.empty() || !mft_blocks_.empty() || !sl2vl_out_.empty() || lid_dirty_ ||
           ethernet_.has_value() || connected_.has_value();
}

void SmaTablePublisher::refused(const std::string &what) {
    ++counters_.refused;
    last_error_ = what;
    std::fprintf(stderr, "weft: sma: %s\n", what.c_str());
}

void SmaTablePublisher::write_lft_block(std::uint16_t block) {
    ++counters_.lft_blocks;
    const unsigned num_ports = ctx_.dp->num_ports();
    // A vLID block (1024..4095) lands in the secondary LFT: the LIDs are the block's either way.
    for (unsigned i = 0; i < sm::kLftBlockSize; ++i) {
        const std::uint32_t lid = std::uint32_t{block} * sm::kLftBlockSize + i;
        if (lid == 0 || (lid > dp::kMaxUnicastLid && lid < dp::kFirstVlid)) continue;
        const sm::PortNum p = sma_->lft(lid);
        if (p == 0 || p == sm::kNoPort || p > num_ports) {
            (void)ctx_.fib->clear_lft(lid);  // refused only when there is no entry, which is what is wanted
            continue;
        }
        if (dp::Status s = ctx_.fib->set_lft_port(lid, static_cast<std::uint16_t>(p - 1)); !s.ok())
            refused("LFT LID " + std::to_string(lid) + ": " + s.message());
    }
}

void SmaTablePublisher::write_mft_block(std::uint16_t block) {
    ++counters_.mft_blocks;
    const unsigned num_ports = ctx_.dp->num_ports();
    for (unsigned i = 0; i < sm::kMftBlockSize; ++i) {
        const unsigned mlid = sm::kFirstMulticastLid + block * sm::kMftBlockSize + i;
        if (mlid > dp::kLastMulticastLid) continue;
        dp::PortMask mask;
        for (unsigned p = 1; p <= num_ports && p <= dp::kMaxPorts; ++p)
            if ((sma_->mft_mask(static_cast<sm::Lid>(mlid), p / 16) >> (p % 16)) & 1u)
                mask.set(static_cast<std::uint16_t>(p - 1));
        if (dp::Status s = ctx_.fib->set_mft(static_cast<std::uint16_t>(mlid), mask); !s.ok())
            refused("MFT MLID " + std::to_string(mlid) + ": " + s.message());
    }
}

void SmaTablePublisher::write_sl2vl(sm::PortNum out) {
    ++counters_.sl2vl_tables;
    const sm::PortNum num_ports = static_cast<sm::PortNum>(ctx_.dp->num_ports());
    if (out == 0 || out > num_ports) return;  // port 0 sends nothing on a wire
    const sm::PortNum used_in = out == 1 ? 2 : 1;
    if (used_in > num_ports) return;  // a one-port switch forwards nothing out of its only port
    const sm::SlToVlTable &t = sma_->sl_to_vl(used_in, out);
    for (sm::PortNum in = 1; in <= num_ports; ++in)
        if (in != out && in != used_in && !(sma_->sl_to_vl(in, out) == t))
            ++counters_.sl2vl_in_port_conflicts;
    for (unsigned sl = 0; sl < dp::kNumSl; ++sl) {
        if (t.vl[sl] >= dp::kNumVl - 1) {
            ++counters_.sl2vl_drop_entries;
            continue;
        }
        if (dp::Status s = ctx_.fib->set_sl2vl(static_cast<std::uint16_t>(out - 1),
                                               static_cast<std::uint8_t>(sl), t.vl[sl]);
            !s.ok())
            refused("SL2VL port " + std::to_string(out) + ": " + s.message());
    }
}

void SmaTablePublisher::apply_arn_group(const sm::EthernetTable &table) {
    std::optional<ArnTopology> topology;
    if (!table.arn.empty()) {
        auto t = arn_topology_of(table.arn, ethernet_fib_.slots());
        if (auto *why = std::get_if<std::string>(&t)) return refused("ARN group: " + *why);
        topology = std::move(std::get<ArnTopology>(t));
    }
    if (auto why = adopt_sm_arn_topology(ctx_, std::move(topology))) refused("ARN group: " + *why);
}

bool SmaTablePublisher::publish() {
    if (sma_ == nullptr || !pending()) return true;
    for (std::uint16_t b : lft_blocks_) write_lft_block(b);
    for (std::uint16_t b : mft_blocks_) write_mft_block(b);
    for (sm::PortNum out : sl2vl_out_) write_sl2vl(out);
    lft_blocks_.clear();
    mft_blocks_.clear();
    sl2vl_out_.clear();
    if (lid_dirty_) {
        lid_dirty_ = false;
        const sm::PortInfo &pi = sma_->port_info(0);
        const dp::SwitchLid now = ctx_.fib->switch_lid();
        if (now.base != pi.lid || now.lmc != (pi.lid == 0 ? 0 : pi.lmc)) {
            ++counters_.lid_changes;
            if (dp::Status s = ctx_.fib->set_switch_lid(pi.lid, pi.lmc); !s.ok())
                refused("switch LID " + std::to_string(pi.lid) + " LMC " + std::to_string(pi.lmc) + ": " +
                        s.message());
        }
    }
    if (ethernet_) {
        if (auto why = ethernet_fib_.apply(ctx_, *ethernet_)) {
            ++counters_.ethernet_failures;
            refused("Ethernet table generation " + std::to_string(ethernet_->generation) + ": " + *why);
        } else {
            ++counters_.ethernet_commits;
            apply_arn_group(*ethernet_);
        }
        ethernet_.reset();
    }
    if (connected_) {
        if (auto why = ethernet_fib_.set_connected(ctx_, *connected_)) {
            ++counters_.connected_failures;
            refused("connected routes: " + *why);
        }
        connected_.reset();
    }
    if (!commit(ctx_, nullptr)) {
        ++counters_.publish_failures;
        last_error_ = "a snapshot could not be built; the published tables are the previous ones";
        std::fprintf(stderr, "weft: sma: %s\n", last_error_.c_str());
        return false;
    }
    ++counters_.publications;
    return true;
}

}  // namespace weft::control::fabric
