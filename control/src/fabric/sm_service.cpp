#include "weft/control/fabric/sm_service.hpp"

#include <cstdio>

namespace weft::control::fabric {

using namespace std::chrono_literals;

SmService::SmService(SwitchAgent &agent, SmServiceConfig config)
    : agent_(agent), config_(std::move(config)) {}

SmService::~SmService() {
    stop();
}

sm::SmTime SmService::now() {
    return std::chrono::steady_clock::now().time_since_epoch();
}

void SmService::add_log(sm::SmLogLevel level, std::string_view line) {
    const double t = started_ ? std::chrono::duration<double>(now() - *started_).count() : 0.0;
    if (config_.echo)
        std::fprintf(stderr, "weft: sm: [%9.3f] %.*s\n", t, static_cast<int>(line.size()), line.data());
    if (log_.size() == kLogLines) log_.pop_front();
    log_.push_back({t, level, std::string(line)});
}

void SmService::start() {
    if (running()) return;
    started_ = now();
    transport_ = std::make_unique<sm::FrameSmpTransport>(
        agent_.agent(), agent_.ports(), [] { return now(); }, 0);
    engine_ = std::make_unique<sm::SmpEngine>(*transport_, config_.engine);
    sm::SmRunnerOptions o = config_.runner;
    o.log = [this](sm::SmLogLevel level, std::string_view line) { add_log(level, line); };
    runner_ = std::make_unique<sm::SmRunner>(
        *engine_, [] { return now(); }, std::move(o));
    // Frames the switch takes go through the transport (it hands them to the same agent and
    // keeps what is for this SM); what the Sma raises for its own SM (a trap of this switch)
    // joins them.
    agent_.set_frame_handler([this](sm::PortNum in_port, std::span<const std::uint8_t> frame) {
        transport_->on_frame(in_port, frame);
    });
    agent_.set_sm_sink([this](const sm::SmpForSm &s) { transport_->deliver(s); });
    add_log(sm::SmLogLevel::kNote, "started, engine chain " + config_.runner.chain);
}

void SmService::stop() {
    if (!running()) return;
    agent_.set_frame_handler(nullptr);
    agent_.set_sm_sink(nullptr);
    add_log(sm::SmLogLevel::kNote, "stopped");
    runner_.reset();
    engine_.reset();
    transport_.reset();
}

void SmService::poll() {
    if (!running()) return;
    const sm::SmTime t = now();
    while (std::optional<sm::ReceivedSmp> r = transport_->receive(0ms)) engine_->on_receive(*r, t);
    engine_->advance(t);
    runner_->take_unsolicited();
    if (now() >= runner_->next_due()) runner_->step();
    while (engine_->next_completion()) {
    }  // late completions of a finished phase: nothing waits for them
}

sm::LiveMigrationReport SmService::migrate(const routing::Migration &m, std::string_view method) {
    sm::LiveMigrationReport r;
    if (!running()) {
        r.plan.error = "the SM is not running";
        return r;
    }
    r = runner_->migrate(m, method);
    // This switch's own blocks were Set through its SMA within this call; its tables otherwise
    // reach the dataplane at the agent's next round, after the caller has said the move is done.
    agent_.publish();
    return r;
}

}  // namespace weft::control::fabric
