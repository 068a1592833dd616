// read_text_file and the readers built on it: files are read with a bound on their size and on
// their lines, so a device or a runaway file ends in an error that names it.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <string>

#include "weft/routing/parse_error.hpp"
#include "weft/routing/text_file.hpp"
#include "weft/routing/topology_io.hpp"

namespace weft::routing {
namespace {

class TempFile {
  public:
    explicit TempFile(const std::string &text) {
        char name[] = "/tmp/weft_text_file_XXXXXX";
        const int fd = mkstemp(name);
        EXPECT_GE(fd, 0);
        close(fd);
        path_ = name;
        std::ofstream(path_, std::ios::binary) << text;
    }
    ~TempFile() { std::remove(path_.c_str()); }
    const std::string &path() const { return path_; }

  private:
    std::string path_;
};

TEST(TextFile, ReadsWithinTheLimits) {
    TempFile f("a\nbb\nccc");
    EXPECT_EQ(read_text_file(f.path(), {9, 3}), "a\nbb\nccc");
}

TEST(TextFile, RefusesALargerFile) {
    TempFile f(std::string(100, 'x') + "\n");
    try {
        read_text_file(f.path(), {64, 1000});
        ADD_FAILURE() << "read a file over the limit";
    } catch (const std::runtime_error &e) {
        EXPECT_NE(std::string(e.what()).find(f.path() + ": larger than 64 bytes"), std::string::npos)
            << e.what();
    }
}

TEST(TextFile, RefusesALongerLineAndSaysWhich) {
    TempFile f("short\nshort too\n" + std::string(40, 'y') + "\n");
    try {
        read_text_file(f.path(), {1000, 16});
        ADD_FAILURE() << "read a line over the limit";
    } catch (const ParseError &e) {
        EXPECT_EQ(e.file(), f.path());
        EXPECT_EQ(e.line(), 3u);
        EXPECT_NE(std::string(e.what()).find("a line of at most 16 bytes"), std::string::npos) << e.what();
    }
}

TEST(TextFile, JsonOnOneLineIsNotALongLine) {
    const std::string json = "  {\"weft_topology\": 1, \"nodes\": [" + std::string(100, ' ') + "]}";
    TempFile f(json);
    EXPECT_EQ(read_text_file(f.path(), {1000, 16}), json);
}

TEST(TextFile, ADeviceWithoutLineBreaksEndsInAnError) {
    // --topo /dev/zero once read gigabytes: now the first line's limit stops it.
    try {
        read_topology("/dev/zero");
        ADD_FAILURE() << "read /dev/zero";
    } catch (const ParseError &e) {
        EXPECT_EQ(e.file(), "/dev/zero");
        EXPECT_EQ(e.line(), 1u);
    }
}

TEST(TextFile, IncludesShareTheFilesLimit) {
    TempFile sub("Hca 1 \"h\"\n[1] \"sw\"[1]\n");
    TempFile top("Switch 4 \"sw\"\n[1] \"h\"[1]\n\ninclude \"" + sub.path() + "\"\n");
    const std::size_t both = 24 + 26 + 2 * sub.path().size() + 14;
    TextLimits limits;
    limits.max_bytes = both + 10;
    EXPECT_EQ(read_topology(top.path(), limits).node_count(), 2u);
    // The top file fits alone, but not with what it includes: refused at the include line.
    limits.max_bytes = 40 + sub.path().size();
    try {
        read_topology(top.path(), limits);
        ADD_FAILURE() << "read past the limit through an include";
    } catch (const ParseError &e) {
        EXPECT_EQ(e.file(), top.path());
        EXPECT_EQ(e.line(), 4u);
        EXPECT_NE(std::string(e.what()).find("larger than"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace weft::routing
