// OpenSM's GUID list files and its guid2lid cache file.
#include <cinttypes>
#include <cstdio>

#include "text_lines.hpp"
#include "weft/routing/lid_assignment.hpp"

namespace weft::routing {

std::vector<Guid> read_guid_list(std::string_view text, const std::string &name) {
    std::vector<Guid> out;
    for (const auto &l : io::split_lines(text)) {
        io::LineCursor c(name, l);
        c.skip_space();
        if (c.at_end() || c.peek() == '#') continue;
        out.push_back(c.read_uint("a GUID (0x<hex>)"));
        c.skip_space();
        if (!c.at_end() && c.peek() != '#') c.fail("end of line after the GUID");
    }
    return out;
}

std::vector<Guid2LidEntry> read_guid2lid(std::string_view text, const std::string &name) {
    std::vector<Guid2LidEntry> out;
    for (const auto &l : io::split_lines(text)) {
        io::LineCursor c(name, l);
        c.skip_space();
        if (c.at_end() || c.peek() == '#') continue;
        Guid2LidEntry e;
        e.line = l.number;
        e.port_guid = c.read_uint("a port GUID (0x<hex>)");
        c.skip_space();
        const std::size_t bcol = c.column();
        e.base = static_cast<Lid>(c.read_uint("the base LID", false, kMaxExtendedLid));
        if (!e.base) c.fail_at(bcol, "a base LID >= 1", "0");
        c.skip_space();
        const std::size_t tcol = c.column();
        e.top = static_cast<Lid>(c.read_uint("the top LID", false, kMaxExtendedLid));
        if (e.top < e.base) c.fail_at(tcol, "a top LID >= the base LID", std::to_string(e.top));
        const Lid n = e.top - e.base + 1;
        if (n & (n - 1) || n > 128)
            c.fail_at(tcol, "a LID block of 2^lmc LIDs (lmc 0..7)", std::to_string(n) + " LIDs");
        c.skip_space();
        if (!c.at_end() && c.peek() != '#') c.fail("end of line after the top LID");
        out.push_back(e);
    }
    return out;
}

std::string write_guid2lid(const Fabric &f) {
    std::string out;
    char buf[96];
    for (Lid l = 1; l <= f.max_lid(); ++l) {
        auto o = f.lid_owner(l);
        if (!o) continue;
        const Port &p = f.port(o->node, o->port);
        if (p.lid != l) continue;  // only at a block's base
        const Guid g = f.node(o->node).is_switch() ? f.node(o->node).guid : p.guid;
        std::snprintf(buf, sizeof buf, "0x%016" PRIx64 " 0x%04x 0x%04x\n", static_cast<std::uint64_t>(g), l,
                      l + (1u << p.lmc) - 1);
        out += buf;
    }
    return out;
}

}  // namespace weft::routing
