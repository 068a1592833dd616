// Reader for ibsim net files, with ibsim's own semantics (ibsim/sim_net.c):
//
//   Switch 24 "name" [# "desc"|# desc] [enhanced port 0|base port 0] [lid N] [lmc M]
//   Hca|Ca 2 "name" [# ...]         Rt 1 "name"
//   [port] "remote"[remote port] [w=<enabled width mask>] [s=<enabled speed mask>] [lid N lmc M]
//   switchguid=<abs> | switchguid+<rel>, caguid=/hcaguids=, rtguid=  GUID bases for what follows
//   width=<mask>, speed=<mask>   defaults for the ports of later nodes
//   module="prefix"              node ids become prefix#name
//   include "file"               read another net file here
//   do <command>, devid=, pdebug=, anything else   ignored, as ibsim does
//
// GUIDs are assigned like ibsim: switches from 0x200000 (one each), CAs from 0x100000
// (ports+1 each, port GUID = node GUID + port). The active width/speed of a link is the best
// both ends enable (ibsim cannot express more than QDR); a weft writer comment line
// "# weft-link 4xEDR" right after a port line records a width/speed ibsim cannot.
// Deviations, all stricter: port lines outside a record, more port lines than ports, '@'
// aliases and unknown port options are errors (ibsim drops or ignores some of them).
#include <cctype>
#include <cstdlib>
#include <list>
#include <string>
#include <vector>

#include "pending_fabric.hpp"
#include "text_lines.hpp"
#include "weft/routing/topology_io.hpp"

namespace weft::routing {
namespace {

using io::LineCursor;
using io::PendingNode;
using io::PendingPort;

constexpr unsigned kMaxIncludeDepth = 9;
// Includes followed in all: nesting alone bounds the depth, not the count (ten includes of a
// file that includes another ten times, eight deep, are 10^8 reads).
constexpr unsigned kMaxIncludes = 1000;

struct GuidBase {
    Guid abs, next;
};

class IbsimParser {
  public:
    explicit IbsimParser(IncludeResolver r) : resolve_(std::move(r)) {}

    Fabric parse(std::string_view text, const std::string &name) {
        file(text, name, 0);
        io::LinkDefaults d;
        d.ibsim_masks = true;
        d.width_mask = width_mask_;
        d.speed_mask = speed_mask_;
        return io::build_fabric(name, nodes_, d, end_line_);
    }

  private:
    void file(std::string_view text, const std::string &name, unsigned depth) {
        names_.push_back(name);  // list: stable addresses for the nodes that point at it
        const std::string &fname = names_.back();
        auto lines = io::split_lines(text);
        if (depth == 0) end_line_ = lines.size() + 1;
        bool in_record = false;
        unsigned ports_left = 0;
        for (const auto &l : lines) {
            LineCursor c(fname, l);
            if (in_record) {
                if (!l.text.empty() && l.text[0] == '#') {
                    annotation(c);
                    continue;
                }
                if (!l.text.empty() && (l.text[0] == '[' || l.text[0] == '@')) {
                    if (ports_left == 0)
                        c.fail("no more port lines: the header declared " +
                               std::to_string(nodes_.back().num_ports) + " ports");
                    port_line(c, l.number);
                    --ports_left;
                    continue;
                }
                in_record = false;  // this line ends the record and is read as a top-level line
            }
            const std::string_view t = l.text;
            if (t.empty() || t[0] == '#') continue;
            if (io::starts_with_word(t, "Switch")) {
                header(c, l.number, NodeType::Switch, 6);
            } else if (io::starts_with_word(t, "Hca")) {
                header(c, l.number, NodeType::Ca, 3);
            } else if (io::starts_with_word(t, "Ca")) {
                header(c, l.number, NodeType::Ca, 2);
            } else if (io::starts_with_word(t, "Rt")) {
                header(c, l.number, NodeType::Router, 2);
            } else if (io::starts_with_word(t, "switchguid")) {
                guid_base(c, sw_);
                continue;
            } else if (io::starts_with_word(t, "hcaguids") || io::starts_with_word(t, "caguid")) {
                guid_base(c, ca_);
                continue;
            } else if (io::starts_with_word(t, "rtguid")) {
                guid_base(c, rt_);
                continue;
            } else if (io::starts_with_word(t, "width")) {
                width_mask_ =
                    static_cast<unsigned>(assigned_value(c, "an enabled link width mask (1..31)", 1, 31));
                continue;
            } else if (io::starts_with_word(t, "speed")) {
                speed_mask_ =
                    static_cast<unsigned>(assigned_value(c, "an enabled link speed mask (1..7)", 1, 7));
                continue;
            } else if (io::starts_with_word(t, "module")) {
                module(c);
                continue;
            } else if (io::starts_with_word(t, "include")) {
                include(c, depth);
                continue;
            } else if (t[0] == '[' || t[0] == '@') {
                c.fail("a Switch/Hca/Ca/Rt header before port lines");
            } else {
                continue;  // devid=, pdebug=, do <cmd>, and any other line: ignored like ibsim
            }
            in_record = true;
            ports_left = nodes_.back().num_ports;
        }
    }

    std::uint64_t assigned_value(LineCursor &c, const char *what, std::uint64_t lo, std::uint64_t hi) {
        const auto eq = c.text().find('=');
        if (eq == std::string_view::npos) c.fail("'=' and " + std::string(what));
        c.seek(eq + 1);
        c.skip_space();
        const std::size_t col = c.column();
        const auto v = c.read_uint(what);
        if (v < lo || v > hi) c.fail_at(col, what, std::to_string(v));
        return v;
    }

    void guid_base(LineCursor &c, GuidBase &b) {
        const auto eq = c.text().find_first_of("=+");
        if (eq == std::string_view::npos) c.fail("'=' (absolute) or '+' (relative) and a GUID base");
        const bool relative = c.text()[eq] == '+';
        c.seek(eq + 1);
        c.skip_space();
        const Guid v = c.read_uint("a GUID (0x...)");
        if (relative) {
            b.next = b.abs + v;
        } else {
            b.abs = v;
            b.next = v;
        }
    }

    void module(LineCursor &c) {
        const auto eq = c.text().find('=');
        if (eq == std::string_view::npos) c.fail("'=' and a quoted module prefix");
        c.seek(eq + 1);
        c.skip_space();
        const std::size_t col = c.column();
        prefix_ = std::string(c.read_quoted("a quoted module prefix"));
        if (prefix_.size() > 20) c.fail_at(col, "a module prefix of at most 20 characters", prefix_);
    }

    void include(LineCursor &c, unsigned depth) {
        const auto q = c.text().find('"');
        if (q == std::string_view::npos) c.fail("a quoted file name after include");
        c.seek(q);
        const std::size_t col = c.column();
        std::string inc(c.read_quoted("a quoted file name after include"));
        if (!resolve_) c.fail_at(col, "no include (reading from a string without an include resolver)", inc);
        if (depth + 1 >= kMaxIncludeDepth)
            c.fail_at(col, "includes nested at most " + std::to_string(kMaxIncludeDepth) + " deep", inc);
        if (++includes_ > kMaxIncludes)
            c.fail_at(col, "at most " + std::to_string(kMaxIncludes) + " includes in all", inc);
        std::string display;
        std::string text;
        try {
            text = resolve_(inc, display);
        } catch (const ParseError &) {
            throw;
        } catch (const std::exception &e) {
            c.fail_at(col, std::string("a readable include file (") + e.what() + ")", inc);
        }
        included_.push_back(std::move(text));
        file(included_.back(), display.empty() ? inc : display, depth + 1);
    }

    std::string node_id(std::string_view base, LineCursor &c, std::size_t col) const {
        if (base.find('#') != std::string_view::npos || base.find('@') != std::string_view::npos)
            c.fail_at(col, "a node id without '#' or '@' (ibsim reserves them)", base);
        return prefix_.empty() ? std::string(base) : prefix_ + "#" + std::string(base);
    }

    std::string remote_id(std::string_view base) const {
        if (prefix_.empty() || base.find('#') != std::string_view::npos) return std::string(base);
        return prefix_ + "#" + std::string(base);
    }

    void header(LineCursor &c, std::size_t number, NodeType type, std::size_t keyword_len) {
        PendingNode n;
        n.type = type;
        n.line = number;
        n.file = &names_.back();
        c.seek(keyword_len);
        // ibsim takes the first number after the keyword as the port count.
        while (!c.at_end() && !(c.peek() >= '0' && c.peek() <= '9') && c.peek() != '"') c.seek(c.pos() + 1);
        const std::size_t pcol = c.column();
        const auto ports = c.read_uint("the number of ports (1..254)", false, 254);
        if (ports == 0) c.fail_at(pcol, "the number of ports (1..254)", "0");
        n.num_ports = static_cast<PortNum>(ports);
        c.skip_space();
        const std::size_t idcol = c.column();
        const std::string base(c.read_quoted("the node id in quotes"));
        if (base.empty()) c.fail_at(idcol, "a non-empty node id", "\"\"");
        n.id = node_id(base, c, idcol);
        // Description: after '#', quoted, or up to " enhanced port ", " base port ", " lid ", " lmc ".
        std::string_view rest = c.rest();
        const auto hash = rest.find('#');
        std::string_view after = rest;
        if (hash != std::string_view::npos) {
            std::string_view d = rest.substr(hash + 1);
            while (!d.empty() && io::is_space(d.front())) d.remove_prefix(1);
            if (!d.empty() && d.front() == '"') {
                const auto close = d.find('"', 1);
                if (close == std::string_view::npos)
                    c.fail_at(static_cast<std::size_t>(d.data() - c.text().data()) + 1,
                              "a closing quote after the node description", d);
                n.desc = std::string(d.substr(1, close - 1));
                after = d.substr(close + 1);
            } else {
                std::size_t end = d.size();
                for (std::string_view stop : {" enhanced port ", " base port ", " lid ", " lmc "})
                    end = std::min(end, d.find(stop) == std::string_view::npos ? d.size() : d.find(stop));
                n.desc = std::string(io::trim(d.substr(0, end)));
                after = d.substr(end);
            }
        }
        if (n.desc.empty()) n.desc = n.id;
        if (type == NodeType::Switch) lid_lmc(after, c, n.lid, n.lmc);
        GuidBase &b = type == NodeType::Switch ? sw_ : type == NodeType::Ca ? ca_ : rt_;
        n.guid = b.next;
        n.sys_guid = n.guid;
        b.next += type == NodeType::Switch ? 1 : Guid{n.num_ports} + 1;
        node_width_ = width_mask_;
        node_speed_ = speed_mask_;
        nodes_.push_back(std::move(n));
    }

    // "lid N" and "lmc M" anywhere in s (as ibsim's strstr does).
    void lid_lmc(std::string_view s, LineCursor &c, Lid &lid, std::uint8_t &lmc) {
        const std::size_t base = static_cast<std::size_t>(s.data() - c.text().data());
        if (auto p = s.find("lid "); p != std::string_view::npos) {
            c.seek(base + p + 4);
            c.skip_space();
            lid = static_cast<Lid>(c.read_uint("a LID", false, kMaxExtendedLid));
        }
        if (auto p = s.find("lmc "); p != std::string_view::npos) {
            c.seek(base + p + 4);
            c.skip_space();
            lmc = static_cast<std::uint8_t>(c.read_uint("an LMC (0..7)", false, 7));
        }
    }

    void port_line(LineCursor &c, std::size_t number) {
        PendingNode &n = nodes_.back();
        if (c.peek() == '@') c.fail("a port line starting with '[' (ibsim aliases '@' are not supported)");
        PendingPort p;
        p.line = number;
        p.file = &names_.back();
        c.expect('[', "'['");
        const std::size_t pcol = c.column();
        const auto port = c.read_uint("a port number", false, 255);
        if (port == 0 || port > n.num_ports)
            c.fail_at(pcol, "a port number 1.." + std::to_string(n.num_ports), std::to_string(port));
        p.port = static_cast<PortNum>(port);
        for (auto &q : n.ports)
            if (q.port == p.port)
                c.fail_at(pcol, "each port listed once", "port " + std::to_string(port) + " again");
        c.expect(']', "']' after the port number");
        const auto q = c.rest().find('"');
        if (q == std::string_view::npos) c.fail("the remote node id in quotes");
        c.seek(c.pos() + q);
        p.remote_column = c.column();
        const std::string_view remote = c.read_quoted("the remote node id in quotes");
        if (remote.empty()) c.fail_at(p.remote_column, "a non-empty remote node id", "\"\"");
        if (remote.find('@') != std::string_view::npos)
            c.fail_at(p.remote_column, "a remote node id (ibsim aliases '@' are not supported)", remote);
        p.remote_id = remote_id(remote);
        p.remote_port = 1;  // ibsim's default
        if (c.accept('[')) {
            const std::size_t rcol = c.column();
            const auto rp = c.read_uint("the remote port number", false, 255);
            if (rp == 0) c.fail_at(rcol, "a remote port number 1..255", "0");
            p.remote_port = static_cast<PortNum>(rp);
            c.expect(']', "']' after the remote port number");
        }
        // Options "w=<mask>" and "s=<mask>": the letter before each '='.
        std::string_view rest = c.rest();
        const std::size_t base = c.pos();
        for (std::size_t eq = rest.find('='); eq != std::string_view::npos; eq = rest.find('=', eq + 1)) {
            std::size_t k = eq;
            while (k > 0 && !std::isalpha(static_cast<unsigned char>(rest[k - 1]))) --k;
            if (k == 0) c.fail_at(base + eq + 1, "a port option w=<mask> or s=<mask>", rest.substr(eq));
            const char opt = rest[k - 1];
            c.seek(base + eq + 1);
            if (opt == 'w') {
                p.width_mask = static_cast<unsigned>(c.read_uint("an enabled width mask (1..31)", false, 31));
                if (!p.width_mask) c.fail_at(base + eq + 2, "an enabled width mask (1..31)", "0");
            } else if (opt == 's') {
                p.speed_mask = static_cast<unsigned>(c.read_uint("an enabled speed mask (1..7)", false, 7));
                if (!p.speed_mask) c.fail_at(base + eq + 2, "an enabled speed mask (1..7)", "0");
            } else {
                c.fail_at(base + k, "a port option w=<mask> or s=<mask>", rest.substr(k - 1));
            }
        }
        if (!p.width_mask) p.width_mask = node_width_;
        if (!p.speed_mask) p.speed_mask = node_speed_;
        if (n.type != NodeType::Switch) lid_lmc(rest, c, p.lid, p.lmc);
        n.ports.push_back(std::move(p));
    }

    // "# weft-link 4xEDR" after a port line.
    void annotation(LineCursor &c) {
        c.seek(1);
        c.skip_space();
        if (!c.accept("weft-link")) return;  // an ordinary comment
        if (nodes_.back().ports.empty()) c.fail("a port line before '# weft-link'");
        c.skip_space();
        const std::size_t col = c.column();
        const std::string_view word = c.read_word();
        const auto x = word.find('x');
        std::optional<LinkWidth> w;
        std::optional<LinkSpeed> s;
        if (x != std::string_view::npos) {
            w = parse_width(word.substr(0, x + 1));
            s = parse_speed(word.substr(x + 1));
        }
        if (!w || !s) c.fail_at(col, "<width>x<speed>, e.g. 4xEDR", word);
        nodes_.back().ports.back().width = w;
        nodes_.back().ports.back().speed = s;
    }

    IncludeResolver resolve_;
    std::vector<PendingNode> nodes_;
    std::list<std::string> names_;
    std::list<std::string> included_;
    std::size_t end_line_ = 1;  // the line after the top file's last
    unsigned includes_ = 0;     // followed so far
    GuidBase sw_{0x200000, 0x200000}, ca_{0x100000, 0x100000}, rt_{0x300000, 0x300000};
    unsigned width_mask_ = 2, speed_mask_ = 1;  // ibsim: 4x, SDR
    unsigned node_width_ = 2, node_speed_ = 1;
    std::string prefix_;
};

}  // namespace

Fabric read_ibsim_net(std::string_view text, const std::string &name, IncludeResolver includes) {
    return IbsimParser(std::move(includes)).parse(text, name);
}

}  // namespace weft::routing
