// Readers for OpenSM's per-port and ordering option files (see option_files.hpp).
#include "weft/routing/option_files.hpp"

#include "text_lines.hpp"

namespace weft::routing {
namespace {

// Calls each(cursor) for every line that is neither blank nor a comment.
template <class Each>
void for_each_entry(std::string_view text, const std::string &name, Each &&each) {
    for (const auto &l : io::split_lines(text)) {
        io::LineCursor c(name, l);
        c.skip_space();
        if (c.at_end() || c.peek() == '#') continue;
        each(c);
    }
}

bool line_done(io::LineCursor &c) {
    c.skip_space();
    return c.at_end() || c.peek() == '#';
}

PortNum read_port(io::LineCursor &c) {
    const std::size_t col = c.column();
    const auto p = c.read_uint("a port number 1..254", false, 254);
    if (p == 0) c.fail_at(col, "a port number 1..254", "0");
    return static_cast<PortNum>(p);
}

}  // namespace

std::vector<HopWeight> read_hop_weights(std::string_view text, const std::string &name) {
    std::vector<HopWeight> out;
    for_each_entry(text, name, [&](io::LineCursor &c) {
        HopWeight w;
        w.sw = c.read_uint("a switch GUID (0x<hex>)");
        c.skip_space();
        w.port = read_port(c);
        c.skip_space();
        const std::size_t col = c.column();
        // Hop counts are bytes in OpenSM's matrices; a weight past that cannot be represented.
        w.weight = static_cast<unsigned>(c.read_uint("a weight 1..254", false, 254));
        if (w.weight == 0) c.fail_at(col, "a weight 1..254", "0");
        if (!line_done(c)) c.fail("end of line after the weight");
        out.push_back(w);
    });
    return out;
}

std::vector<PortOrder> read_port_search_ordering(std::string_view text, const std::string &name) {
    std::vector<PortOrder> out;
    for_each_entry(text, name, [&](io::LineCursor &c) {
        PortOrder o;
        o.sw = c.read_uint("a switch GUID (0x<hex>)");
        bool seen[255] = {};
        while (!line_done(c)) {
            const std::size_t col = c.column();
            const PortNum p = read_port(c);
            if (seen[p]) c.fail_at(col, "each port once per switch", "port " + std::to_string(p) + " again");
            seen[p] = true;
            o.ports.push_back(p);
        }
        if (o.ports.empty()) c.fail("at least one port number after the GUID");
        out.push_back(std::move(o));
    });
    return out;
}

IgnoreList read_ignore_guids(std::string_view text, const std::string &name) {
    IgnoreList out;
    for_each_entry(text, name, [&](io::LineCursor &c) {
        const Guid g = c.read_uint("a GUID (0x<hex>)");
        if (line_done(c)) {
            out.end_port_guids.push_back(g);
            return;
        }
        const PortNum p = read_port(c);
        if (!line_done(c)) c.fail("end of line after the port number");
        out.switch_ports.emplace_back(g, p);
    });
    return out;
}

std::vector<std::pair<Guid, std::uint64_t>> read_ids_guids(std::string_view text, const std::string &name) {
    std::vector<std::pair<Guid, std::uint64_t>> out;
    for_each_entry(text, name, [&](io::LineCursor &c) {
        const Guid g = c.read_uint("a GUID (0x<hex>)");
        c.skip_space();
        const std::uint64_t id = c.read_uint("an ID (number)");
        if (!line_done(c)) c.fail("end of line after the ID");
        out.emplace_back(g, id);
    });
    return out;
}

}  // namespace weft::routing
