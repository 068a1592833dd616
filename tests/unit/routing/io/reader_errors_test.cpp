// Every reader rejects malformed input with a located ParseError.
#include <gtest/gtest.h>

#include <functional>

#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/topology_io.hpp"

namespace weft::routing {
namespace {

struct Where {
    std::size_t line, column;
    std::string expected_part;
};

void expect_error(const std::function<void()> &read, Where w) {
    try {
        read();
        ADD_FAILURE() << "no ParseError; expected one at " << w.line << ":" << w.column;
    } catch (const ParseError &e) {
        EXPECT_EQ(e.file(), "in.txt") << e.what();
        EXPECT_EQ(e.line(), w.line) << e.what();
        EXPECT_EQ(e.column(), w.column) << e.what();
        EXPECT_NE(std::string(e.what()).find(w.expected_part), std::string::npos) << e.what();
    }
}

const std::string kSwitch =
    "switchguid=0x10(10)\nSwitch\t4 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n";

TEST(ReaderErrors, Ibnetdiscover) {
    auto rd = [](std::string t) { return [t] { read_ibnetdiscover(t, "in.txt"); }; };
    expect_error(rd(kSwitch + "[9]\t\"H-0000000000000020\"[1](21) \t\t# \"h\" lid 2 4xEDR\n"),
                 {3, 2, "port number 1..4"});
    expect_error(rd(kSwitch + "[1]\t\"H-0000000000000020\"[1](21) \t\t# \"h\" lid 2 4xEDR\n"),
                 {3, 5, "node defined in the file"});
    expect_error(rd(kSwitch + "[1]\t\"S-0000000000000010\"[2]\t\t# \"h\" lid 2 4xZDR\n"),
                 {3, 44, "link speed"});
    expect_error(rd(kSwitch + "[1]\tS-0000000000000010[2]\n"), {3, 5, "remote node id in quotes"});
    expect_error(rd("Switch\t0 \"S-0000000000000010\"\n"), {1, 8, "number of ports"});
    expect_error(rd("Switch\t4 \"sw\"\n"), {1, 10, "S-/H-/R-<hex GUID>"});
    expect_error(rd("[1]\t\"S-0000000000000010\"[2]\n"), {1, 1, "header before port lines"});
    expect_error(rd("vendid=0x0\nbogus line\n"), {2, 1, "node record"});
    expect_error(rd("sysimgguid=zz\n"), {1, 12, "system image GUID"});
    expect_error(rd(kSwitch + "\n" + kSwitch), {5, 0, "unique node"});
    // Two ends that disagree about the cable.
    expect_error(
        rd(kSwitch +
           "[1]\t\"S-0000000000000020\"[1]\n[2]\t\"S-0000000000000020\"[2]\n\n"
           "switchguid=0x20(20)\nSwitch\t4 \"S-0000000000000020\"\n[1]\t\"S-0000000000000010\"[2]\n"),
        {8, 0, "uncabled"});
}

TEST(ReaderErrors, IbsimNet) {
    auto rd = [](std::string t) { return [t] { read_ibsim_net(t, "in.txt"); }; };
    expect_error(rd("Switch 4 \"a\"\n[5] \"b\"[1]\n"), {2, 2, "port number 1..4"});
    expect_error(rd("Switch 4 \"a\"\n[1] \"b\"[1]\n"), {2, 5, "node defined"});
    expect_error(rd("Switch 4 \"a\"\n[1] \"a\"[2] x=3\n"), {2, 12, "port option"});
    expect_error(rd("Switch 4 \"a\"\n[1] \"a\"[2] w=0\n"), {2, 14, "width mask"});
    expect_error(rd("Switch 2 \"a\"\n[1] \"a\"[2]\n[2] \"a\"[1]\n[1] \"a\"[2]\n"),
                 {4, 1, "no more port lines"});
    expect_error(rd("[1] \"a\"[2]\n"), {1, 1, "header before port lines"});
    expect_error(rd("Switch 4 \"a#b\"\n"), {1, 10, "ibsim reserves"});
    expect_error(rd("Switch 4 \"a\"\n@[1] \"x\"\n"), {2, 1, "aliases"});
    expect_error(rd("include \"other.net\"\n"), {1, 9, "include resolver"});
    expect_error(rd("switchguid 5\n"), {1, 1, "'=' (absolute)"});
    expect_error(rd("Switch 4 \"a\"\n[1] \"a\"[2]\n# weft-link 4xWOW\n"), {3, 13, "<width>x<speed>"});
    // Includes: errors name the included file and its line.
    try {
        read_ibsim_net("Switch 4 \"a\"\n\ninclude \"sub.net\"\n", "in.txt",
                       [](const std::string &, std::string &d) {
                           d = "sub.net";
                           return std::string("Hca 1 \"h\"\n[2] \"a\"[1]\n");
                       });
        ADD_FAILURE();
    } catch (const ParseError &e) {
        EXPECT_EQ(e.file(), "sub.net");
        EXPECT_EQ(e.line(), 2u);
    }
}

TEST(ReaderErrors, IbsimIncludesAreBoundedInNumber) {
    // Ten includes of a file that includes the next ten times, eight deep: 10^8 reads before (a
    // libFuzzer find). The count of includes followed is bounded like their depth.
    std::size_t reads = 0;
    auto resolve = [&](const std::string &name, std::string &display) {
        ++reads;
        display = name;
        const int level = name[1] - '0';
        std::string text;
        for (int i = 0; i < 10 && level < 8; ++i) text += "include \"f" + std::to_string(level + 1) + "\"\n";
        return text;
    };
    std::string top;
    for (int i = 0; i < 10; ++i) top += "include \"f1\"\n";
    try {
        read_ibsim_net(top, "in.txt", resolve);
        ADD_FAILURE() << "read " << reads << " includes";
    } catch (const ParseError &e) {
        EXPECT_NE(std::string(e.what()).find("at most 1000 includes in all"), std::string::npos) << e.what();
    }
    EXPECT_LE(reads, 1000u);
}

TEST(ReaderErrors, SubnetLst) {
    auto rd = [](std::string t) { return [t] { read_subnet_lst(t, "in.txt"); }; };
    const std::string sw =
        "{ SW Ports:08 SystemGUID:0000000000000010 NodeGUID:0000000000000010 PortGUID:0000000000000010 "
        "VenID:0 "
        "DevID:0 Rev:0 {s} LID:0001 PN:01 }";
    const std::string ca =
        "{ CA Ports:02 SystemGUID:0000000000000020 NodeGUID:0000000000000020 PortGUID:0000000000000021 "
        "VenID:0 "
        "DevID:0 Rev:0 {h} LID:0002 PN:01 }";
    EXPECT_NO_THROW(read_subnet_lst(sw + " " + ca + " PHY=4x LOG=ACT SPD=25\n", "in.txt"));
    expect_error(rd(sw + " " + ca + " PHY=5x LOG=ACT SPD=25\n"), {1, 279, "link width"});
    expect_error(rd(sw + " " + ca + " PHY=4x LOG=ACT SPD=3\n"), {1, 294, "lane rate"});
    expect_error(rd("{ XX Ports:08\n"), {1, 3, "node type"});
    expect_error(rd(sw.substr(0, 40) + "\n"), {1, 41, "hex GUID"});
}

TEST(ReaderErrors, Json) {
    auto rd = [](std::string t) { return [t] { read_topology_json(t, "in.txt"); }; };
    expect_error(rd("{\"weft_topology\": 1, \"nodes\": [}"), {1, 32, "JSON value"});
    expect_error(rd("{\"weft_topology\": 2, \"nodes\": []}"), {1, 19, "schema version 1"});
    expect_error(
        rd("{\"weft_topology\": 1,\n \"nodes\": [{\"type\": \"hub\", \"guid\": \"0x1\", \"ports\": 2}]}"),
        {2, 21, "node type"});
    expect_error(rd("{\"weft_topology\": 1,\n \"nodes\": [{\"type\": \"ca\", \"guid\": 7, \"ports\": 2}]}"),
                 {2, 35, "\"0x<hex>\""});
    expect_error(
        rd("{\"weft_topology\": 1, \"nodes\": [{\"type\": \"ca\", \"guid\": \"0x1\", \"ports\": 2}],\n"
           " \"links\": [{\"a\": \"0x1\", \"pa\": 1, \"b\": \"0x2\", \"pb\": 1}]}"),
        {2, 39, "GUID of a node"});
    expect_error(
        rd("{\"weft_topology\": 1, \"nodes\": [{\"type\": \"ca\", \"guid\": \"0x1\", \"ports\": 2}],\n"
           " \"links\": [{\"a\": \"0x1\", \"pa\": 3, \"b\": \"0x1\", \"pb\": 1}]}"),
        {2, 31, "port number 1..2"});
    expect_error(rd(std::string(100, '[') + std::string(100, ']')), {1, 66, "nested at most"});
}

TEST(ReaderErrors, NoNodesIsNoFabric) {
    // A header-only ibnetdiscover file (what a sweep that found nothing writes) is no fabric: the
    // error points past its last line.
    const std::string header =
        "#\n# Topology file: generated on Thu Nov 28 2026\n#\n# Initiated from node 0x10 port 0x11\n\n";
    expect_error([&] { read_ibnetdiscover(header, "in.txt"); }, {6, 1, "node record"});
    expect_error([&] { read_topology_string(header, "in.txt"); }, {6, 1, "node record"});
    expect_error([] { read_ibsim_net("# nothing\n", "in.txt"); }, {2, 1, "node record"});
    expect_error([] { read_subnet_lst("", "in.txt"); }, {1, 1, "node record"});
    expect_error([] { read_topology_json("{\"weft_topology\": 1, \"nodes\": []}", "in.txt"); },
                 {1, 31, "at least one node"});
}

TEST(ReaderErrors, CableToTheSameNode) {
    // A switch port cabled to another port of the same switch, in every format, located at the
    // cable's far end.
    expect_error([] { read_ibsim_net("Switch 4 \"sw\"\n[1] \"sw\"[2]\n", "in.txt"); },
                 {2, 5, "a cable to another node"});
    try {
        read_ibsim_net("Switch 4 \"sw\"\n[1] \"sw\"[2]\n", "in.txt");
    } catch (const ParseError &e) {
        EXPECT_NE(std::string(e.what()).find("port 2 of the same switch"), std::string::npos) << e.what();
    }
    expect_error([] { read_ibnetdiscover(kSwitch + "[1]\t\"S-0000000000000010\"[3]\n", "in.txt"); },
                 {3, 5, "a cable to another node"});
    expect_error(
        [] {
            read_topology_json(
                "{\"weft_topology\": 1, \"nodes\": [{\"type\": \"switch\", \"guid\": \"0x1\", \"ports\": "
                "4}],\n"
                " \"links\": [{\"a\": \"0x1\", \"pa\": 1, \"b\": \"0x1\", \"pb\": 2}]}",
                "in.txt");
        },
        {2, 12, "two different nodes"});
}

TEST(ReaderErrors, GuidFilesAndSpecs) {
    expect_error([] { read_guid_list("0x10\nzz\n", "in.txt"); }, {2, 1, "GUID"});
    expect_error([] { read_guid_list("0x10 0x20\n", "in.txt"); }, {1, 6, "end of line"});
    expect_error([] { read_guid2lid("0x10 0x4 0x3\n", "in.txt"); }, {1, 10, "top LID >= the base"});
    expect_error([] { read_guid2lid("0x10 0x4 0x6\n", "in.txt"); }, {1, 10, "2^lmc"});
    expect_error([] { read_guid2lid("0x10 0x0 0x0\n", "in.txt"); }, {1, 6, "base LID >= 1"});
    auto gen_error = [](const std::string &spec, std::size_t col, const std::string &part) {
        try {
            generate(spec);
            ADD_FAILURE() << spec;
        } catch (const ParseError &e) {
            EXPECT_EQ(e.file(), "<gen>");
            EXPECT_EQ(e.column(), col) << e.what();
            EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
        }
    };
    gen_error("blob:k=3", 1, "a generator");
    gen_error("kary:k=4,n=x", 12, "n as an integer");
    gen_error("kary:k=4,n=2,z=1", 14, "a parameter of kary");
    gen_error("pgft:h=2;m=4,x;w=1,4", 14, "m as an integer");
    gen_error("torus:4xx4", 9, "a number");
    gen_error("kary:k=2,n=2/fail-links=99", 14, "buildable");
    gen_error("fail-links=1", 1, "fabric spec before");
}

}  // namespace
}  // namespace weft::routing
