// EAL for the fuzz targets that need DPDK memory (FIB tables, rings, mbufs): no hugepages, no
// PCI, no shared config, quiet, a file prefix of the target's and the process's own; the runtime
// directory EAL makes goes with the process. Call once per process.
#pragma once

#include <rte_eal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace weft::fuzz {

inline void init_eal(const std::string &name) {
    const std::string args =
        "weft_fuzz --no-huge --no-pci --no-shconf -m 256 --no-telemetry --log-level=*:error "
        "--file-prefix=weft_fuzz_" +
        name + "_" + std::to_string(getpid());
    std::vector<std::string> words;
    for (std::size_t at = 0; at < args.size();) {
        const std::size_t end = args.find(' ', at);
        words.push_back(args.substr(at, end - at));
        at = end == std::string::npos ? args.size() : end + 1;
    }
    std::vector<char *> argv;
    for (auto &w : words) argv.push_back(w.data());
    if (rte_eal_init(static_cast<int>(argv.size()), argv.data()) < 0) std::abort();
    static const std::string runtime_dir = rte_eal_get_runtime_dir();
    std::atexit([] { std::filesystem::remove_all(runtime_dir); });
}

}  // namespace weft::fuzz
