// weft's own options (after EAL's `--`): any words parse to options within their ranges, to
// -h, or to an error naming what was wrong; never a crash, never a value out of range. The
// input is the argument list, one argument per line.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "app_options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    std::vector<std::string> words{"weft"};
    std::string word;
    for (std::size_t i = 0; i < size && words.size() < 64; ++i) {
        const char c = static_cast<char>(data[i]);
        if (c == '\n') {
            words.push_back(word);
            word.clear();
        } else if (c != '\0') {  // an argument cannot hold a NUL
            word += c;
        }
    }
    if (!word.empty()) words.push_back(word);
    std::vector<char *> argv;
    for (std::string &w : words) argv.push_back(w.data());
    argv.push_back(nullptr);

    const weft::app::AppOptionsParse r =
        weft::app::parse_app_options(static_cast<int>(words.size()), argv.data());
    if (r.help) return 0;
    if (!r.options) {
        if (r.error.empty()) std::abort();
        return 0;
    }
    if (!r.error.empty()) std::abort();
    const weft::app::AppOptions &o = *r.options;
    if (!(o.run_time_s == 0 ||
          (std::isfinite(o.run_time_s) && o.run_time_s > 0 && o.run_time_s <= weft::app::kMaxRunTimeSeconds)))
        std::abort();
    if (o.dataplane.rx_queues == 0 || o.dataplane.burst == 0 ||
        o.dataplane.burst > weft::dataplane::kMaxBurst)
        std::abort();
    if (o.fib.tbl8_groups4 < 2 || o.fib.tbl8_groups4 > weft::dataplane::kMaxTbl8Groups ||
        o.fib.tbl8_groups6 < 2 || o.fib.tbl8_groups6 > weft::dataplane::kMaxTbl8Groups6 ||
        o.fib.max_routes4 < 16 || o.fib.max_routes6 < 16)
        std::abort();
    if (o.dataplane.idle_sleep_max_us > weft::app::kMaxIdleSleepUs) std::abort();
    return 0;
}
