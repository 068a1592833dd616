// OpenSM's option files (-w, -O, -i, -m): what a well-formed file yields, and located errors.
#include <gtest/gtest.h>

#include <string>

#include "weft/routing/option_files.hpp"
#include "weft/routing/parse_error.hpp"

namespace weft::routing {
namespace {

template <class F>
void expect_error(F &&read, std::size_t line, std::size_t column, const std::string &part) {
    try {
        read();
        ADD_FAILURE() << "no ParseError; expected one at " << line << ":" << column;
    } catch (const ParseError &e) {
        EXPECT_EQ(e.file(), "opt.txt") << e.what();
        EXPECT_EQ(e.line(), line) << e.what();
        EXPECT_EQ(e.column(), column) << e.what();
        EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
}

TEST(OptionFiles, HopWeights) {
    const auto w = read_hop_weights("# weights\n0x0002c90000000001 3 5\n\n  0x2 12 1 # spine\n", "opt.txt");
    ASSERT_EQ(w.size(), 2u);
    EXPECT_EQ(w[0].sw, 0x0002c90000000001ull);
    EXPECT_EQ(w[0].port, 3);
    EXPECT_EQ(w[0].weight, 5u);
    EXPECT_EQ(w[1].sw, 0x2ull);
    EXPECT_EQ(w[1].port, 12);
    EXPECT_EQ(w[1].weight, 1u);
}

TEST(OptionFiles, HopWeightErrors) {
    expect_error([] { read_hop_weights("0x1 3\n", "opt.txt"); }, 1, 6, "weight");
    expect_error([] { read_hop_weights("0x1 3 4\n0x1 0 4\n", "opt.txt"); }, 2, 5, "port number 1..254");
    expect_error([] { read_hop_weights("0x1 3 0\n", "opt.txt"); }, 1, 7, "weight 1..254");
    expect_error([] { read_hop_weights("0x1 3 300\n", "opt.txt"); }, 1, 7, "weight");
    expect_error([] { read_hop_weights("0x1 3 4 9\n", "opt.txt"); }, 1, 9, "end of line");
    expect_error([] { read_hop_weights("switch 3 4\n", "opt.txt"); }, 1, 1, "GUID");
}

TEST(OptionFiles, PortSearchOrdering) {
    const auto o = read_port_search_ordering("0x10 3 1 2 # x y z\n0x11 7\n", "opt.txt");
    ASSERT_EQ(o.size(), 2u);
    EXPECT_EQ(o[0].sw, 0x10ull);
    EXPECT_EQ(o[0].ports, (std::vector<PortNum>{3, 1, 2}));
    EXPECT_EQ(o[1].ports, (std::vector<PortNum>{7}));
}

TEST(OptionFiles, PortSearchOrderingErrors) {
    expect_error([] { read_port_search_ordering("0x10\n", "opt.txt"); }, 1, 5, "at least one port");
    expect_error([] { read_port_search_ordering("0x10 1 2 1\n", "opt.txt"); }, 1, 10, "each port once");
    expect_error([] { read_port_search_ordering("0x10 1,2\n", "opt.txt"); }, 1, 7, "port number");
    expect_error([] { read_port_search_ordering("0x10 255\n", "opt.txt"); }, 1, 6, "port number");
}

TEST(OptionFiles, IgnoreGuidsBothForms) {
    const auto ig = read_ignore_guids("0x100 4\n0x200\n# c\n0x300 1 # trailing\n", "opt.txt");
    EXPECT_EQ(ig.end_port_guids, (std::vector<Guid>{0x200}));
    ASSERT_EQ(ig.switch_ports.size(), 2u);
    EXPECT_EQ(ig.switch_ports[0], (std::pair<Guid, PortNum>{0x100, 4}));
    EXPECT_EQ(ig.switch_ports[1], (std::pair<Guid, PortNum>{0x300, 1}));
    expect_error([] { read_ignore_guids("0x100 4 5\n", "opt.txt"); }, 1, 9, "end of line");
}

TEST(OptionFiles, IdsGuids) {
    const auto ids = read_ids_guids("0x10 7\n0x11 0x20\n", "opt.txt");
    ASSERT_EQ(ids.size(), 2u);
    EXPECT_EQ(ids[1], (std::pair<Guid, std::uint64_t>{0x11, 0x20}));
    expect_error([] { read_ids_guids("0x10\n", "opt.txt"); }, 1, 5, "ID");
}

}  // namespace
}  // namespace weft::routing
