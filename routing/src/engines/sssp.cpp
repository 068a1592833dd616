// OpenSM's sssp: globally balanced single-source shortest paths (see sssp_balancing.hpp).
// No virtual lanes: not deadlock-free on every topology.
#include "engines/engines.hpp"
#include "engines/sssp_balancing.hpp"

namespace weft::routing::engines {

std::unique_ptr<Engine> make_sssp() {
    return std::make_unique<SsspEngine>();
}

}  // namespace weft::routing::engines
