// A batch of directed-route requests, each with its handler, run until the engine is idle; a
// handler may add more (a read followed by its write, the blocks after a Begin). The programming
// steps of the SM use it.
#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "weft/sm/discovery.hpp"
#include "weft/sm/smp_loop.hpp"

namespace weft::sm {

class SmpBatch {
  public:
    using Done = std::function<void(const SmpCompletion &)>;
    SmpBatch(SmpEngine &engine, const SmClock &clock) : engine_(engine), clock_(clock) {}
    // Returns the request's cookie (what SmpEngine::cancel sees of it).
    std::uint64_t add(const Smp &smp, Done done) {
        handlers_.push_back(std::move(done));
        const std::uint64_t cookie = handlers_.size() - 1;
        engine_.submit({smp, kPermissiveLid, cookie}, clock_());
        return cookie;
    }
    std::uint64_t add(Method m, std::uint16_t attr_id, std::uint32_t mod, const DrPath &path,
                      const SmpData &data, Done done) {
        Smp smp = make_dr_smp(m, attr_id, mod, path, 0);
        smp.data = data;
        return add(smp, std::move(done));
    }
    void run() {
        run_until_idle(engine_, clock_, [this](SmpCompletion &c) {
            if (c.cookie >= handlers_.size()) return;
            const Done h = handlers_[c.cookie];  // a copy: the handler may add requests
            h(c);
        });
    }

  private:
    SmpEngine &engine_;
    const SmClock &clock_;
    std::vector<Done> handlers_;
};

}  // namespace weft::sm
