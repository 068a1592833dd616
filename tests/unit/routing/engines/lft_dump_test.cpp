#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string_view>
#include <utility>
#include <vector>

#include "test_fabrics.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/lft_dump.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/vswitch.hpp"

namespace weft::routing {
namespace {

// The 2-switch fabric OpenSM 3.3.23 routed on ibsim to produce kOpenSmDump (minhop):
// sw1 (GUID 0x200000, LID 1) ports 1,2 -> sw2 ports 1,2, h1 on port 3, h3 on port 4;
// sw2 (0x200001, LID 2), h2 on port 3. CA port GUIDs are node GUID + 1.
Fabric ibsim_pair() {
    Fabric f;
    const NodeIdx s1 = f.add_node(NodeType::Switch, 0x200000, 8, "sw1");
    const NodeIdx s2 = f.add_node(NodeType::Switch, 0x200001, 8, "sw2");
    const NodeIdx h1 = f.add_node(NodeType::Ca, 0x100000, 1, "h1");
    const NodeIdx h2 = f.add_node(NodeType::Ca, 0x100002, 1, "h2");
    const NodeIdx h3 = f.add_node(NodeType::Ca, 0x100004, 1, "h3");
    f.set_port_guid(h1, 1, 0x100001);
    f.set_port_guid(h2, 1, 0x100003);
    f.set_port_guid(h3, 1, 0x100005);
    f.connect(s1, 1, s2, 1);
    f.connect(s1, 2, s2, 2);
    f.connect(s1, 3, h1, 1);
    f.connect(s1, 4, h3, 1);
    f.connect(s2, 3, h2, 1);
    f.set_lid(s1, 0, 1, 0);
    f.set_lid(s2, 0, 2, 0);
    f.set_lid(h1, 1, 3, 0);
    f.set_lid(h2, 1, 4, 0);
    f.set_lid(h3, 1, 5, 0);
    return f;
}

constexpr const char *kOpenSmDump =
    "Unicast lids [0-5] of switch Lid 1 guid 0x0000000000200000 ('sw1'):\n"
    "0x0001 000 # Switch portguid 0x0000000000200000: 'sw1'\n"
    "0x0002 002 # Switch portguid 0x0000000000200001: 'sw2'\n"
    "0x0003 003 # Channel Adapter portguid 0x0000000000100001: 'h1'\n"
    "0x0004 001 # Channel Adapter portguid 0x0000000000100003: 'h2'\n"
    "0x0005 004 # Channel Adapter portguid 0x0000000000100005: 'h3'\n"
    "5 lids dumped\n"
    "Unicast lids [0-5] of switch Lid 2 guid 0x0000000000200001 ('sw2'):\n"
    "0x0001 001 # Switch portguid 0x0000000000200000: 'sw1'\n"
    "0x0002 000 # Switch portguid 0x0000000000200001: 'sw2'\n"
    "0x0003 001 # Channel Adapter portguid 0x0000000000100001: 'h1'\n"
    "0x0004 003 # Channel Adapter portguid 0x0000000000100003: 'h2'\n"
    "0x0005 002 # Channel Adapter portguid 0x0000000000100005: 'h3'\n"
    "5 lids dumped\n";

void expect_error(const std::string &text, std::size_t line, std::size_t column,
                  const std::string &expected_part) {
    try {
        read_lft_dump(text, "bad.dump");
        ADD_FAILURE() << "accepted: " << text;
    } catch (const ParseError &e) {
        EXPECT_EQ(e.file(), "bad.dump");
        EXPECT_EQ(e.line(), line) << e.what();
        EXPECT_EQ(e.column(), column) << e.what();
        EXPECT_NE(e.expected().find(expected_part), std::string::npos) << e.what();
    }
}

// Routes f with the file engine on dump text (in a temporary file, removed after).
ChainResult route_with_dump(const Fabric &f, const std::string &text, RoutingTables &t) {
    const std::string path = ::testing::TempDir() + "/weft-lfts.dump";
    std::ofstream(path) << text;
    RoutingOptions o;
    o.lfts_file = path;
    o.no_fallback = true;
    const ChainResult r = run_chain("file", f, o, t);
    std::remove(path.c_str());
    return r;
}

TEST(LftDump, MinhopMatchesOpenSmByteForByte) {
    const Fabric f = ibsim_pair();
    RoutingTables t;
    ASSERT_TRUE(run_chain("minhop", f, {}, t).ok);
    EXPECT_EQ(write_lft_dump(f, t), kOpenSmDump);
}

TEST(LftDump, ReadsOpenSmDump) {
    const auto d = read_lft_dump(kOpenSmDump, "opensm-lfts.dump");
    ASSERT_EQ(d.switches.size(), 2u);
    EXPECT_EQ(d.switches[0].guid, 0x200000u);
    EXPECT_EQ(d.switches[0].lid, 1u);
    EXPECT_EQ(d.switches[0].desc, "sw1");
    ASSERT_EQ(d.switches[1].entries.size(), 5u);
    EXPECT_EQ(d.switches[1].entries[4].lid, 5u);
    EXPECT_EQ(d.switches[1].entries[4].port, 2);
    EXPECT_EQ(d.switches[1].entries[4].port_guid, 0x100005u);
    EXPECT_EQ(d.switches[1].entries[4].line, 13u);
}

TEST(LftDump, RoundTripGivesIdenticalLfts) {
    for (const char *engine : {"minhop", "updn"}) {
        const Fabric f = test::kary_ntree(3, 3);
        RoutingTables t;
        ASSERT_TRUE(run_chain(engine, f, {}, t).ok);
        const std::string text = write_lft_dump(f, t);
        RoutingTables back;
        back.reset(f);
        const auto rep = apply_lft_dump(read_lft_dump(text, "x"), f, back);
        EXPECT_EQ(rep.switches_applied, f.switch_count());
        EXPECT_EQ(rep.rejected, 0u);
        EXPECT_EQ(back.lft, t.lft) << engine;
        EXPECT_EQ(write_lft_dump(f, back), text);
    }
}

// VMs with vLIDs (seed 002's extended LID space): each switch's vLIDs come in a section of their
// own after its pLIDs, and come back.
TEST(LftDump, ExtendedVlidsRoundTrip) {
    Fabric f = test::generated("kary:k=2,n=3");
    add_vms(f, {.vfs = 2, .load_percent = 50, .extended_vlids = true});
    assign_lids(f, {});
    ASSERT_GE(f.max_lid(), kFirstVlid);
    RoutingTables t;
    ASSERT_TRUE(run_chain("vswitch-ftree", f, {}, t).ok);
    const std::string text = write_lft_dump(f, t);
    EXPECT_NE(text.find("Unicast lids [0-20] of switch Lid 1 "), std::string::npos);
    EXPECT_NE(text.find("\n20 lids dumped\nVirtual lids [0x10000-0x1000f] of switch Lid 1 guid "),
              std::string::npos);
    EXPECT_NE(text.find("\nvlid 0x10000 001 # Channel Adapter portguid "), std::string::npos);
    EXPECT_NE(text.find("\n16 vlids dumped\n"), std::string::npos);
    RoutingTables back;
    back.reset(f);
    const auto rep = apply_lft_dump(read_lft_dump(text, "x", &f), f, back);
    EXPECT_EQ(rep.rejected, 0u);
    EXPECT_EQ(back.lft, t.lft);
    EXPECT_EQ(write_lft_dump(f, back), text);
    // Without the expected lines, too (the general reader).
    back.reset(f);
    apply_lft_dump(read_lft_dump(text, "x"), f, back);
    EXPECT_EQ(back.lft, t.lft);
}

// What OpenSM's reader (osm_ucast_file.c) takes of a dump: lines starting "Unicast lids" and
// "0x" (after blanks), every other line skipped. Returns those lines' LIDs, past 0xFFFF or not.
std::vector<unsigned long> lids_opensm_reads(const std::string &text) {
    std::vector<unsigned long> lids;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        std::string_view line(text.data() + at, end - at);
        line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
        if (line.substr(0, 2) == "0x") lids.push_back(std::stoul(std::string(line.substr(2)), nullptr, 16));
        at = end + 1;
    }
    return lids;
}

// OpenSM's reader keeps 16 bits of a LID: a vLID among its lines would overwrite a pLID's entry.
// The vLID section keeps them out of its sight, and every pLID in.
TEST(LftDump, OpenSmReadsNoVlid) {
    Fabric f = test::generated("kary:k=2,n=3");
    add_vms(f, {.vfs = 2, .load_percent = 50, .extended_vlids = true});
    assign_lids(f, {});
    RoutingTables t;
    ASSERT_TRUE(run_chain("vswitch-ftree", f, {}, t).ok);
    const auto lids = lids_opensm_reads(write_lft_dump(f, t));
    std::size_t routed = 0;  // the pLIDs' entries: 12 switches and 8 PFs, where routed
    for (SwitchIdx s = 0; s < f.switch_count(); ++s)
        for (Lid l = 1; l <= 20; ++l) routed += t.lft[s][l] <= f.node(f.switch_node(s)).num_ports;
    EXPECT_EQ(lids.size(), routed);
    for (unsigned long l : lids) EXPECT_LE(l, 20u);
}

std::string fixture(const char *name) {
    std::ifstream in(std::string(WEFT_ENGINE_FIXTURES) + "/" + name, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A fabric without vLIDs is dumped as before the vLID section existed (the fixtures are what
// weft-route --dump-lfts wrote then, and are OpenSM's format): no section, no byte changed. VF
// LIDs from the unicast space (vlids=legacy) are pLIDs and stay in OpenSM's list.
TEST(LftDump, DumpsWithoutVlidsAreUnchanged) {
    for (const auto &[spec, file] : {std::pair{"kary:k=2,n=3", "kary2_3_ftree.lfts"},
                                     std::pair{"kary:k=2,n=3/vms:vfs=2,load=50", "kary2_3_vms_ftree.lfts"}}) {
        Fabric f = test::generated(spec);
        assign_lids(f, {});
        RoutingTables t;
        ASSERT_TRUE(run_chain("ftree", f, {}, t).ok);
        const std::string want = fixture(file);
        ASSERT_FALSE(want.empty()) << file;
        const std::string text = write_lft_dump(f, t);
        EXPECT_EQ(text, want) << spec;
        EXPECT_EQ(text.find("Virtual lids"), std::string::npos);
    }
}

TEST(LftDump, FileEngineLoadsDumpAndSkipsUnknownSwitches) {
    const Fabric f = ibsim_pair();
    std::string text = kOpenSmDump;
    text +=
        "Unicast lids [0-5] of switch Lid 9 guid 0x00000000000abcde ('gone'):\n0x0001 007\n5 lids dumped\n";
    text.replace(text.find("0x0004 001"), 10, "0x0004 002");  // sw1 reaches h2 over port 2
    RoutingTables t;
    const auto r = route_with_dump(f, text, t);
    ASSERT_TRUE(r.ok) << r.error << (r.failures.empty() ? "" : r.failures[0]);
    EXPECT_EQ(r.engine, "file");
    EXPECT_EQ(t.lft[0][4], 2);
    EXPECT_EQ(t.lft[1][5], 2);
    EXPECT_EQ(t.hops[0][4], 2);
    EXPECT_EQ(equal_cost_ports(f, t, 0, 4), (std::vector<PortNum>{1, 2}));
}

// The hops describe the loaded routes as they are: a loop and a dead end leave no length on the
// switches they pass, and a detour counts its hops.
TEST(LftDump, FileEngineHopsFollowTheLoadedRoutes) {
    const Fabric f = ibsim_pair();
    std::string text = kOpenSmDump;
    text.replace(text.find("0x0004 001"), 10, "0x0004 002");  // sw1 -> sw2 for h2: still 2 hops
    text.replace(text.find("0x0003 001"), 10, "0x0003 006");  // sw2 -> unlinked port 6 for h1
    // h3 (on sw1) bounces: sw1 sends it to sw2, sw2 back to sw1.
    text.replace(text.find("0x0005 004"), 10, "0x0005 001");
    RoutingTables t;
    const auto r = route_with_dump(f, text, t);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(t.hops[0][1], 0);  // sw1's own LID
    EXPECT_EQ(t.hops[1][1], 1);
    EXPECT_EQ(t.hops[0][3], 1);         // h1 from sw1, where it is attached
    EXPECT_EQ(t.hops[1][3], kInfHops);  // the dead end
    EXPECT_EQ(t.hops[0][4], 2);
    EXPECT_EQ(t.hops[1][4], 1);
    EXPECT_EQ(t.hops[0][5], kInfHops);  // the bounce: sw1's own host is not delivered
    EXPECT_EQ(t.hops[1][5], kInfHops);
}

// load_lft_dump reads a file in 32 KiB chunks of whole lines: the same LFTs and report as the
// whole text parsed at once, wherever the chunk boundaries fall, with lines longer than a chunk
// and without a final newline; an error deep in the file names its line.
TEST(LftDump, LoadingAFileInChunksMatchesTheWholeText) {
    const Fabric f = test::kary_ntree(4, 3);  // 48 switches, 64 hosts: a dump of ~300 KB
    RoutingTables t;
    ASSERT_TRUE(run_chain("minhop", f, {}, t).ok);
    std::string text = write_lft_dump(f, t);
    ASSERT_GT(text.size(), std::size_t{64} << 10);
    // A comment line longer than a chunk, and no newline after the last line.
    text.insert(text.find('\n') + 1, "# " + std::string(50000, 'x') + "\n");
    text.pop_back();
    const std::string path = ::testing::TempDir() + "/weft-chunks.dump";
    std::ofstream(path, std::ios::binary) << text;
    RoutingTables whole, loaded;
    whole.reset(f);
    loaded.reset(f);
    const auto a = apply_lft_dump(read_lft_dump(text, path), f, whole);
    const auto b = load_lft_dump(path, f, loaded);
    EXPECT_EQ(loaded.lft, whole.lft);
    EXPECT_EQ(loaded.lft, t.lft);
    EXPECT_EQ(b.entries, a.entries);
    EXPECT_EQ(b.switches_applied, f.switch_count());
    // A bad entry 3000 lines in: the same located error from both.
    std::size_t at = 0;
    for (int i = 0; i < 3000; ++i) at = text.find('\n', at) + 1;
    text.replace(at, 6, "0x00g1");
    std::ofstream(path, std::ios::binary) << text;
    try {
        load_lft_dump(path, f, loaded);
        ADD_FAILURE() << "accepted a bad entry";
    } catch (const ParseError &e) {
        EXPECT_EQ(e.line(), 3001u) << e.what();
        EXPECT_EQ(e.column(), 5u) << e.what();
    }
    std::remove(path.c_str());
    EXPECT_THROW(load_lft_dump(path, f, loaded), std::runtime_error);  // gone
}

TEST(LftDump, ALineLongerThanTheLimitIsRefusedWhereItIs) {
    // A dump is read without a size limit (a large fabric's is gigabytes), its lines with one:
    // -U /dev/zero once read without end.
    const Fabric f = test::kary_ntree(2, 2);
    RoutingTables t;
    ASSERT_TRUE(run_chain("minhop", f, {}, t).ok);
    std::string text = write_lft_dump(f, t);
    const std::size_t third = text.find('\n', text.find('\n') + 1) + 1;
    text.insert(third, "# " + std::string(70000, 'x') + "\n");
    const std::string path = ::testing::TempDir() + "/weft-long-line.dump";
    std::ofstream(path, std::ios::binary) << text;
    RoutingTables loaded;
    loaded.reset(f);
    try {
        load_lft_dump(path, f, loaded);
        ADD_FAILURE() << "read a 70 KB line";
    } catch (const ParseError &e) {
        EXPECT_EQ(e.line(), 3u) << e.what();
        EXPECT_NE(std::string(e.what()).find("at most 64 KiB"), std::string::npos) << e.what();
    }
    std::remove(path.c_str());
    EXPECT_THROW(load_lft_dump("/dev/zero", f, loaded), ParseError);
}

// Entry lines in OpenSM's own shape take a shortcut past the general line reader; lines just off
// that shape must still read (or fail) exactly as the general reader has them.
TEST(LftDump, EntriesOffOpenSmsShapeReadTheSame) {
    const std::string head = "Unicast lids [0-5] of switch Lid 1 guid 0x10 ('x'):\n";
    const struct {
        const char *line;
        Lid lid;
        PortNum port;
        Guid guid;
    } cases[] = {
        {"0x0003 003 # Channel Adapter portguid 0x0000000000100001: 'h1'", 3, 3, 0x100001},
        {"0x3 3 # Switch portguid 0x10: 'x'", 3, 3, 0x10},                      // short numbers
        {"0x0003\t003 # Router portguid 0x0000000000000011: 'r'", 3, 3, 0x11},  // a tab
        {"0x0003 003 # Channel Adapter portguid 0x0000000000100001\r", 3, 3, 0x100001},
        {"0x0003 003 # Channel Adapter portguid 0x00000000001000AB: 'h1'", 3, 3, 0x1000ab},
        {"0x0003 003 : (Channel Adapter portguid 0x0000000000100001: 'h1')", 3, 3, 0x100001},
        {"0x0003 003 # unknown node and type", 3, 3, 0},
        {"0x0003 003", 3, 3, 0},
        {"0x00003 255 # Switch portguid 0x000000000000000010: 'x'", 3, 255, 0x10},  // 18 digits
    };
    for (const auto &c : cases) {
        const auto d = read_lft_dump(head + c.line + "\n", "ok");
        ASSERT_EQ(d.switches.at(0).entries.size(), 1u) << c.line;
        const LftDumpEntry &e = d.switches[0].entries[0];
        EXPECT_EQ(e.lid, c.lid) << c.line;
        EXPECT_EQ(e.port, c.port) << c.line;
        EXPECT_EQ(e.port_guid, c.guid) << c.line;
        EXPECT_EQ(e.line, 2u) << c.line;
    }
    expect_error(head + "0x0003 003 # Switch portguid 0x00000000001000zz: 'x'\n", 2, 46, "port GUID");
    expect_error(head + "0x0003 003 # Switch portguid 0x10000000000000000: 'x'\n", 2, 32, "port GUID");
    expect_error(head + "0x0003 256 # Switch portguid 0x0000000000000010: 'x'\n", 2, 8, "port number");
    expect_error(head + "0x40000 003\n", 2, 3, "LID");
}

// With the fabric's lines expected, a line equal to the expected one but for its port digits
// is taken in one compare; every line just off it must read (or fail) exactly as without.
TEST(LftDump, ExpectedLinesReadAsAnyOther) {
    using namespace std::string_literals;
    const Fabric f = ibsim_pair();
    auto same = [&](const std::string &text) -> std::string {
        SCOPED_TRACE(text);
        LftDump plain, expected;
        std::string plain_error, expected_error;
        try {
            plain = read_lft_dump(text, "x");
        } catch (const ParseError &e) {
            plain_error = e.what();
        }
        try {
            expected = read_lft_dump(text, "x", &f);
        } catch (const ParseError &e) {
            expected_error = e.what();
        }
        EXPECT_EQ(expected_error, plain_error);
        EXPECT_EQ(expected.switches.size(), plain.switches.size());
        for (std::size_t i = 0; i < plain.switches.size() && i < expected.switches.size(); ++i) {
            const auto &a = plain.switches[i].entries, &b = expected.switches[i].entries;
            EXPECT_EQ(b.size(), a.size());
            for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) {
                EXPECT_EQ(b[k].lid, a[k].lid);
                EXPECT_EQ(b[k].port, a[k].port);
                EXPECT_EQ(b[k].port_guid, a[k].port_guid);
                EXPECT_EQ(b[k].line, a[k].line);
            }
        }
        return plain_error;
    };
    EXPECT_EQ(same(kOpenSmDump), "");
    const std::string head = "Unicast lids [0-5] of switch Lid 1 guid 0x0000000000200000 ('sw1'):\n";
    const std::string h1 = "0x0003 003 # Channel Adapter portguid 0x0000000000100001: 'h1'";
    for (const std::string &line : std::vector<std::string>{
             h1,
             "0x0003 003 # Channel Adapter portguid 0x0000000000100001: 'h9'",  // another description
             "0x0003 003 # Channel Adapter portguid 0x0000000000100001: 'h1' ",
             "0x0003 003 # Channel Adapter portguid 0x0000000000100001: 'h1'\r",
             "0x0003 003 # Channel Adapter portguid 0x0000000000100003: 'h1'",  // h2's GUID (remap)
             "0x0003 003 # Channel Adapter portguid 0x00000000001000A1: 'h1'",  // upper case
             "0x0003 003 # Switch portguid 0x0000000000100001: 'h1'",
             "0x0003 255 # Channel Adapter portguid 0x0000000000100001: 'h1'",
             "0x0003 256 # Channel Adapter portguid 0x0000000000100001: 'h1'",  // no port
             "0x0003 0x3 # Channel Adapter portguid 0x0000000000100001: 'h1'",
             "0x0003 00a # Channel Adapter portguid 0x0000000000100001: 'h1'",
             "0x0003-003 # Channel Adapter portguid 0x0000000000100001: 'h1'",
             "0x0003 003## Channel Adapter portguid 0x0000000000100001: 'h1'",
             "0X0003 003 # Channel Adapter portguid 0x0000000000100001: 'h1'",
             "0x0003 003 # Channel Adapter portguid 0x0000000000100001: 'h1\0'"s,  // a NUL
             "0x0003 003 # Channel Adapter portguid 0x0000000000100001: '\0h1'"s, "0x0003 003",
             "0x0004 003 # Channel Adapter portguid 0x0000000000100001: 'h1'",  // LID 3 left out
         }) {
        // Where LID 3's line is expected (after LIDs 1 and 2), and where it is not.
        const std::string before = head + "0x0001 000 # Switch portguid 0x0000000000200000: 'sw1'\n" +
                                   "0x0002 002 # Switch portguid 0x0000000000200001: 'sw2'\n";
        const std::string h2 = "0x0004 001 # Channel Adapter portguid 0x0000000000100003: 'h2'\n";
        same(before + line + "\n" + h2);
        same(before + line);  // the end of the text, no newline
        same(before + line + "\n");
        same(head + line + "\n" + h2);
    }
    // The NUL is found where it is, with or without the expected lines.
    const std::string nul = same(head + "0x0001 000 # Switch portguid 0x0000000000200000: 'sw\0'\n"s);
    EXPECT_NE(nul.find(":2:53: expected text"), std::string::npos) << nul;
    // Lines after an entry the expectation skipped, and after a second header, are expected again.
    same(head + "0x0002 002 # Switch portguid 0x0000000000200001: 'sw2'\n" + h1 + "\n" + head + h1 + "\n");
}

TEST(LftDump, RemapsLidsByPortGuid) {
    // The dump was taken when h2 had LID 0x40; its port GUID says it is LID 4 now.
    const Fabric f = ibsim_pair();
    const auto d = read_lft_dump(
        "Unicast lids [0-64] of switch Lid 1 guid 0x200000 ('sw1'):\n"
        "0x0040 002 # Channel Adapter portguid 0x0000000000100003: 'h2'\n",
        "old.dump");
    RoutingTables t;
    t.reset(f);
    const auto rep = apply_lft_dump(d, f, t);
    EXPECT_EQ(rep.remapped, 1u);
    EXPECT_EQ(t.lft[0][4], 2);
}

TEST(LftDump, MalformedDumpsGiveLocatedErrors) {
    const std::string head = "Unicast lids [0-5] of switch Lid 1 guid 0x0000000000200000 ('sw1'):\n";
    expect_error("0x0001 000\n", 1, 1, "header before LID entries");
    expect_error("Unicast lids [0-5] of switch Lid 1 ('sw1'):\n", 1, 13, "guid");
    expect_error("Unicast lids [0-5] of switch Lid 1 guid 0xzz ('sw1'):\n", 1, 43, "switch GUID");
    expect_error(head + "0x0001 000\n0x00g2 001\n", 3, 5, "space and a port");
    expect_error(head + "0x0002 abc\n", 2, 8, "port number");
    expect_error(head + "0x0002 300\n", 2, 8, "port number");
    expect_error(head + "0x0002 3x\n", 2, 9, "after the port");
    expect_error(head + "0x0002\n", 2, 7, "port");
    expect_error(head + "0x0002 003 # Switch portguid 0xq\n", 2, 32, "port GUID");
    expect_error(head + "garbage here\n", 2, 1, "Unicast lids");
    expect_error("Multicast mlids [0xc000-0xc001] of switch Lid 1 guid 0x1:\n", 1, 1, "unicast");
    expect_error(head + "0x99999999 001\n", 2, 3, "LID");
    const std::string vhead =
        "Virtual lids [0x10000-0x10001] of switch Lid 1 guid 0x0000000000200000 ('sw1'):\n";
    expect_error(vhead, 1, 1, "'Unicast lids ... of switch' header before its 'Virtual lids'");
    expect_error(head + "vlid 0x10000 001\n", 2, 1, "'Virtual lids ... of switch' header before vLID");
    expect_error(head + vhead + "vlid 0x0001 001\n", 3, 6, "a vLID");
    expect_error(head + vhead + "vlid 0x40000 001\n", 3, 8, "LID");
    expect_error(head + "Virtual lids [0x10000-0x10001] of switch Lid 2 guid 0x0000000000200001 ('sw2'):\n",
                 2, 1, "'Virtual lids' section of switch 0x0000000000200000");
}

TEST(LftDump, CommentsBlankLinesAndLidsInUseAreAccepted) {
    const auto d = read_lft_dump(
        "# a comment\n\n  Unicast lids [0-2] of switch Lid 1 guid 0x10 ('x'):\r\n0x0001 000\r\n2 lids in "
        "use\n",
        "ok");
    ASSERT_EQ(d.switches.size(), 1u);
    EXPECT_EQ(d.switches[0].entries.size(), 1u);
}

}  // namespace
}  // namespace weft::routing
