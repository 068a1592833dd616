// Fat-tree routing extras: the compute-node order OpenSM's ftree writes to
// opensm-ftree-ca-order.dump. Ranks in that order communicating by shifts (i -> i + k) meet no
// congestion on a pure fat tree routed by ftree.
#pragma once

#include <string>
#include <vector>

#include "weft/routing/engine.hpp"

namespace weft::routing {

struct FtreeCaOrder {
    bool ok = false;
    std::string error;  // why the fabric is not a fat tree ftree can route
    // One line per compute-node slot: leaves in index order, each leaf's CNs in port order,
    // then lid 0xFFFF "DUMMY" for the CNs the leaf lacks against the fullest leaf.
    std::vector<std::pair<Lid, std::string>> entries;

    // The file's text: "0x%04x\t<node description>\n" per entry.
    std::string text() const;
    // The LIDs with dummies as 0, for driving shift patterns.
    std::vector<Lid> lids() const;
};

inline constexpr Lid kFtreeDummyLid = 0xFFFF;

FtreeCaOrder ftree_ca_order(const Fabric &f, const RoutingOptions &o);

}  // namespace weft::routing
