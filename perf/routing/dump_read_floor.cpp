// The floor under a fresh process's `-R file` step: the time it takes only to read the LFT dump
// the way the file engine's loader does (open, 32 KiB reads into one buffer), after reading the
// files weft-route reads before its routing step (the topology, the guid2lid file) the way it
// reads them. Nothing is parsed. bench-vs-opensm runs it in fresh processes beside weft's file
// rows: OpenSM's step over this time bounds the ratio any loader could reach on the machine.
//
//   dump_read_floor [FILE_READ_FIRST ...] DUMP
//   prints "read_seconds=<s> bytes=<dump bytes> first_bytes=<bytes of the files read first>"
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: dump_read_floor [FILE_READ_FIRST ...] DUMP\n");
        return 2;
    }
    std::size_t first_bytes = 0;  // printed, so that the reads are not optimized away
    for (int i = 1; i + 1 < argc; ++i) {
        std::ifstream in(argv[i], std::ios::binary);  // as weft-route reads its input files
        if (!in) {
            std::fprintf(stderr, "dump_read_floor: cannot open '%s'\n", argv[i]);
            return 1;
        }
        std::ostringstream text;
        text << in.rdbuf();
        first_bytes += text.str().size();
    }
    // The buffer is touched before the clock starts: weft-route's heap is in memory before its
    // step, so only the reads are timed.
    std::vector<char> buf(std::size_t{32} << 10);  // the loader's buffer size
    const auto start = std::chrono::steady_clock::now();
    const int fd = ::open(argv[argc - 1], O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        std::fprintf(stderr, "dump_read_floor: cannot open '%s': %s\n", argv[argc - 1], std::strerror(errno));
        return 1;
    }
    std::size_t bytes = 0;
    for (;;) {
        const ssize_t got = ::read(fd, buf.data(), buf.size());
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            std::fprintf(stderr, "dump_read_floor: cannot read '%s': %s\n", argv[argc - 1],
                         std::strerror(errno));
            return 1;
        }
        if (got == 0) break;
        bytes += static_cast<std::size_t>(got);
    }
    ::close(fd);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("read_seconds=%.6f bytes=%zu first_bytes=%zu\n", s, bytes, first_bytes);
    return 0;
}
