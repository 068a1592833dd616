#include "weft/routing/engine.hpp"

namespace weft::routing {

std::shared_ptr<const ExistingLfts> existing_lfts_of(const Fabric &f, const RoutingTables &t) {
    auto out = std::make_shared<ExistingLfts>();
    for (SwitchIdx s = 0; s < f.switch_count() && s < t.lft.size(); ++s)
        out->by_switch.emplace(f.node(f.switch_node(s)).guid, t.lft[s]);
    return out;
}

}  // namespace weft::routing
