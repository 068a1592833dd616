#include "weft/ars/quality_sampler.hpp"

#include <algorithm>

#include "weft/ars/quantizer.hpp"

namespace weft::ars {

namespace {

// Bytes over the interval as Mbps: bits per microsecond are megabits per second.
std::uint64_t rate_mbps(std::uint64_t bytes, std::uint32_t interval_us) {
    return bytes * 8 / interval_us;
}

}  // namespace

QualitySampler::QualitySampler(std::size_t port_count)
    : past_(port_count), future_(port_count), loads_(port_count) {}

void QualitySampler::update(const Config &config, std::span<const PortSample> samples, PortBoard &board,
                            std::uint64_t intervals) {
    const Profile &profile = config.profile();
    const auto &present = config.port_present();
    const std::size_t ports = std::min({samples.size(), present.size(), loads_.size(), board.port_count()});

    for (std::size_t p = 0; p < ports; ++p) {
        if (!present[p]) continue;
        const PortConfig &port = config.ports()[p];
        if (!port.ars_enabled) continue;

        // Weights: profile weight scaled by the port's percentage; a disabled load weighs 0.
        const std::uint64_t wp = profile.past_load_enabled
                                     ? std::uint64_t{profile.past_load_weight} * port.past_weight_percent
                                     : 0;
        const std::uint64_t wf = profile.future_load_enabled
                                     ? std::uint64_t{profile.future_load_weight} * port.future_weight_percent
                                     : 0;

        PortLoad &load = loads_[p];
        if (wp != 0) {
            const std::uint64_t rate = rate_mbps(samples[p].bytes_sent, profile.sampling_interval_us);
            for (std::uint64_t k = 0; k < intervals; ++k)
                if (!past_[p].update(rate, profile.ewma_exponent, profile.current_load_enabled)) break;
        }
        if (wf != 0) {
            const std::uint64_t rate = rate_mbps(samples[p].bytes_queued, profile.sampling_interval_us);
            for (std::uint64_t k = 0; k < intervals; ++k)
                if (!future_[p].update(rate, profile.ewma_exponent, profile.current_load_enabled)) break;
        }
        load.past_mbps = past_[p].value();
        load.future_mbps = future_[p].value();
        // Both weights 0 (port set to 0%): the port reports no load rather than dividing by 0.
        load.combined_mbps = wp + wf == 0 ? 0 : (wp * load.past_mbps + wf * load.future_mbps) / (wp + wf);
        load.scaled_mbps = load.combined_mbps * 10 / port.scale_tenths;
        load.quality = quantize(profile.bands, load.scaled_mbps);
        board.publish_port_quality(static_cast<PortId>(p), load.quality);
    }

    // A LAG is one big port: the loads of its up ARS ports over the sum of their scaling factors.
    const auto &lags = config.lags();
    for (std::size_t l = 0; l < lags.size() && l < board.lag_count(); ++l) {
        const SelectionGroup &lag = lags[l];
        if (!lag.present) continue;
        std::uint64_t combined = 0;
        std::uint64_t scale = 0;
        for (const GroupMember &m : lag.members) {
            const PortId p = m.target.id;
            if (!m.usable || p >= ports || !board.link_up(p)) continue;
            combined += loads_[p].combined_mbps;
            scale += config.ports()[p].scale_tenths;
        }
        const QualityBand q = scale == 0 ? kWorstQuality : quantize(profile.bands, combined * 10 / scale);
        board.publish_lag_quality(static_cast<LagId>(l), q);
    }
}

std::uint64_t QualitySampler::intervals_between(const Config &config, Ticks from, Ticks to) {
    const Ticks interval = Ticks{config.profile().sampling_interval_us} * config.ticks_per_us();
    return to > from ? (to - from) / interval : 0;
}

}  // namespace weft::ars
