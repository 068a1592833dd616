// The engine registry: one line per engine, under OpenSM's name for it.
#include <algorithm>

#include "engines/engines.hpp"
#include "weft/routing/engine.hpp"

namespace weft::routing {

EngineRegistry &EngineRegistry::instance() {
    // Registered on first use, so a static library never drops an engine.
    static EngineRegistry r = [] {
        EngineRegistry x;
        x.add("minhop", engines::make_minhop);
        x.add("updn", engines::make_updn);
        x.add("dnup", engines::make_dnup);
        x.add("ftree", engines::make_ftree);
        x.add("sssp", engines::make_sssp);
        x.add("dfsssp", engines::make_dfsssp);
        x.add("file", engines::make_file);
        x.add("nue", engines::make_nue);
        x.add("torus-2QoS", engines::make_torus_2qos);
        x.add("lash", engines::make_lash);
        x.add("dor", engines::make_dor);
        x.add("prefix", engines::make_prefix);
        x.add("vswitch-ftree", engines::make_vswitch_ftree);
        return x;
    }();
    return r;
}

void EngineRegistry::add(std::string name, EngineFactory make) {
    for (auto &[n, f] : engines_)
        if (n == name) {
            f = std::move(make);
            return;
        }
    engines_.emplace_back(std::move(name), std::move(make));
}

std::unique_ptr<Engine> EngineRegistry::make(std::string_view name) const {
    for (const auto &[n, f] : engines_)
        if (n == name) return f();
    return nullptr;
}

std::vector<std::string> EngineRegistry::names() const {
    std::vector<std::string> out;
    for (const auto &e : engines_) out.push_back(e.first);
    return out;
}

}  // namespace weft::routing
