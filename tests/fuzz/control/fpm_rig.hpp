// What the FPM fuzz targets share: EAL without hugepages, one small FIB builder and publisher for
// the process, and a RIB per input that must leave the FIB empty once everything is swept.
#pragma once

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "fpm_codec.hpp"
#include "fpm_rib.hpp"
#include "fuzz_eal.hpp"
#include "weft/control/route_updater.hpp"
#include "weft/dataplane/fib_builder.hpp"
#include "weft/dataplane/fib_publisher.hpp"

namespace weft::control::fpm::fuzz {

struct Rig {
    std::unique_ptr<dataplane::FibBuilder> fib;
    std::unique_ptr<dataplane::FibPublisher> publisher;
};

inline Rig &rig() {
    static Rig *r = [] {
        weft::fuzz::init_eal("fpm");
        auto *x = new Rig;
        dataplane::FibConfig c;
        c.num_ports = 4;
        c.max_routes4 = 64;
        c.tbl8_groups4 = 8;
        c.max_routes6 = 64;
        c.tbl8_groups6 = 8;
        x->fib = std::make_unique<dataplane::FibBuilder>(c);
        x->publisher = std::make_unique<dataplane::FibPublisher>(2);
        return x;
    }();
    return *r;
}

// Gateways resolve by their last byte (port = byte % 5: 4 is no port), interfaces by index
// (ifindex % 5 likewise), so every hold reason happens.
inline Resolved resolve(const NlNextHop &h) {
    const unsigned key = h.gateway ? h.gateway->bytes[h.gateway->v6 ? 15 : 3] : h.ifindex;
    if (key % 5 == 4) return {std::nullopt, h.gateway ? Hold::Neighbour : Hold::Port};
    return {NextHop{static_cast<std::uint16_t>(key % 5), std::nullopt, 1}, Hold::None};
}

// Applies every decoded message to a fresh RIB, committing now and then, then a reconnection
// and a sweep: nothing of this input may stay in the FIB.
inline void run_rib(const std::vector<Decoded> &msgs) {
    Rig &r = rig();
    RouteUpdater updater(*r.fib, *r.publisher);
    Rib rib(updater, resolve, std::chrono::seconds(1));
    rib.new_session(Rib::Clock::now());
    unsigned n = 0;
    for (const Decoded &d : msgs) {
        if (const auto *m = std::get_if<RouteMsg>(&d.what)) rib.apply(*m);
        if (const auto *m = std::get_if<NexthopMsg>(&d.what)) rib.apply(*m);
        if (++n % 7 == 0) {
            rib.retry_held();
            updater.commit();
        }
        if (n % 11 == 0) rib.new_session(Rib::Clock::now());
        if (n % 13 == 0) rib.sweep();
    }
    updater.commit();
    if (r.fib->routes().size() != rib.installed()) std::abort();  // the RIB and the FIB agree
    rib.new_session(Rib::Clock::now());
    rib.sweep();
    if (!updater.commit().published) std::abort();
    if (rib.routes() != 0 || rib.groups() != 0 || !r.fib->routes().empty() || !r.fib->nhgs().empty())
        std::abort();  // something of the input outlived its sweep
}

}  // namespace weft::control::fpm::fuzz
