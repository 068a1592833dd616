#include "flow_list.hpp"

#include "line_reader.hpp"
#include "value.hpp"
#include "weft/routing/parse_error.hpp"

namespace weft::sim {

std::vector<FlowSpec> parse_flow_list(std::string_view text, const std::string &name, std::uint32_t hosts) {
    std::vector<FlowSpec> flows;
    LineReader lines(text);
    for (std::string_view line; lines.next(line);) {
        const std::size_t line_no = lines.number();
        const std::vector<Value> fields = split_fields(line, name, line_no);
        if (fields.empty()) continue;
        if (fields.size() > 4)
            throw routing::ParseError(name, line_no, fields[4].column,
                                      "at most 4 fields: src dst bytes [start]");
        if (fields.size() < 3)
            throw routing::ParseError(name, line_no, fields.back().column + fields.back().text.size(),
                                      "src dst bytes [start]");
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
    if (flows.empty()) throw routing::ParseError(name, lines.number(), 0, "at least one flow");
    return flows;
}

}  // namespace weft::sim
