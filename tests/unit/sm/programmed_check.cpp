#include "programmed_check.hpp"

#include <gtest/gtest.h>

#include "weft/routing/vswitch.hpp"

namespace weft::sm::test {

void expect_programmed(const routing::Fabric &topo,
                       const std::function<const Sma &(routing::NodeIdx)> &sma_of, const SweepReport &r) {
    const routing::Fabric &f = r.discovery.fabric;
    ASSERT_EQ(f.node_count(), topo.node_count());
    for (routing::NodeIdx i = 0; i < f.node_count(); ++i) {
        const routing::Node &n = f.node(i);
        const Sma &s = sma_of(*topo.find_guid(n.guid));
        if (n.is_switch()) {
            EXPECT_EQ(s.switch_info().linear_fdb_top, routing::max_plid(f)) << n.desc;
            EXPECT_FALSE(s.switch_info().port_state_change) << n.desc;
            EXPECT_EQ(s.port_info(0).lid, f.port(i, 0).lid) << n.desc;
            EXPECT_EQ(s.port_info(0).master_sm_lid, r.sm_lid) << n.desc;
            for (routing::Lid lid = 1; lid <= f.max_lid(); ++lid)
                ASSERT_EQ(s.lft(lid), r.tables.lft[n.sw][lid]) << n.desc << " LID " << lid;  // vLIDs too
        } else {
            EXPECT_EQ(s.port_info(1).lid, f.port(i, 1).lid) << n.desc;
            EXPECT_EQ(s.port_info(1).master_sm_lid, r.sm_lid) << n.desc;
        }
        for (PortNum p = 1; p <= n.num_ports; ++p) {
            if (s.link_up(p)) {
                EXPECT_EQ(s.port_info(p).port_state, PortState::kActive) << n.desc << " port " << +p;
            }
        }
    }
}

}  // namespace weft::sm::test
