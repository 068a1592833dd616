#include "eal_environment.hpp"

#include <rte_eal.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace weft::dataplane::test {

void EalEnvironment::SetUp() {
    std::stringstream args;
    args << "weft_test --no-huge --no-pci -m 512 --no-telemetry --log-level=lib.eal:error "
            "--file-prefix=weft_ut_"
         << name_ << "_" << getpid() << " " << extra_;
    std::vector<std::string> words;
    for (std::string w; args >> w;) words.push_back(w);
    std::vector<char *> argv;
    for (auto &w : words) argv.push_back(w.data());
    ASSERT_GE(rte_eal_init(static_cast<int>(argv.size()), argv.data()), 0) << "rte_eal_init failed";
}

void EalEnvironment::TearDown() {
    // EAL leaves its runtime directory (config, sockets) behind; it is this process's alone.
    const std::string runtime_dir = rte_eal_get_runtime_dir();
    rte_eal_cleanup();
    std::error_code ignored;
    std::filesystem::remove_all(runtime_dir, ignored);
}

}  // namespace weft::dataplane::test
