#include "weft/sim/simulator.hpp"

#include "engine.hpp"

namespace weft::sim {

Simulator::Simulator(const Scenario &scenario) : engine_(std::make_unique<Engine>(scenario)) {}

Simulator::~Simulator() = default;

Results Simulator::run(const std::function<void(const Progress &)> &progress, double progress_every) {
    return engine_->run(progress, progress_every);
}

std::string Simulator::describe() const {
    return engine_->describe();
}

}  // namespace weft::sim
