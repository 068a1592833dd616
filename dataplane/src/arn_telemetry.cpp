// /weft/arn: the telemetry twin of `show arn`'s counters and port states.
#include <rte_telemetry.h>

#include "weft/arn/decode_error.hpp"
#include "weft/dataplane/arn_agent.hpp"
#include "weft/dataplane/dataplane.hpp"
#include "weft/dataplane/telemetry.hpp"

namespace weft::dataplane {

namespace {

Dataplane *g_arn_dp = nullptr;
ArnAgent *g_arn_agent = nullptr;

const char *condition_name(arn::PortCondition c) {
    return c == arn::PortCondition::kCongested ? "congested"
           : c == arn::PortCondition::kDown    ? "down"
                                               : "clear";
}

int tel_arn(const char *cmd, const char *params, rte_tel_data *d) {
    (void)cmd;
    (void)params;
    const ArnAgentView v = g_arn_agent->view();
    const ArnWorkerTotals w = sum_arn(g_arn_dp->arn_counters());
    const Totals t = sum_totals(g_arn_dp->counters());
    rte_tel_data_start_dict(d);
    rte_tel_data_add_dict_int(d, "configured", v.configured ? 1 : 0);
    rte_tel_data_add_dict_u64(d, "received", w.received);
    rte_tel_data_add_dict_u64(d, "forwarded", w.forwarded);
    rte_tel_data_add_dict_u64(d, "delivered", w.delivered);
    for (DropReason why : {DropReason::ArnNotFabricPort, DropReason::ArnRateLimited, DropReason::ArnMalformed,
                           DropReason::ArnUnknownReporter, DropReason::ArnOwnNews,
                           DropReason::ArnUnexpectedPort, DropReason::ArnRingFull})
        rte_tel_data_add_dict_u64(d, drop_reason_name(why), t.drops[static_cast<std::size_t>(why)]);
    for (std::size_t i = 0; i < arn::kArnDropCount; ++i)
        if (w.malformed[i] != 0)
            rte_tel_data_add_dict_u64(
                d, (std::string("malformed_") + arn::arn_drop_name(static_cast<arn::ArnDrop>(i))).c_str(),
                w.malformed[i]);
    rte_tel_data_add_dict_u64(d, "applied", v.counters.applied);
    rte_tel_data_add_dict_u64(d, "stale", v.counters.stale);
    rte_tel_data_add_dict_u64(d, "expired", v.bpt.expired);
    rte_tel_data_add_dict_u64(d, "rechosen", v.bpt.rechosen);
    rte_tel_data_add_dict_u64(d, "sent", v.counters.sent);
    rte_tel_data_add_dict_u64(d, "send_failed", v.counters.send_failed);
    rte_tel_data_add_dict_u64(d, "repeats", v.detector.repeats);
    for (std::size_t i = 0; i < v.watched.size(); ++i) {
        const std::string key = "port" + std::to_string(v.watched[i].port - 1);
        rte_tel_data_add_dict_string(d, key.c_str(), condition_name(v.status[i].condition));
        rte_tel_data_add_dict_u64(d, (key + "_severity").c_str(), v.status[i].severity);
    }
    return 0;
}

}  // namespace

void register_arn_telemetry(Dataplane &dp, ArnAgent &agent) {
    g_arn_dp = &dp;
    g_arn_agent = &agent;
    rte_telemetry_register_cmd("/weft/arn", tel_arn,
                               "ARN: frames received, forwarded, delivered, dropped by reason; news applied; "
                               "own news sent; each watched port's state.");
}

}  // namespace weft::dataplane
