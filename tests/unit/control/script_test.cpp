// weft --script files: commands, sleeps and banners, and errors that name the file and line.
#include <gtest/gtest.h>

#include "weft/control/script.hpp"

namespace weft::control {
namespace {

using Kind = ScriptStep::Kind;

TEST(Script, CommandsSleepsAndBanners) {
    const ScriptParse p = parse_script(
        "# a comment\n\n  show nhg  \r\nsleep 1.5\n# ---- step 2 ----\nsleep\t0\nset link-down port 2",
        "s.cmds");
    ASSERT_TRUE(p.ok()) << p.error;
    ASSERT_EQ(p.steps.size(), 5u);
    EXPECT_EQ(p.steps[0].kind, Kind::kCommand);
    EXPECT_EQ(p.steps[0].text, "show nhg");
    EXPECT_EQ(p.steps[0].line, 3u);
    EXPECT_EQ(p.steps[1].kind, Kind::kSleep);
    EXPECT_DOUBLE_EQ(p.steps[1].seconds, 1.5);
    EXPECT_EQ(p.steps[2].kind, Kind::kBanner);
    EXPECT_EQ(p.steps[2].text, "# ---- step 2 ----");
    EXPECT_EQ(p.steps[3].kind, Kind::kSleep);
    EXPECT_DOUBLE_EQ(p.steps[3].seconds, 0);
    EXPECT_EQ(p.steps[4].text, "set link-down port 2");
    EXPECT_EQ(p.steps[4].line, 7u);
}

TEST(Script, BadSleepsNameFileAndLine) {
    for (const char *bad :
         {"sleep", "sleep x", "sleep -1", "sleep 3601", "sleep 1s", "sleep nan", "sleep inf", "sleep 1 2"}) {
        const ScriptParse p = parse_script(std::string("show nhg\n") + bad + "\n", "steps.cmds");
        EXPECT_FALSE(p.ok()) << bad;
        EXPECT_EQ(p.error.rfind("steps.cmds:2: expected `sleep <seconds>` with 0 to 3600 seconds, got '", 0),
                  0u)
            << p.error;
    }
    // A word that only starts like sleep is a command (the CLI refuses it when it runs).
    EXPECT_TRUE(parse_script("sleepy 1\n", "s").ok());
}

TEST(Script, ControlCharactersAndLongLinesAreRefused) {
    EXPECT_EQ(parse_script(std::string("show nhg\nroute add \x01\n"), "f").error,
              "f:2: expected text, got control character 1");
    EXPECT_EQ(parse_script(std::string("show\0nhg\n", 9), "f").error,
              "f:1: expected text, got control character 0");
    const ScriptParse p = parse_script(std::string(kMaxScriptLine + 1, 'x'), "f");
    EXPECT_EQ(p.error, "f:1: expected a line of at most 500 characters, got 501");
    EXPECT_TRUE(parse_script(std::string(kMaxScriptLine, 'x'), "f").ok());
}

}  // namespace
}  // namespace weft::control
