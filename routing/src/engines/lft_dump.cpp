#include "weft/routing/lft_dump.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <numeric>

namespace weft::routing {
namespace {

bool space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

class Line {
  public:
    Line(const std::string &file, std::string_view text, std::size_t number)
        : file_(file), text_(text), number_(number) {}

    std::size_t number() const { return number_; }
    std::size_t col() const { return pos_ + 1; }
    bool at_end() const { return pos_ >= text_.size(); }
    char peek() const { return at_end() ? '\0' : text_[pos_]; }
    std::string_view rest() const { return text_.substr(std::min(pos_, text_.size())); }
    void skip_space() {
        while (!at_end() && space(text_[pos_])) ++pos_;
    }
    bool accept(std::string_view w) {
        if (rest().substr(0, w.size()) != w) return false;
        pos_ += w.size();
        return true;
    }
    // Moves to just after the first occurrence of w; false if absent.
    bool find(std::string_view w) {
        const auto at = rest().find(w);
        if (at == std::string_view::npos) return false;
        pos_ += at + w.size();
        return true;
    }
    std::uint64_t number_in(int base, std::uint64_t max, const char *what) {
        const std::size_t start = pos_;
        std::uint64_t v = 0;
        while (!at_end()) {
            const char c = text_[pos_];
            int d;
            if (c >= '0' && c <= '9')
                d = c - '0';
            else if (base == 16 && c >= 'a' && c <= 'f')
                d = c - 'a' + 10;
            else if (base == 16 && c >= 'A' && c <= 'F')
                d = c - 'A' + 10;
            else
                break;
            if (v > (max - static_cast<std::uint64_t>(d)) / static_cast<std::uint64_t>(base))
                fail(start, what, "a number that large");
            v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
            ++pos_;
        }
        if (pos_ == start) fail(start, what);
        return v;
    }
    [[noreturn]] void fail(std::size_t at, const std::string &expected, std::string found = {}) const {
        if (found.empty()) found = printable(text_.substr(std::min(at, text_.size()), 24));
        throw ParseError(file_, number_, at + 1, expected, found);
    }
    [[noreturn]] void fail_here(const std::string &expected) const { fail(pos_, expected); }
    std::size_t pos() const { return pos_; }

  private:
    static std::string printable(std::string_view s) {
        std::string out;
        for (char c : s) out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
        return out;
    }
    const std::string &file_;
    std::string_view text_;
    std::size_t number_;
    std::size_t pos_ = 0;
};

void parse_header(Line &ln, LftDumpSwitch &sw) {
    // "Unicast lids [0-N] of switch Lid L guid 0xG ('desc'):" -- OpenSM needs only " guid 0x".
    Line probe = ln;
    if (probe.find(" Lid ")) {
        probe.skip_space();
        if (probe.peek() >= '0' && probe.peek() <= '9')
            sw.lid = static_cast<Lid>(probe.number_in(10, kMaxExtendedLid, "a switch LID"));
    }
    if (!ln.find(" guid 0x")) ln.fail_here("' guid 0x<switch GUID>' in the switch header");
    sw.guid = ln.number_in(16, ~std::uint64_t{0}, "a hexadecimal switch GUID");
    if (!ln.at_end() && !space(ln.peek())) ln.fail_here("a space after the switch GUID");
    const auto open = ln.rest().find("('");
    const auto close = ln.rest().rfind("')");
    if (open != std::string_view::npos && close != std::string_view::npos && close > open)
        sw.desc = std::string(ln.rest().substr(open + 2, close - open - 2));
}

void parse_entry(Line &ln, LftDumpEntry &e) {
    // "0xLLLL PPP # <type> portguid 0xG: 'desc'" -- the part after the port is optional.
    ln.accept("0x");
    e.lid = static_cast<Lid>(ln.number_in(16, kMaxExtendedLid, "a hexadecimal LID"));
    if (ln.at_end() || !space(ln.peek())) ln.fail_here("a space and a port number after the LID");
    ln.skip_space();
    e.port = static_cast<PortNum>(ln.number_in(10, 255, "a decimal port number (0-255)"));
    if (!ln.at_end() && !space(ln.peek())) ln.fail_here("a space or the end of the line after the port");
    if (ln.find(" portguid 0x")) {
        e.port_guid = ln.number_in(16, ~std::uint64_t{0}, "a hexadecimal port GUID");
        if (!ln.at_end() && !space(ln.peek()) && ln.peek() != ':') ln.fail_here("':' after the port GUID");
    }
}

std::string_view node_type_name(NodeType t) {
    switch (t) {
        case NodeType::Ca:
            return "Channel Adapter";
        case NodeType::Switch:
            return "Switch";
        case NodeType::Router:
            return "Router";
    }
    return "???";
}

}  // namespace

LftDump read_lft_dump(std::string_view text, const std::string &name) {
    LftDump d;
    std::size_t number = 0, pos = 0;
    while (pos < text.size()) {
        auto nl = text.find('\n', pos);
        if (nl == std::string_view::npos) nl = text.size();
        std::string_view raw = text.substr(pos, nl - pos);
        pos = nl + 1;
        ++number;
        if (raw.find('\0') != std::string_view::npos)
            throw ParseError(name, number, raw.find('\0') + 1, "text", "a NUL byte");
        Line ln(name, raw, number);
        ln.skip_space();
        if (ln.at_end() || ln.peek() == '#') continue;
        if (ln.accept("Multicast mlids")) ln.fail(0, "a unicast LFT dump (this is a multicast dump)");
        if (ln.accept("Unicast lids")) {
            LftDumpSwitch sw;
            sw.line = number;
            parse_header(ln, sw);
            d.switches.push_back(std::move(sw));
            continue;
        }
        if (ln.rest().substr(0, 2) == "0x") {
            if (d.switches.empty()) ln.fail_here("a 'Unicast lids ... of switch' header before LID entries");
            LftDumpEntry e;
            e.line = number;
            parse_entry(ln, e);
            d.switches.back().entries.push_back(e);
            continue;
        }
        if (ln.peek() >= '0' && ln.peek() <= '9') {  // "N lids dumped" / "N lids in use"
            ln.number_in(10, ~std::uint64_t{0}, "a LID count");
            ln.skip_space();
            if (ln.accept("lids")) continue;
        }
        ln.fail(ln.pos(), "a 'Unicast lids' header, a '0x<LID> <port>' entry or an 'N lids dumped' trailer");
    }
    return d;
}

std::string write_lft_dump(const Fabric &f, const RoutingTables &t) {
    std::vector<SwitchIdx> order(f.switch_count());
    std::iota(order.begin(), order.end(), SwitchIdx{0});
    std::sort(order.begin(), order.end(), [&](SwitchIdx a, SwitchIdx b) {
        return f.node(f.switch_node(a)).guid < f.node(f.switch_node(b)).guid;
    });
    const Lid max_lid = f.max_lid();
    std::string out;
    char buf[96];
    for (SwitchIdx s : order) {
        const NodeIdx n = f.switch_node(s);
        const Node &sw = f.node(n);
        std::snprintf(buf, sizeof buf, "Unicast lids [0-%u] of switch Lid %u guid 0x%016" PRIx64 " ('",
                      max_lid, f.port(n, 0).lid, sw.guid);
        out += buf;
        out += sw.desc;
        out += "'):\n";
        const auto &lft = t.lft[s];
        for (Lid l = 0; l <= max_lid && l < lft.size(); ++l) {
            const PortNum p = lft[l];
            if (p > sw.num_ports) continue;  // OpenSM skips entries past the port count (no path)
            std::snprintf(buf, sizeof buf, "0x%04x %03u # ", l, p);
            out += buf;
            if (auto o = f.lid_owner(l)) {
                const Node &owner = f.node(o->node);
                const Guid pg = owner.is_switch() ? owner.guid : f.port(o->node, o->port).guid;
                std::snprintf(buf, sizeof buf, " portguid 0x%016" PRIx64 ": '", pg);
                out += node_type_name(owner.type);
                out += buf;
                out += owner.desc;
                out += "'";
            } else {
                out += "unknown node and type";
            }
            out += '\n';
        }
        std::snprintf(buf, sizeof buf, "%u lids dumped\n", max_lid);
        out += buf;
    }
    return out;
}

LftApplyReport apply_lft_dump(const LftDump &d, const Fabric &f, RoutingTables &t) {
    LftApplyReport rep;
    const Lid max_lid = f.max_lid();
    for (const LftDumpSwitch &sw : d.switches) {
        auto n = f.find_guid(sw.guid);
        if (!n || !f.node(*n).is_switch()) {
            ++rep.switches_unknown;
            continue;
        }
        ++rep.switches_applied;
        const Node &node = f.node(*n);
        auto &lft = t.lft[node.sw];
        std::fill(lft.begin(), lft.end(), kNoPort);
        for (const LftDumpEntry &e : sw.entries) {
            Lid lid = e.lid;
            if (e.port_guid) {
                if (auto o = f.find_port_guid(e.port_guid)) {
                    const Port &p = f.port(o->node, o->port);
                    const Lid lo = f.node(o->node).is_switch() ? f.port(o->node, 0).lid : p.lid;
                    const std::uint8_t lmc = f.node(o->node).is_switch() ? f.port(o->node, 0).lmc : p.lmc;
                    const Lid hi = lo + (Lid{1} << lmc) - 1;
                    if (lo != 0 && (lid < lo || lid > hi)) {
                        lid = lo + (lid & ((Lid{1} << lmc) - 1));
                        ++rep.remapped;
                    }
                }
            }
            if (lid == 0 || lid > max_lid || (e.port > node.num_ports && e.port != kNoPort)) {
                ++rep.rejected;
                continue;
            }
            lft[lid] = e.port;
            ++rep.entries;
        }
    }
    return rep;
}

}  // namespace weft::routing
