// Reader of torus-2QoS.conf (see weft/routing/torus_config.hpp for the grammar).
#include "weft/routing/torus_config.hpp"

#include "weft/routing/text_file.hpp"

#include <algorithm>
#include <charconv>

namespace weft::routing {

Guid TorusSeed::origin() const {
    for (const auto &dim : link)
        for (const auto &l : dim)
            if (l) return l->first;
    return 0;
}

namespace {

struct Token {
    std::string_view text;
    std::size_t column = 0;  // 1-based
};

std::vector<Token> tokens_of(std::string_view line) {
    std::vector<Token> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        const std::size_t b = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
        if (i > b) out.push_back({line.substr(b, i - b), b + 1});
    }
    return out;
}

class Reader {
  public:
    explicit Reader(const std::string &name) : name_(name) {}

    [[noreturn]] void fail(std::size_t line, std::size_t col, std::string expected,
                           std::string_view found = {}) const {
        throw ParseError(name_, line, col, std::move(expected), std::string(found));
    }

    const Token &arg(const std::vector<Token> &t, std::size_t i, std::size_t line, const char *what) const {
        if (i >= t.size()) {
            const auto &last = t.back();
            fail(line, last.column + last.text.size(), what, "end of line");
        }
        return t[i];
    }

    template <typename T>
    T number(const Token &tok, std::size_t line, const char *what, long long lo, long long hi) const {
        long long v = 0;
        std::string_view s = tok.text;
        bool neg = false;
        if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
            neg = s[0] == '-';
            s.remove_prefix(1);
        }
        const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 10);
        if (s.empty() || ec != std::errc() || p != s.data() + s.size())
            fail(line, tok.column, what, tok.text);
        if (neg) v = -v;
        if (v < lo || v > hi)
            fail(line, tok.column,
                 std::string(what) + " in " + std::to_string(lo) + ".." + std::to_string(hi), tok.text);
        return static_cast<T>(v);
    }

    Guid guid(const Token &tok, std::size_t line) const {
        std::string_view s = tok.text;
        int base = 10;
        if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
            s.remove_prefix(2);
            base = 16;
        }
        Guid v = 0;
        const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
        if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v == 0)
            fail(line, tok.column, "a nonzero switch node GUID (0x... or decimal)", tok.text);
        return v;
    }

    // "5", "5t", "5M": radix 1..255 with an optional mesh/torus suffix.
    void radix(const Token &tok, std::size_t line, bool default_mesh, unsigned &r, bool &mesh) const {
        std::string_view s = tok.text;
        mesh = default_mesh;
        if (!s.empty()) {
            const char c = s.back();
            if (c == 'm' || c == 'M' || c == 't' || c == 'T') {
                mesh = c == 'm' || c == 'M';
                s.remove_suffix(1);
            }
        }
        unsigned v = 0;
        const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 10);
        if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v < 1 || v > 255)
            fail(line, tok.column, "a radix 1..255, optionally followed by m, M, t or T", tok.text);
        r = v;
    }

  private:
    const std::string &name_;
};

int link_keyword(std::string_view k, unsigned &dim, unsigned &positive) {
    static constexpr std::string_view names[] = {"xm_link", "xp_link", "ym_link",
                                                 "yp_link", "zm_link", "zp_link"};
    for (unsigned i = 0; i < 6; ++i)
        if (k == names[i]) {
            dim = i / 2;
            positive = i % 2;
            return 1;
        }
    return 0;
}

}  // namespace

TorusConfig read_torus_config(std::string_view text, const std::string &name) {
    Reader rd(name);
    TorusConfig c;
    bool have_shape = false;
    TorusSeed cur;
    bool cur_used = false;  // the current seed has a link or dateline
    std::size_t line_no = 0, pos = 0;
    auto finish_seed = [&] {
        if (cur_used) c.seeds.push_back(cur);
        cur = TorusSeed{};
        cur_used = false;
    };
    while (pos <= text.size()) {
        const std::size_t nl = text.find('\n', pos);
        const std::string_view line =
            text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
        ++line_no;
        const auto t = tokens_of(line);
        if (t.empty() || t[0].text[0] == '#') continue;
        const std::string_view k = t[0].text;
        if (!have_shape && k != "torus" && k != "mesh")
            rd.fail(line_no, t[0].column, "'torus' or 'mesh' as the first keyword", k);
        unsigned dim = 0, positive = 0;
        if (k == "torus" || k == "mesh") {
            if (have_shape) rd.fail(line_no, t[0].column, "one 'torus'/'mesh' line only (already given)", k);
            for (unsigned d = 0; d < kTorusDims; ++d)
                rd.radix(rd.arg(t, 1 + d, line_no, "x, y and z radices"), line_no, k == "mesh", c.radix[d],
                         c.mesh[d]);
            if (static_cast<unsigned long>(c.radix[0]) * c.radix[1] * c.radix[2] > 1'000'000)
                rd.fail(line_no, t[1].column, "at most a million switch positions");
            have_shape = true;
        } else if (link_keyword(k, dim, positive)) {
            const Token &a = rd.arg(t, 1, line_no, "two switch node GUIDs");
            const Token &b = rd.arg(t, 2, line_no, "two switch node GUIDs");
            const Guid g0 = rd.guid(a, line_no), g1 = rd.guid(b, line_no);
            if (g0 == g1) rd.fail(line_no, b.column, "a GUID different from the first", b.text);
            if (cur.link[dim][positive])
                rd.fail(line_no, t[0].column, "each link keyword once per seed (use next_seed)", k);
            const Guid origin = cur.origin();
            if (origin && origin != g0)
                rd.fail(line_no, a.column, "the same 'from' switch as the seed's other links", a.text);
            if (!cur_used) cur.line = line_no;
            cur.link[dim][positive] = std::make_pair(g0, g1);
            cur_used = true;
        } else if (k == "x_dateline" || k == "y_dateline" || k == "z_dateline") {
            const unsigned d = static_cast<unsigned>(k[0] - 'x');
            cur.dateline[d] = rd.number<int>(rd.arg(t, 1, line_no, "a dateline position"), line_no,
                                             "a dateline position", -255, 255);
            if (!cur_used) cur.line = line_no;
            cur_used = true;
        } else if (k == "next_seed") {
            finish_seed();
        } else if (k == "portgroup_max_ports") {
            c.portgroup_max_ports =
                rd.number<unsigned>(rd.arg(t, 1, line_no, "a port count"), line_no, "a port count", 1, 254);
        } else if (k == "port_order") {
            if (t.size() < 2) rd.arg(t, 1, line_no, "one or more port numbers");
            for (std::size_t i = 1; i < t.size() && t[i].text[0] != '#'; ++i) {
                const auto p = rd.number<PortNum>(t[i], line_no, "a port number", 1, 254);
                if (std::find(c.port_order.begin(), c.port_order.end(), p) == c.port_order.end())
                    c.port_order.push_back(p);
            }
        } else if (k == "max_changes") {
            c.max_changes =
                rd.number<unsigned>(rd.arg(t, 1, line_no, "a count"), line_no, "a count", 0, 1'000'000);
        } else {
            rd.fail(line_no, t[0].column,
                    "a keyword (torus, mesh, [xyz]p_link, [xyz]m_link, [xyz]_dateline, next_seed, "
                    "portgroup_max_ports, port_order, max_changes)",
                    k);
        }
    }
    finish_seed();
    if (!have_shape) rd.fail(line_no, 0, "a 'torus' or 'mesh' line");
    // Each seed must name a direction for every dimension of radix > 1, both directions for a
    // radix-4 torus dimension (a 4-ring is itself a 4-loop, so one link cannot orient it).
    if (c.seeds.empty()) rd.fail(line_no, 0, "at least one seed ([xyz]p_link / [xyz]m_link lines)");
    static constexpr char axis[] = {'x', 'y', 'z'};
    for (const auto &s : c.seeds) {
        // A seed is placed by the switch its links leave; datelines alone name no switch.
        if (s.origin() == 0)
            rd.fail(s.line, 0, "a [xyz]p_link or [xyz]m_link in this seed, not only datelines");
        for (unsigned d = 0; d < kTorusDims; ++d) {
            const bool any = s.link[d][0] || s.link[d][1];
            if (c.radix[d] > 1 && !any)
                rd.fail(s.line, 0,
                        std::string("a ") + axis[d] + "p_link or " + axis[d] + "m_link in this seed (radix " +
                            std::to_string(c.radix[d]) + ")");
            if (c.radix[d] == 1 && any)
                rd.fail(s.line, 0,
                        std::string("no ") + axis[d] + " link in this seed (" + axis[d] + " radix is 1)");
            if (c.radix[d] == 4 && !c.mesh[d] && !(s.link[d][0] && s.link[d][1]))
                rd.fail(s.line, 0,
                        std::string("both ") + axis[d] + "p_link and " + axis[d] +
                            "m_link in this seed (radix-4 torus dimension)");
        }
    }
    return c;
}

TorusConfig load_torus_config(const std::string &path) {
    std::string text;
    try {
        text = read_text_file(path);
    } catch (const ParseError &) {
        throw;
    } catch (const std::runtime_error &e) {
        throw ParseError(path, 0, 0, std::string("a readable torus-2QoS.conf (") + e.what() + ")");
    }
    return read_torus_config(text, path);
}

}  // namespace weft::routing
