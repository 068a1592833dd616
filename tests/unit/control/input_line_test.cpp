// What weft prints of the text it was given: control bytes escaped, text as it is.
#include <gtest/gtest.h>

#include <string>

#include "weft/control/input_line.hpp"

namespace weft::control {
namespace {

TEST(Printable, TextStaysControlBytesAreEscaped) {
    EXPECT_EQ(printable("route add 10.0.0.0/8 nhg 1"), "route add 10.0.0.0/8 nhg 1");
    EXPECT_EQ(printable("\x1b[2J\x1b]0;owned\x07"), "\\x1b[2J\\x1b]0;owned\\x07");
    EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
    EXPECT_EQ(printable("tab\there\r\n\x7f"), "tab\\x09here\\x0d\\x0a\\x7f");
    EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80"),
              "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80");
}

TEST(Printable, C1ControlsAndBrokenUtf8AreEscaped) {
    EXPECT_EQ(printable("\xc2\x9b"
                        "31m"),
              "\\xc2\\x9b31m");  // CSI as a C1 character
    EXPECT_EQ(printable("\x9b"
                        "31m"),
              "\\x9b31m");  // CSI as a raw 8-bit byte
    EXPECT_EQ(printable("\xff\xfe"), "\\xff\\xfe");
    EXPECT_EQ(printable("\xe2\x86"), "\\xe2\\x86");           // cut short
    EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");           // overlong '/'
    EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
}

}  // namespace
}  // namespace weft::control
