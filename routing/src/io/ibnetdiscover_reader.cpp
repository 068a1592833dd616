// Reader for the topology file infiniband-diags' ibnetdiscover writes:
//
//   vendid=0x2c9 / devid=0xc738 / sysimgguid=0x... / switchguid=0x...(0x...) | caguid=0x... | rtguid=0x...
//   Switch  36 "S-<guid>"   # "desc" enhanced port 0 lid 3 lmc 0
//   [1]     "H-<guid>"[1](<port guid>)   # "desc" lid 7 4xEDR
//   Ca      2 "H-<guid>"    # "desc"
//   [1](<port guid>)  "S-<guid>"[1]   # lid 7 lmc 0 "desc" lid 3 4xEDR
//
// plus comments, grouping output (Chassis/Hostname lines, [ext N] port names) and -f's
// " s=.. w=.. v=.." suffix. GUIDs come from the guid lines, else from the S-/H-/R- ids.
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

std::optional<Guid> guid_from_id(std::string_view id) {
    if (id.size() < 3 || id[1] != '-' || (id[0] != 'S' && id[0] != 'H' && id[0] != 'R')) return std::nullopt;
    Guid g = 0;
    std::size_t digits = 0;
    for (char c : id.substr(2)) {
        unsigned d;
        if (c >= '0' && c <= '9')
            d = static_cast<unsigned>(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = static_cast<unsigned>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = static_cast<unsigned>(c - 'A' + 10);
        else
            return std::nullopt;
        if (++digits > 16) return std::nullopt;
        g = (g << 4) | d;
    }
    return digits ? std::optional<Guid>(g) : std::nullopt;
}

// "[ext 12]" after a port number (grouping output); ignored.
void skip_ext(LineCursor &c) {
    if (c.rest().substr(0, 4) == "[ext") {
        c.seek(c.pos() + 4);
        c.skip_space();
        c.read_uint("an external port number");
        c.expect(']', "']' closing [ext N]");
    }
}

// The comment part of a port line: optional "lid L lmc M" (a CA's own port), the remote
// description in quotes, "lid N", and the link as <width>x<speed>.
void parse_port_comment(LineCursor &c, PendingPort &p, bool local_lid) {
    c.skip_space();
    if (!c.accept('#')) return;
    c.skip_space();
    if (local_lid && c.accept("lid ")) {
        c.skip_space();
        p.lid = static_cast<Lid>(c.read_uint("the port's LID", false, kMaxExtendedLid));
        c.skip_space();
        if (c.accept("lmc ")) {
            c.skip_space();
            p.lmc = static_cast<std::uint8_t>(c.read_uint("the port's LMC (0..7)", false, 7));
        }
        c.skip_space();
    }
    if (c.peek() == '"') c.read_quoted("the remote node description");
    // The remaining words: "lid N", "<w>x<speed>", "s=1 w=2 v=3", "(scp)", "slot N".
    while (true) {
        c.skip_space();
        if (c.at_end()) break;
        const std::size_t col = c.column();
        std::string_view word = c.read_word();
        const auto x = word.find('x');
        if (x != std::string_view::npos && x > 0 && word.find('=') == std::string_view::npos) {
            std::string_view wpart = word.substr(0, x + 1), spart = word.substr(x + 1);
            if (wpart.find_first_not_of("0123456789x?") == std::string_view::npos &&
                (spart.find_first_not_of("?") == std::string_view::npos || parse_speed(spart))) {
                p.width = parse_width(wpart);  // "??" = unknown width: stays default
                p.speed = parse_speed(spart);  // "???" likewise
                if (!p.width && wpart.find('?') == std::string_view::npos)
                    c.fail_at(col, "a link width 1x/2x/4x/8x/12x", wpart);
                continue;
            }
            if (wpart.find_first_not_of("0123456789x") == std::string_view::npos && !parse_speed(spart))
                c.fail_at(col + x + 1, "a link speed SDR/DDR/QDR/FDR10/FDR/EDR/HDR/NDR/XDR", spart);
        }
    }
}

class IbnetdiscoverParser {
  public:
    IbnetdiscoverParser(std::string_view text, const std::string &name)
        : name_(name), lines_(io::split_lines(text)) {}

    Fabric parse() {
        for (const auto &l : lines_) line(l);
        io::LinkDefaults d;  // ibnetdiscover always names the link; SDR 4x only for "??"
        return io::build_fabric(name_, nodes_, d, lines_.size() + 1);
    }

  private:
    void line(const io::TextLine &l) {
        LineCursor c(name_, l);
        c.skip_space();
        if (c.at_end()) {
            in_record_ = false;
            return;
        }
        if (c.peek() == '#') return;
        const std::string_view r = c.rest();
        if (r[0] == '[') return port_line(c, l.number);
        in_record_ = false;
        if (c.accept("vendid=") || c.accept("devid=")) {
            c.read_uint("a hexadecimal id (0x...)");
            return;
        }
        if (c.accept("sysimgguid=")) {
            sys_guid_ = c.read_uint("a system image GUID (0x...)");
            return;
        }
        if (c.accept("switchguid=") || c.accept("caguid=") || c.accept("rtguid=")) {
            node_guid_ = c.read_uint("a node GUID (0x...)");
            return;
        }
        if (c.accept("Switch")) return header(c, l, NodeType::Switch);
        if (c.accept("Ca")) return header(c, l, NodeType::Ca);
        if (c.accept("Rt")) return header(c, l, NodeType::Router);
        if (c.accept("Chassis") || c.accept("Hostname:")) return;  // grouping output
        c.fail(
            "a node record (vendid=, devid=, sysimgguid=, switchguid=/caguid=/rtguid=, Switch, Ca, Rt) or a "
            "port line");
    }

    void header(LineCursor &c, const io::TextLine &l, NodeType type) {
        PendingNode n;
        n.type = type;
        n.line = l.number;
        if (!io::is_space(c.peek())) c.fail("whitespace after the node type");
        c.skip_space();
        n.num_ports = static_cast<PortNum>(c.read_uint("the number of ports (1..254)", false, 254));
        if (n.num_ports == 0) c.fail_at(c.column() - 1, "the number of ports (1..254)", "0");
        c.skip_space();
        const std::size_t id_col = c.column();
        n.id = std::string(c.read_quoted("the node id in quotes (\"S-<guid>\")"));
        auto from_id = guid_from_id(n.id);
        if (node_guid_)
            n.guid = *node_guid_;
        else if (from_id)
            n.guid = *from_id;
        else
            c.fail_at(id_col, "a node id of the form S-/H-/R-<hex GUID> or a preceding guid line", n.id);
        n.sys_guid = sys_guid_.value_or(0);
        node_guid_.reset();
        sys_guid_.reset();
        c.skip_space();
        if (c.accept('#')) {
            c.skip_space();
            if (c.peek() == '"') n.desc = std::string(c.read_quoted("the node description in quotes"));
            if (type == NodeType::Switch) {
                c.skip_space();
                if (c.accept("enhanced") || c.accept("base")) {
                    c.skip_space();
                    if (!c.accept("port 0")) c.fail("'port 0' after enhanced/base");
                }
                c.skip_space();
                if (c.accept("lid ")) {
                    c.skip_space();
                    n.lid = static_cast<Lid>(c.read_uint("the switch LID", false, kMaxExtendedLid));
                    c.skip_space();
                    if (c.accept("lmc ")) {
                        c.skip_space();
                        n.lmc = static_cast<std::uint8_t>(c.read_uint("the switch LMC (0..7)", false, 7));
                    }
                }
            }
        }
        nodes_.push_back(std::move(n));
        in_record_ = true;
    }

    void port_line(LineCursor &c, std::size_t number) {
        if (!in_record_) c.fail("a Switch/Ca/Rt header before port lines");
        PendingNode &n = nodes_.back();
        PendingPort p;
        p.line = number;
        c.expect('[', "'['");
        const std::size_t pcol = c.column();
        p.port = static_cast<PortNum>(c.read_uint("a port number", false, 254));
        if (p.port == 0 || p.port > n.num_ports)
            c.fail_at(pcol, "a port number 1.." + std::to_string(n.num_ports), std::to_string(p.port));
        for (auto &q : n.ports)
            if (q.port == p.port)
                c.fail_at(pcol, "each port listed once", "port " + std::to_string(p.port) + " again");
        c.expect(']', "']' after the port number");
        skip_ext(c);
        if (c.accept('(')) {
            p.port_guid = c.read_uint("the port GUID in hex", true);
            c.expect(')', "')' after the port GUID");
        }
        c.skip_space();
        p.remote_column = c.column();
        p.remote_id = std::string(c.read_quoted("the remote node id in quotes"));
        c.expect('[', "'[' and the remote port number");
        p.remote_port = static_cast<PortNum>(c.read_uint("the remote port number", false, 254));
        c.expect(']', "']' after the remote port number");
        skip_ext(c);
        if (c.accept('(')) {
            c.read_uint("the remote port GUID in hex", true);
            c.expect(')', "')' after the remote port GUID");
        }
        c.skip_space();
        if (c.accept('(')) {  // old CA format: " (guid) " after a space
            c.read_uint("the remote port GUID in hex", true);
            c.expect(')', "')' after the remote port GUID");
        }
        parse_port_comment(c, p, n.type != NodeType::Switch);
        n.ports.push_back(std::move(p));
    }

    const std::string &name_;
    std::vector<io::TextLine> lines_;
    std::vector<PendingNode> nodes_;
    std::optional<Guid> node_guid_, sys_guid_;
    bool in_record_ = false;
};

}  // namespace

Fabric read_ibnetdiscover(std::string_view text, const std::string &name) {
    return IbnetdiscoverParser(text, name).parse();
}

}  // namespace weft::routing
