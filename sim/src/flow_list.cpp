#include "flow_list.hpp"

#include "value.hpp"
#include "weft/routing/parse_error.hpp"

namespace weft::sim {

std::vector<FlowSpec> parse_flow_list(std::string_view text, const std::string &name, std::uint32_t hosts) {
    std::vector<FlowSpec> flows;
    std::size_t line_no = 0, pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        std::size_t i = 0;
        auto blanks = [&] {
            while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        };
        std::vector<Value> fields;
        for (blanks(); i < line.size() && line[i] != '#'; blanks()) {
            const std::size_t start = i;
            while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
            if (fields.size() == 4)
                throw routing::ParseError(name, line_no, start + 1,
                                          "at most 4 fields: src dst bytes [start]");
            fields.push_back(Value{line.substr(start, i - start), &name, line_no, start + 1});
        }
        if (fields.empty()) continue;
        if (fields.size() < 3) throw routing::ParseError(name, line_no, i + 1, "src dst bytes [start]");
        if (hosts == 0) throw routing::ParseError(name, line_no, 1, "a fabric with hosts");
        FlowSpec f;
        f.src = static_cast<std::uint32_t>(fields[0].uint(0, hosts - 1));
        f.dst = static_cast<std::uint32_t>(fields[1].uint(0, hosts - 1));
        if (f.src == f.dst) fields[1].fail("a destination other than the source");
        f.bytes = fields[2].bytes();
        if (f.bytes == 0) fields[2].fail("a size of at least 1 byte");
        f.start = fields.size() == 4 ? fields[3].time() : 0;
        f.line = line_no;
        flows.push_back(f);
    }
    if (flows.empty()) throw routing::ParseError(name, line_no, 0, "at least one flow");
    return flows;
}

}  // namespace weft::sim
