// Monitoring: the workers' hook appends reassignment events to their own log, and the control
// loop prints what is new.
#include <cmdline.h>

#include "weft/control/cli.hpp"
#include "weft/control/monitor_log.hpp"

namespace weft::control {

namespace {

void record_event(void *context, const ars::ReassignEvent &e) {
    auto *log = static_cast<MonitorLog *>(context);
    const std::uint64_t h = log->head.load(std::memory_order_relaxed);
    log->ring[h % MonitorLog::kSize] = e;
    log->head.store(h + 1, std::memory_order_release);
}

}  // namespace

ars::MonitorHook monitor_hook_for(unsigned worker_index, void *logs) {
    auto &v = *static_cast<std::vector<std::unique_ptr<MonitorLog>> *>(logs);
    return ars::MonitorHook{&record_event, v.at(worker_index).get()};
}

void print_monitor_events(CommandContext &ctx, struct cmdline *cl) {
    static const char *reasons[] = {"flowlet-expired", "link-down", "member-removed"};
    for (std::size_t w = 0; w < ctx.monitor_logs.size(); ++w) {
        MonitorLog &log = *ctx.monitor_logs[w];
        const std::uint64_t head = log.head.load(std::memory_order_acquire);
        if (head - log.tail > MonitorLog::kSize) {
            cmdline_printf(cl, "monitor: worker %zu: %llu events not shown\n", w,
                           static_cast<unsigned long long>(head - log.tail - MonitorLog::kSize));
            log.tail = head - MonitorLog::kSize;
        }
        for (; log.tail < head; ++log.tail) {
            const ars::ReassignEvent &e = log.ring[log.tail % MonitorLog::kSize];
            cmdline_printf(cl, "monitor: worker %zu %s %u bucket %u member %u -> %u (%s %u -> %s %u) %s\n", w,
                           e.is_lag ? "lag" : "nhg", e.group_id, e.bucket, e.old_member_id, e.new_member_id,
                           e.old_target.kind == ars::EgressTarget::Kind::kPort ? "port" : "lag",
                           e.old_target.id,
                           e.new_target.kind == ars::EgressTarget::Kind::kPort ? "port" : "lag",
                           e.new_target.id, reasons[static_cast<int>(e.reason) % 3]);
        }
    }
}

}  // namespace weft::control
