// Test helper: two fabrics are the same when they have the same nodes (by GUID: type, ports,
// description, system GUID), port GUIDs, LIDs and cables (by GUID and port, width, speed),
// whatever order the nodes are in.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "weft/routing/fabric.hpp"

namespace weft::routing::testing {

inline ::testing::AssertionResult same_fabric(const Fabric &a, const Fabric &b, bool check_lids = true) {
    if (a.node_count() != b.node_count())
        return ::testing::AssertionFailure() << "node count " << a.node_count() << " vs " << b.node_count();
    for (NodeIdx i = 0; i < a.node_count(); ++i) {
        const Node &x = a.node(i);
        auto j = b.find_guid(x.guid);
        if (!j) return ::testing::AssertionFailure() << "GUID " << std::hex << x.guid << " missing";
        const Node &y = b.node(*j);
        if (x.type != y.type || x.num_ports != y.num_ports || x.desc != y.desc || x.sys_guid != y.sys_guid)
            return ::testing::AssertionFailure()
                   << "node " << x.desc << " differs (type/ports/desc/sysguid): '" << y.desc << "' ports "
                   << int(y.num_ports);
        for (PortNum p = 0; p <= x.num_ports; ++p) {
            const Port &px = a.port(i, p), &py = b.port(*j, p);
            if (!x.is_switch() && p && px.guid != py.guid)
                return ::testing::AssertionFailure() << x.desc << " port " << int(p) << " GUID differs";
            if (check_lids && (px.lid != py.lid || (px.lid && px.lmc != py.lmc)))
                return ::testing::AssertionFailure()
                       << x.desc << " port " << int(p) << " LID " << px.lid << " vs " << py.lid;
            if ((px.peer == kNoNode) != (py.peer == kNoNode))
                return ::testing::AssertionFailure() << x.desc << " port " << int(p) << " cabling differs";
            if (px.peer == kNoNode) continue;
            if (a.node(px.peer).guid != b.node(py.peer).guid || px.peer_port != py.peer_port)
                return ::testing::AssertionFailure() << x.desc << " port " << int(p) << " peer differs";
            if (px.width != py.width || px.speed != py.speed)
                return ::testing::AssertionFailure()
                       << x.desc << " port " << int(p) << " width/speed differs";
        }
    }
    return ::testing::AssertionSuccess();
}

}  // namespace weft::routing::testing
