// The command set's grammar without a running switch: how a refused line is explained, `help
// <command>`, the ARS keyword commands (Grammar) as cmdline parses and completes them, and JSON
// output of names with quotes and backslashes. No command runs here (cmdline_parse_check).
#include <cmdline.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "cli_internal.hpp"
#include "weft/control/cli.hpp"

namespace weft::control {
namespace {

class CommandSetTest : public ::testing::Test {
  protected:
    void SetUp() override { cl_ = cmdline_new(command_set(ctx_), "", -1, -1); }
    void TearDown() override { cmdline_free(cl_); }

    // cmdline's verdict on a line, no command run: >= 0 when one instance takes it.
    int check(const std::string &line) { return cmdline_parse_check(cl_, (line + "\n").c_str()); }
    // What TAB adds to `typed` (empty when nothing is unique).
    std::string complete(const std::string &typed) {
        int state = 0;
        char dst[256] = "";
        return cmdline_complete(cl_, typed.c_str(), &state, dst, sizeof dst) == CMDLINE_PARSE_COMPLETED_BUFFER
                   ? std::string(dst)
                   : std::string();
    }

    CommandContext ctx_;
    cmdline *cl_ = nullptr;
};

TEST_F(CommandSetTest, ARefusedLineNamesTheWordAndWhatWasExpectedThenOnlyItsUsage) {
    EXPECT_EQ(cli::explain_refused("route add 10.0.0.0/8 nhg x"),
              "error: word 5 \"x\": expected a number 0..4294967295\nusage: route add <prefix> nhg <id>\n");
    EXPECT_EQ(
        cli::explain_refused("route add 10.0.0.0/8"),
        "error: incomplete command: expected \"nhg\" after word 3\nusage: route add <prefix> nhg <id>\n");
    EXPECT_EQ(cli::explain_refused("route"),
              "error: incomplete command: expected one of add|del|load after word 1\n"
              "usage: route add <prefix> nhg <id>\n       route del <prefix>\n       route load <file>\n");
    EXPECT_EQ(cli::explain_refused("show config fwd extra"),
              "error: word 4 \"extra\": expected \"json\" or the end of the line\n"
              "usage: show config fwd\n       show config fwd json\n");
    const std::string unknown = cli::explain_refused("frobnicate now");
    EXPECT_EQ(unknown.rfind("error: unknown command \"frobnicate\" (commands: acl arn ars clear", 0), 0u)
        << unknown;
    EXPECT_EQ(unknown.find('\n'), unknown.size() - 1) << "one line";
}

TEST_F(CommandSetTest, AWordCloseToManyCommandsNamesHowToListThem) {
    const std::string r = cli::explain_refused("show bogus");
    EXPECT_EQ(r.rfind("error: word 2 \"bogus\": expected one of ", 0), 0u) << r;
    EXPECT_NE(r.find("|route|nhg|drops|neigh|lft|mft|sl2vl|port|config|fwd|ars|lag|acl|monitor|"),
              std::string::npos)
        << r;
    EXPECT_NE(r.find("\nusage: "), std::string::npos);
    EXPECT_NE(r.find(" commands start with \"show\": help show lists them\n"), std::string::npos) << r;
}

TEST_F(CommandSetTest, ControlCharactersInARefusedLineAreNotEchoed) {
    const std::string r = cli::explain_refused("route add \x1b[2J nhg 1");
    EXPECT_EQ(r.find('\x1b'), std::string::npos) << r;
}

TEST_F(CommandSetTest, HelpGivesTheUsageOfEveryCommandStartingWithTheWords) {
    const std::string nhg = cli::help_for("nhg");
    EXPECT_EQ(
        nhg,
        "usage: nhg add <id> ports <member>...\n       nhg del <id>\n"
        "       nhg add <id> ars <object>|none primary <m>[,<m>...] [alternate <m>[,<m>...]] [cost <c>] "
        "[bias <b>] [threshold <t>]   (m: <port> or lag<id>)\n");
    EXPECT_NE(cli::help_for("ars object").find("ars object add <id> mode"), std::string::npos);
    EXPECT_NE(cli::help_for("monitor").find("monitor start file <path>"), std::string::npos);
    EXPECT_EQ(cli::help_for("frobnicate"), "");
}

TEST_F(CommandSetTest, ArsKeywordsComeInAnyOrderEachOnce) {
    EXPECT_GE(check("nhg add 1 ars 1 primary 1,2 alternate 3 cost 1 bias 0 threshold 4"), 0);
    EXPECT_GE(check("nhg add 1 ars none threshold 4 primary lag2"), 0);
    EXPECT_EQ(
        cli::usage_of("nhg add 1 ars none threshold 4 primary lag2").rfind("usage: nhg add <id> ars", 0), 0u);
    EXPECT_EQ(cli::usage_of("nhg add 1 ars 1 primary 1 cost 1 cost 2"), "") << "a keyword twice";
    EXPECT_EQ(cli::explain_refused("nhg add 1 ars 1 primary 1 cost 1 cost 2").substr(0, 67),
              "error: word 10 \"cost\": expected alternate|bias|threshold or the end");
    EXPECT_EQ(
        cli::explain_refused("nhg add 1 ars 1 cost 2")
            .rfind(
                "error: incomplete command: expected one of primary|alternate|bias|threshold after word 7\n"
                "usage: nhg add <id> ars",
                0),
        0u);
    EXPECT_GE(check("ars object add 3 max-flows 512 mode fixed"), 0);
    EXPECT_GE(check("acl add 10 dscp 10,12 ip-version 6 action monitor on set-ars 2"), 0);
    EXPECT_EQ(cli::usage_of("acl add 10 proto 6 action"), "") << "an ACL rule needs an action";
    EXPECT_EQ(cli::usage_of("acl add 10 action disable-ars proto 6"), "") << "matches come before the action";
    EXPECT_GE(check("lag add 1 ports 2,3 ars 2"), 0);
    EXPECT_GE(check("lag add 1 ports 2,3"), 0);
    EXPECT_GE(check("monitor start file /tmp/x.pcapng"), 0);
    EXPECT_GE(check("set ars port 1 weights 50 40"), 0);
    EXPECT_EQ(cli::explain_refused("set ars profile past-load maybe").substr(0, 46),
              "error: word 5 \"maybe\": expected one of on|off\n");
}

TEST_F(CommandSetTest, TabCompletesArsAndMonitorWordsAsTheRest) {
    EXPECT_EQ(complete("show vers"), "ion ");
    EXPECT_EQ(complete("ars ob"), "ject ");
    EXPECT_EQ(complete("ars object add 3 mo"), "") << "mode or monitor";
    EXPECT_EQ(complete("ars object add 3 mod"), "e ");
    EXPECT_EQ(complete("ars object add 3 mode per-packet-r"), "andom ");
    EXPECT_EQ(complete("nhg add 1 ars 1 pri"), "mary ");
    EXPECT_EQ(complete("nhg add 1 ars 1 primary 1 thr"), "eshold ");
    EXPECT_EQ(complete("acl add 5 proto 6 act"), "ion ");
    EXPECT_EQ(complete("acl add 5 action dis"), "able-ars ");
    EXPECT_EQ(complete("monitor star"), "t ");
    EXPECT_EQ(complete("set ars profile ewma"), "-exponent ");
    EXPECT_EQ(complete("save running"), "-config ");
}

TEST(JsonOutput, NamesWithQuotesBackslashesAndStrayBytesStayValidJson) {
    char path[] = "/tmp/weft_json_XXXXXX";
    const int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    CommandContext ctx;
    cmdline *cl = cmdline_new(command_set(ctx), "", -1, fd);
    const std::string name = "cap\"tu\\re\n\x01.pcapng";
    cli::print_json(cl, cli::Json{{"file", name}, {"bytes", std::string("a\xff")}});
    cmdline_free(cl);
    // cmdline_free closed the descriptor.
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    unlink(path);
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(text.back(), '\n');
    EXPECT_EQ(text.find('\n'), text.size() - 1) << "one line";
    const auto j = nlohmann::json::parse(text);
    EXPECT_EQ(j["file"], name);
    EXPECT_EQ(j["bytes"], "a\xef\xbf\xbd") << "a byte that is not UTF-8 becomes U+FFFD";
}

}  // namespace
}  // namespace weft::control
