// Corpus replay driver for fuzz targets built without libFuzzer.
//
// Runs LLVMFuzzerTestOneInput on every file named (directories are walked), then on a bounded
// stream of seeded mutations of those inputs (bit flips, truncations, splices, random bytes), so
// the ordinary test suite exercises every parser on hostile input. A crash or sanitizer report
// fails the test; returning normally passes it.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);

namespace {

using Bytes = std::vector<std::uint8_t>;

void run(const Bytes &in) {
    // Copy into an exactly-sized heap buffer so ASan catches reads past the end.
    auto *buf = static_cast<std::uint8_t *>(std::malloc(in.empty() ? 1 : in.size()));
    if (!in.empty()) std::memcpy(buf, in.data(), in.size());
    LLVMFuzzerTestOneInput(buf, in.size());
    std::free(buf);
}

void collect(const std::filesystem::path &p, std::vector<Bytes> &out) {
    if (std::filesystem::is_directory(p)) {
        std::vector<std::filesystem::path> files;
        for (const auto &e : std::filesystem::recursive_directory_iterator(p))
            if (e.is_regular_file()) files.push_back(e.path());
        std::sort(files.begin(), files.end());  // deterministic order
        for (const auto &f : files) collect(f, out);
        return;
    }
    std::ifstream f(p, std::ios::binary);
    if (!f) return;
    out.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

Bytes mutate(const Bytes &seed, const std::vector<Bytes> &all, std::mt19937_64 &rng) {
    Bytes b = seed;
    const int edits = 1 + static_cast<int>(rng() % 8);
    for (int i = 0; i < edits; ++i) {
        switch (rng() % 7) {
        case 0:  // flip a bit
            if (!b.empty()) b[rng() % b.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
            break;
        case 1:  // set a byte to an interesting value
            if (!b.empty()) {
                static const std::uint8_t v[] = {0, 1, 0x7f, 0x80, 0xff, '\n', ' ', '-', '9'};
                b[rng() % b.size()] = v[rng() % sizeof v];
            }
            break;
        case 2:  // truncate
            if (!b.empty()) b.resize(rng() % b.size());
            break;
        case 3: {  // insert random bytes
            const std::size_t at = b.empty() ? 0 : rng() % (b.size() + 1);
            const std::size_t n = 1 + rng() % 16;
            for (std::size_t k = 0; k < n; ++k)
                b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), static_cast<std::uint8_t>(rng()));
            break;
        }
        case 4: {  // splice in part of another input
            const Bytes &o = all[rng() % all.size()];
            if (o.empty()) break;
            const std::size_t from = rng() % o.size();
            const std::size_t n = 1 + rng() % (o.size() - from);
            const std::size_t at = b.empty() ? 0 : rng() % (b.size() + 1);
            b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), o.begin() + static_cast<std::ptrdiff_t>(from),
                     o.begin() + static_cast<std::ptrdiff_t>(from + n));
            break;
        }
        case 5:  // erase a range
            if (b.size() > 1) {
                const std::size_t from = rng() % b.size();
                const std::size_t n = 1 + rng() % (b.size() - from);
                b.erase(b.begin() + static_cast<std::ptrdiff_t>(from), b.begin() + static_cast<std::ptrdiff_t>(from + n));
            }
            break;
        default:  // duplicate a range (grows lengths and repeats records)
            if (!b.empty() && b.size() < 65536) {
                const std::size_t from = rng() % b.size();
                const std::size_t n = 1 + rng() % (b.size() - from);
                Bytes part(b.begin() + static_cast<std::ptrdiff_t>(from), b.begin() + static_cast<std::ptrdiff_t>(from + n));
                b.insert(b.begin() + static_cast<std::ptrdiff_t>(from), part.begin(), part.end());
            }
            break;
        }
    }
    return b;
}

}  // namespace

int main(int argc, char **argv) {
    long mutations = 0;
    std::uint64_t seed = 1;
    std::vector<Bytes> inputs;
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--mutations=", 12) == 0) {
            mutations = std::strtol(argv[i] + 12, nullptr, 10);
        } else if (std::strncmp(argv[i], "--seed=", 7) == 0) {
            seed = std::strtoull(argv[i] + 7, nullptr, 10);
        } else {
            collect(argv[i], inputs);
        }
    }
    if (inputs.empty()) inputs.emplace_back();  // still fuzz from nothing
    for (const auto &in : inputs) run(in);
    std::mt19937_64 rng(seed);
    for (long i = 0; i < mutations; ++i) run(mutate(inputs[static_cast<std::size_t>(rng() % inputs.size())], inputs, rng));
    std::printf("replayed %zu inputs and %ld mutations\n", inputs.size(), mutations);
    return 0;
}
