// The JSON topology's vSwitch fields: hypervisors ("vfs", "vf_lids"), the LID scheme and the
// VMs, written and read back; bad VMs and LIDs refused where they stand.
#include <gtest/gtest.h>

#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/topology_io.hpp"
#include "weft/routing/vswitch.hpp"

namespace weft::routing {
namespace {

TEST(VswitchJson, RoundTripKeepsHypervisorsVmsAndLids) {
    for (const char *spec : {"xgft:n=2;m=8,4;w=4,1/vms:vfs=4,load=50,dist=random,seed=5",
                             "kary:k=2,n=3/vms:vfs=3,load=75,scheme=dynamic,vlids=extended"}) {
        Fabric f = generate(spec);
        assign_lids(f, {});
        const Fabric g = read_topology_string(write_topology_json(f), "rt.json");
        EXPECT_EQ(g.vf_lid_scheme, f.vf_lid_scheme) << spec;
        EXPECT_EQ(g.extended_vlids, f.extended_vlids) << spec;
        ASSERT_EQ(g.vms().size(), f.vms().size()) << spec;
        for (std::size_t i = 0; i < f.vms().size(); ++i) {
            const VirtualMachine &a = f.vms()[i], &b = g.vms()[i];
            EXPECT_EQ(a.name, b.name);
            EXPECT_EQ(f.node(a.hypervisor).guid, g.node(b.hypervisor).guid);
            EXPECT_EQ(a.vf, b.vf);
            EXPECT_EQ(a.lid, b.lid);
        }
        for (NodeIdx n = 0; n < f.node_count(); ++n) {
            ASSERT_EQ(f.node(n).vfs, g.node(n).vfs);
            for (std::uint16_t i = 0; i < f.node(n).vfs; ++i) EXPECT_EQ(f.vf(n, i).lid, g.vf(n, i).lid);
        }
        for (Lid l = 1; l <= f.max_lid(); ++l) {
            const auto a = f.lid_owner(l), b = g.lid_owner(l);
            ASSERT_EQ(a.has_value(), b.has_value()) << l;
            if (a) {
                EXPECT_EQ(a->node, b->node) << l;
            }
        }
    }
}

const std::string kHead =
    "{\"weft_topology\": 1, \"nodes\": [{\"type\": \"switch\", \"guid\": \"0x1\", \"ports\": 4},\n"
    " {\"type\": \"ca\", \"guid\": \"0x10\", \"ports\": 1, \"desc\": \"h0\", \"vfs\": 2},\n"
    " {\"type\": \"ca\", \"guid\": \"0x20\", \"ports\": 1, \"desc\": \"h1\"}],\n"
    " \"links\": [{\"a\": \"0x1\", \"pa\": 1, \"b\": \"0x10\", \"pb\": 1}],\n";

void expect_error(const std::string &text, std::size_t line, std::size_t column, const std::string &part) {
    try {
        read_topology_json(text, "in.json");
        ADD_FAILURE() << "no error for " << text;
    } catch (const ParseError &e) {
        EXPECT_EQ(e.line(), line) << e.what();
        EXPECT_EQ(e.column(), column) << e.what();
        EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
}

TEST(VswitchJson, RefusesBadVmsWithALocatedMessage) {
    // A VM on a node that is not in the fabric, or not a hypervisor.
    expect_error(kHead + " \"vms\": [{\"name\": \"a\", \"hypervisor\": \"0x30\"}]}", 5, 38,
                 "GUID of a hypervisor");
    expect_error(kHead + " \"vms\": [{\"name\": \"a\", \"hypervisor\": \"0x20\"}]}", 5, 38,
                 "GUID of a hypervisor");
    // A VF the hypervisor lacks, one taken, a full hypervisor, a name twice.
    expect_error(kHead + " \"vms\": [{\"name\": \"a\", \"hypervisor\": \"0x10\", \"vf\": 2}]}", 5, 52,
                 "a VF 0..1 of 'h0'");
    expect_error(kHead +
                     " \"vms\": [{\"name\": \"a\", \"hypervisor\": \"0x10\", \"vf\": 1},\n"
                     "  {\"name\": \"b\", \"hypervisor\": \"0x10\", \"vf\": 1}]}",
                 6, 45, "a free VF of 'h0' (VM 'a' runs there)");
    expect_error(
        kHead +
            " \"vms\": [{\"name\": \"a\", \"hypervisor\": \"0x10\"}, {\"name\": \"b\", \"hypervisor\": "
            "\"0x10\"},\n  {\"name\": \"c\", \"hypervisor\": \"0x10\"}]}",
        6, 31, "a hypervisor with a free VF ('h0' runs 2 VMs on 2 VFs)");
    expect_error(kHead +
                     " \"vms\": [{\"name\": \"a\", \"hypervisor\": \"0x10\"}, {\"name\": \"a\", "
                     "\"hypervisor\": \"0x10\"}]}",
                 5, 56, "unique, non-empty VM name");
}

TEST(VswitchJson, RefusesLidsOutOfTheirSpace) {
    // A legacy VF LID past the unicast space; a vLID below the extended space; a LID twice.
    expect_error(kHead + " \"vms\": [{\"name\": \"a\", \"hypervisor\": \"0x10\", \"lid\": 49152}]}", 5, 53,
                 "a VF LID 1..49151");
    expect_error(kHead +
                     " \"vswitch\": {\"vlids\": \"extended\"},\n \"vms\": [{\"name\": \"a\", \"hypervisor\": "
                     "\"0x10\", \"lid\": 9}]}",
                 6, 53, "a vLID 65536..262143");
    expect_error(kHead + " \"vms\": [{\"name\": \"a\", \"hypervisor\": \"0x10\", \"lid\": 262144}]}", 5, 53,
                 "at most 262143");
    expect_error(
        "{\"weft_topology\": 1, \"nodes\": [{\"type\": \"ca\", \"guid\": \"0x10\", \"ports\": 1,\n"
        " \"port_info\": [{\"port\": 1, \"lid\": 5}], \"vfs\": 2, \"vf_lids\": [6, 5]}]}",
        2, 65, "a LID not used by another port");
    expect_error(
        "{\"weft_topology\": 1, \"nodes\": [{\"type\": \"switch\", \"guid\": \"0x10\", \"ports\": 1, "
        "\"vfs\": 2}]}",
        1, 86, "only on a CA");
    expect_error(kHead + " \"vswitch\": {\"lid_scheme\": \"static\"}}", 5, 28, "lid_scheme");
    // A VM whose LID is not its VF's.
    expect_error(
        "{\"weft_topology\": 1, \"nodes\": [{\"type\": \"ca\", \"guid\": \"0x10\", \"ports\": 1, \"vfs\": 2, "
        "\"vf_lids\": [6, 7]}],\n \"vms\": [{\"name\": \"a\", \"hypervisor\": \"0x10\", \"vf\": 1, \"lid\": "
        "6}]}",
        2, 62, "the LID of VF 1 of '' (7)");
}

}  // namespace
}  // namespace weft::routing
