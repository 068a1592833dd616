// libFuzzer target: ibsim net files with include lines. The input is a set of files: the top file,
// then each further file after a line "==> NAME" (its name, as an include line names it). Includes
// are looked up among them (a missing one is an unreadable include), nested and repeated as the
// text says; the reader accepts or throws ParseError naming the file the error is in, never
// crashes or loops.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

#include "weft/routing/topology_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    using namespace weft::routing;
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    std::map<std::string, std::string, std::less<>> files;
    std::string name = "top.net", body;
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find('\n', start);
        end = end == std::string_view::npos ? text.size() : end + 1;
        const std::string_view line = text.substr(start, end - start);
        start = end;
        if (line.substr(0, 4) != "==> ") {
            body += line;
            continue;
        }
        files[name] = std::move(body);
        body.clear();
        name = std::string(line.substr(4, line.back() == '\n' ? line.size() - 5 : std::string_view::npos));
    }
    files[name] = std::move(body);
    std::size_t opened = 0;
    IncludeResolver resolve = [&](const std::string &inc, std::string &display) {
        if (++opened > 10000) std::abort();  // the reader must bound the includes it follows
        const auto it = files.find(inc);
        if (it == files.end()) throw std::runtime_error("no such file");
        display = inc;
        return it->second;
    };
    try {
        const Fabric f = read_ibsim_net(files["top.net"], "top.net", resolve);
        if (f.node_count() == 0) std::abort();
        (void)write_ibsim_net(f);
    } catch (const ParseError &e) {
        if (!files.count(e.file())) std::abort();  // an error names one of the files
    }
    return 0;
}
