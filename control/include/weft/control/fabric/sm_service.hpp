// The subnet manager inside the switch (`--sm`, `sm start|stop`): sm::SmRunner over a
// FrameSmpTransport on the switch's own SwitchAgent, its SMPs leaving from port 0 through the
// switch's Sma and frame ports like any SMA's, so the local switch is programmed through its own
// Sma (and the observer's RCU publication) just as the others are by frames.
//
// The control loop calls poll() once per round, after the SwitchAgent's: replies and traps the
// agent handed over go to the engine, traps are repressed, and what is due runs. A heavy sweep
// runs to its end inside poll() and holds the control thread meanwhile (milliseconds on a fabric
// of a few switches; the dataplane forwards on regardless); its SMPs still cross the switch's
// own SMA, which the transport drives while it waits.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "weft/control/fabric/switch_agent.hpp"
#include "weft/sm/frame_smp_transport.hpp"
#include "weft/sm/sm_runner.hpp"

namespace weft::control::fabric {

struct SmServiceConfig {
    sm::SmRunnerOptions runner;  // -R, -l and the engine options, --mcast-groups, --sm-ethernet
    sm::SmpEngineConfig engine{4, std::chrono::milliseconds(50), 3};
    bool echo = true;  // every log line to stderr too ("weft: sm: ...")
};

struct SmLogLine {
    double seconds = 0;  // since the SM started
    sm::SmLogLevel level = sm::SmLogLevel::kNote;
    std::string text;
};

class SmService {
  public:
    static constexpr std::size_t kLogLines = 512;

    SmService(SwitchAgent &agent, SmServiceConfig config);
    ~SmService();
    SmService(const SmService &) = delete;
    SmService &operator=(const SmService &) = delete;

    void start();  // a heavy sweep at the next poll()
    void stop();   // the memory between sweeps goes with it
    bool running() const { return runner_ != nullptr; }

    void poll();

    // A VM's live migration on the fabric the SM programmed (sm::SmRunner::migrate); refused
    // (plan.error) when the SM is not running. This switch's own tables are published before it
    // returns (the other switches publish theirs in the round that answers the Set).
    sm::LiveMigrationReport migrate(const routing::Migration &m, std::string_view method);

    const sm::SmRunner *runner() const { return runner_.get(); }
    const sm::SmpEngine *engine() const { return engine_.get(); }
    const std::deque<SmLogLine> &log() const { return log_; }
    const SmServiceConfig &config() const { return config_; }
    std::optional<sm::SmTime> started_at() const { return started_; }
    static sm::SmTime now();

  private:
    void add_log(sm::SmLogLevel level, std::string_view line);

    SwitchAgent &agent_;
    SmServiceConfig config_;
    std::unique_ptr<sm::FrameSmpTransport> transport_;
    std::unique_ptr<sm::SmpEngine> engine_;
    std::unique_ptr<sm::SmRunner> runner_;
    std::deque<SmLogLine> log_;
    std::optional<sm::SmTime> started_;
};

}  // namespace weft::control::fabric
