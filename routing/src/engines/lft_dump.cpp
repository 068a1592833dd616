#include "weft/routing/lft_dump.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>
#include <stdexcept>

#include <fcntl.h>
#include <unistd.h>

#include "weft/routing/vswitch.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

// Each byte's value as a hex digit (either case), -1 if it is none.
constexpr std::array<std::int8_t, 256> kHexDigit = [] {
    std::array<std::int8_t, 256> d{};
    for (int c = 0; c < 256; ++c)
        d[static_cast<std::size_t>(c)] = static_cast<std::int8_t>(c >= '0' && c <= '9'   ? c - '0'
                                                                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                                                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                                                         : -1);
    return d;
}();

// Where the line that goes on at from ends: the position of its newline, or size.
std::size_t line_end(const char *base, std::size_t from, std::size_t size) {
#if defined(__SSE2__)
    // Lines are short and the search starts late in them: one or two 16-byte compares, no call.
    for (; from + 16 <= size; from += 16) {
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(base + from));
        if (const int m = _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('\n'))))
            return from + static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(m)));
    }
#endif
    const void *nl = std::memchr(base + from, '\n', size - from);
    return nl ? static_cast<std::size_t>(static_cast<const char *>(nl) - base) : size;
}

// The value of the 16 hex digits at p (either case), the first the most significant, into v;
// false if one is not a hex digit.
bool hex16(const char *p, std::uint64_t &v) {
#if defined(__SSE2__)
    // All 16 bytes at once: validated, turned into digit values, and pairs packed into bytes.
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
    const __m128i lower = _mm_or_si128(x, _mm_set1_epi8(0x20));  // letters to lower case
    // Signed compares: a byte >= 0x80 is negative and fails both ranges.
    const __m128i digit =
        _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8('0' - 1)), _mm_cmpgt_epi8(_mm_set1_epi8('9' + 1), x));
    const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
                                         _mm_cmpgt_epi8(_mm_set1_epi8('f' + 1), lower));
    if (_mm_movemask_epi8(_mm_or_si128(digit, letter)) != 0xFFFF) return false;
    const __m128i d =
        _mm_add_epi8(_mm_and_si128(x, _mm_set1_epi8(0x0F)), _mm_and_si128(letter, _mm_set1_epi8(9)));
    // Per 16-bit lane (digit 2i in its low byte): (d[2i] << 4 | d[2i+1]), then 8 bytes, first
    // the most significant.
    const __m128i pairs =
        _mm_and_si128(_mm_or_si128(_mm_slli_epi16(d, 4), _mm_srli_epi16(d, 8)), _mm_set1_epi16(0xFF));
    const auto bytes = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_packus_epi16(pairs, pairs)));
    v = __builtin_bswap64(bytes);
    return true;
#else
    int bad = 0;  // negative once a byte is not a digit
    v = 0;
    for (int i = 0; i < 16; ++i) {
        const int d = kHexDigit[static_cast<unsigned char>(p[i])];
        bad |= d;
        v = v << 4 | static_cast<std::uint64_t>(d & 0xF);
    }
    return bad >= 0;
#endif
}

// An entry line exactly as OpenSM writes it, "0x0001 003 # Channel Adapter portguid
// 0x0002c90300000001: 'h1'" (4 LID digits, 3 port digits, 16 GUID digits), read at p (avail
// bytes left in the piece) without the general line reader. Returns how many bytes it read
// (none of them a newline; what follows is the end of the line, or ':' or a space and a comment
// both readers ignore), or 0 for anything else, which the general reader then takes, so both
// accept (with the same values) and reject the same lines. A dump is mostly such lines.
std::size_t fast_entry(const char *p, std::size_t avail, LftDumpEntry &e) {
    // "0xLLLL PPP" and the end of the line or a space.
    if (avail < 10 || p[0] != '0' || p[1] != 'x' || p[6] != ' ') return 0;
    const bool line_ends = avail == 10 || p[10] == '\n';
    if (!line_ends && p[10] != ' ') return 0;
    // The 4 LID digits (a -1 in any makes the OR of all negative).
    const int l0 = kHexDigit[static_cast<unsigned char>(p[2])],
              l1 = kHexDigit[static_cast<unsigned char>(p[3])],
              l2 = kHexDigit[static_cast<unsigned char>(p[4])],
              l3 = kHexDigit[static_cast<unsigned char>(p[5])];
    const int lid = (l0 | l1 | l2 | l3) < 0 ? -1 : l0 << 12 | l1 << 8 | l2 << 4 | l3;
    const unsigned d0 = static_cast<unsigned>(p[7] - '0'), d1 = static_cast<unsigned>(p[8] - '0'),
                   d2 = static_cast<unsigned>(p[9] - '0');
    const unsigned port = d0 * 100 + d1 * 10 + d2;
    if (lid < 0 || d0 > 9 || d1 > 9 || d2 > 9 || port > 255) return 0;
    e.lid = static_cast<Lid>(lid);
    e.port = static_cast<PortNum>(port);
    e.port_guid = 0;
    if (line_ends) return 10;
    // Where OpenSM's comment names the owner, its " portguid 0x" is the first in the line.
    static constexpr char kCa[] = " # Channel Adapter portguid 0x", kSwitch[] = " # Switch portguid 0x",
                          kRouter[] = " # Router portguid 0x";
    const char *c = p + 10;
    const std::size_t left = avail - 10;
    // The prefix's length if the line goes on with it and 16 more bytes, else 0 (sizes known at
    // compile time: the compares are a few word loads).
    auto prefix = [&]<std::size_t N>(const char(&k)[N]) -> std::size_t {
        return left >= N - 1 + 16 && std::memcmp(c, k, N - 1) == 0 ? N - 1 : 0;
    };
    std::size_t skip = prefix(kSwitch);
    if (skip == 0) skip = prefix(kCa);
    if (skip == 0) skip = prefix(kRouter);
    if (skip == 0) return 0;
    const std::size_t after = 10 + skip + 16;
    if (!hex16(c + skip, e.port_guid)) return 0;
    if (after < avail && p[after] != '\n' && p[after] != ':' && !space(p[after])) return 0;
    return after;
}

// The entry line expected for LID lid at p (avail bytes left in the piece), as
// LftDumpParser::expect_lines_of built it: if the bytes there are that line but for its 3 port
// digits, and those are a port number, e gets the entry and the result is the line's length with
// its newline; else 0. Such a line is also in fast_entry's shape and reads the same there, so
// this only saves work.
std::size_t expected_entry(std::span<const LftDumpParser::Expected> expected, const char *text, Lid lid,
                           const char *p, std::size_t avail, LftDumpEntry &e) {
    if (lid >= expected.size()) return 0;
    const LftDumpParser::Expected x = expected[lid];
    const std::size_t len = x.len;  // >= 32 when set (see expect_lines_of)
    if (len == 0 || avail < len) return 0;
    const char *t = text + x.at;
#if defined(__SSE2__)
    auto eq = [&](std::size_t i) {
        return _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p + i)),
                              _mm_loadu_si128(reinterpret_cast<const __m128i *>(t + i)));
    };
    // The port digits (bytes 7-9) count as equal; the last 16 bytes may overlap the ones before.
    __m128i all = _mm_or_si128(eq(0), _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, -1, -1, -1, 0, 0, 0, 0, 0, 0));
    for (std::size_t i = 16; i + 16 < len; i += 16) all = _mm_and_si128(all, eq(i));
    all = _mm_and_si128(all, eq(len - 16));
    if (_mm_movemask_epi8(all) != 0xFFFF) return 0;
#else
    if (std::memcmp(p, t, 7) != 0 || std::memcmp(p + 10, t + 10, len - 10) != 0) return 0;
#endif
    const unsigned d0 = static_cast<unsigned>(p[7] - '0'), d1 = static_cast<unsigned>(p[8] - '0'),
                   d2 = static_cast<unsigned>(p[9] - '0');
    const unsigned port = d0 * 100 + d1 * 10 + d2;
    if (d0 > 9 || d1 > 9 || d2 > 9 || port > 255) return 0;
    e.lid = lid;
    e.port = static_cast<PortNum>(port);
    e.port_guid = x.guid;
    return len;
}

// Each byte's two lower-case hex digits.
constexpr std::array<std::array<char, 2>, 256> kHexPair = [] {
    std::array<std::array<char, 2>, 256> t{};
    for (int b = 0; b < 256; ++b)
        t[static_cast<std::size_t>(b)] = {"0123456789abcdef"[b >> 4], "0123456789abcdef"[b & 0xF]};
    return t;
}();

// Writes v's low `digits` hex digits at out, lower case, the most significant first.
char *put_hex(char *out, std::uint64_t v, int digits) {
    if (digits % 2) *out++ = "0123456789abcdef"[(v >> (4 * --digits)) & 0xF];
    for (int i = digits / 2 - 1; i >= 0; --i, out += 2)
        std::memcpy(out, kHexPair[(v >> (8 * i)) & 0xFF].data(), 2);
    return out;
}

char *put(char *out, std::string_view s) {
    std::memcpy(out, s.data(), s.size());
    return out + s.size();
}

// The GUID OpenSM's dump names a LID's owner by: a switch's LIDs by its node GUID (its port 0's,
// not stored per port), others by the port's.
Guid named_guid(const Fabric &f, const LidOwner &o) {
    const Node &n = f.node(o.node);
    return n.is_switch() ? n.guid : f.port(o.node, o.port).guid;
}

// An entry line as OpenSM writes it, with its newline: "0x%04x %03u # " and then "<type> portguid
// 0x%016x: '<desc>'" for an owned LID, or "unknown node and type".
constexpr std::string_view kGuidText = " portguid 0x", kDescText = ": '", kEndText = "'\n",
                           kUnknownText = "unknown node and type\n";
// The vLID section (see lft_dump.hpp): its header and the prefix of its entry lines.
constexpr std::string_view kVlidHeader = "Virtual lids", kVlidPrefix = "vlid ";
int lid_digits(Lid l) {
    return std::max(4, (static_cast<int>(std::bit_width(l)) + 3) / 4);
}
std::size_t entry_head_size(Lid l) {
    return 2 + static_cast<std::size_t>(lid_digits(l)) + 7;  // "0x", the LID, " PPP # "
}
std::size_t entry_line_size(Lid l, const Node &owner) {
    return entry_head_size(l) + node_type_name(owner.type).size() + kGuidText.size() + 16 + kDescText.size() +
           owner.desc.size() + kEndText.size();
}
char *put_entry_head(char *out, Lid l, PortNum p) {
    out = put_hex(put(out, "0x"), l, lid_digits(l));
    *out++ = ' ';
    *out++ = static_cast<char>('0' + p / 100);
    *out++ = static_cast<char>('0' + p / 10 % 10);
    *out++ = static_cast<char>('0' + p % 10);
    return put(out, " # ");
}
char *put_entry_line(char *out, Lid l, PortNum p, const Node &owner, Guid g) {
    out = put(put(put_entry_head(out, l, p), node_type_name(owner.type)), kGuidText);
    return put(put(put(put_hex(out, g, 16), kDescText), owner.desc), kEndText);
}

// Collects what a parser hands it into an LftDump.
class DumpBuilder final : public LftDumpSink {
  public:
    explicit DumpBuilder(LftDump &d) : d_(d) {}
    void on_switch(const LftDumpSwitch &sw) override { d_.switches.push_back(sw); }
    void on_entries(std::span<const LftDumpEntry> es) override {
        auto &to = d_.switches.back().entries;
        to.insert(to.end(), es.begin(), es.end());
    }

  private:
    LftDump &d_;
};

// Writes dump entries into a fabric's LFTs (see apply_lft_dump).
class LftApplier final : public LftDumpSink {
  public:
    LftApplier(const Fabric &f, RoutingTables &t)
        : f_(f), t_(t), max_lid_(f.max_lid()), owner_guid_(max_lid_ + 1, 0) {
        // Per LID, the port GUID that names its owner without a remap (checked the way on_entry
        // looks it up), so that most entries need no lookup by GUID.
        for (Lid l = 1; l <= max_lid_; ++l)
            if (auto o = f.lid_owner(l)) {
                const Guid g = named_guid(f, *o);
                if (g != 0 && remapped(g, l) == l) owner_guid_[l] = g;
            }
    }
    void on_switch(const LftDumpSwitch &sw) override {
        row_ = nullptr;
        // The header's LID names the switch when the LIDs are the fabric's (no lookup by GUID).
        // (owner_guid_ is non-zero only for LIDs that have an owner.)
        std::optional<NodeIdx> n;
        if (sw.guid != 0 && sw.lid != 0 && sw.lid <= max_lid_ && owner_guid_[sw.lid] == sw.guid) {
            const NodeIdx o = f_.lid_owner(sw.lid)->node;
            if (f_.node(o).is_switch()) n = o;
        }
        if (!n) n = f_.find_guid(sw.guid);
        if (!n || !f_.node(*n).is_switch()) {
            ++rep_.switches_unknown;
            return;
        }
        ++rep_.switches_applied;
        node_ = &f_.node(*n);
        auto &lft = t_.lft[node_->sw];
        std::fill(lft.begin(), lft.end(), kNoPort);
        row_ = lft.data();
    }
    void on_entries(std::span<const LftDumpEntry> es) override {
        if (!row_) return;  // a switch not in the fabric
        const unsigned ports = node_->num_ports;
        for (const LftDumpEntry &e : es) {
            Lid lid = e.lid;
            if (e.port_guid && (lid > max_lid_ || owner_guid_[lid] != e.port_guid)) {
                lid = remapped(e.port_guid, lid);
                rep_.remapped += lid != e.lid;
            }
            if (lid == 0 || lid > max_lid_ || (e.port > ports && e.port != kNoPort)) {
                ++rep_.rejected;
                continue;
            }
            row_[lid] = e.port;
            ++rep_.entries;
        }
    }
    const LftApplyReport &report() const { return rep_; }

  private:
    // OpenSM's remap_lid: lid moved into the LID range the port with GUID g owns now, when g
    // names a port that has LIDs and lid is outside them.
    Lid remapped(Guid g, Lid lid) const {
        if (auto o = f_.find_port_guid(g)) {
            // A VF LID of a vSwitch belongs to the port beside its own range: no remap.
            if (const auto cur = f_.lid_owner(lid); cur && cur->node == o->node && cur->port == o->port)
                return lid;
            const Port &p = f_.port(o->node, o->port);
            const bool sw = f_.node(o->node).is_switch();
            const Lid lo = sw ? f_.port(o->node, 0).lid : p.lid;
            const std::uint8_t lmc = sw ? f_.port(o->node, 0).lmc : p.lmc;
            const Lid hi = lo + (Lid{1} << lmc) - 1;
            if (lo != 0 && (lid < lo || lid > hi)) return lo + (lid & ((Lid{1} << lmc) - 1));
        }
        return lid;
    }

    const Fabric &f_;
    RoutingTables &t_;
    const Lid max_lid_;
    std::vector<Guid> owner_guid_;  // see the constructor
    const Node *node_ = nullptr;
    PortNum *row_ = nullptr;  // the current switch's LFT, null while skipping one
    LftApplyReport rep_;
};

}  // namespace

void LftDumpParser::parse(std::string_view lines) {
    const char *const base = lines.data();
    const std::size_t size = lines.size();
    // Entries go to the sink in runs. The counts live in locals while the loop runs (the entries'
    // byte stores could alias members).
    std::array<LftDumpEntry, 64> held;
    std::size_t n_held = 0, line = line_;
    auto hand_over = [&] {
        if (n_held) sink_.on_entries({held.data(), n_held});
        n_held = 0;
    };
    const std::span<const Expected> expected(expected_);
    const char *const expected_text = expected_text_.data();
    Lid next = next_lid_;
    std::size_t pos = 0;
    while (pos < size) {
        // The line expected next is tried first, then any entry in OpenSM's shape, whose newline
        // is looked for only in the comment after what it read.
        LftDumpEntry &e = held[n_held];
        bool fast = false;
        std::size_t end;
        ++line;
        if (const std::size_t n =
                in_switch_ ? expected_entry(expected, expected_text, next, base + pos, size - pos, e) : 0) {
            fast = true;  // and no NUL: the expected line has none
            end = pos + n - 1;
        } else {
            const std::size_t read = in_switch_ ? fast_entry(base + pos, size - pos, e) : 0;
            fast = read != 0;
            end = line_end(base, pos + read, size);
            if (const void *nul = std::memchr(base + pos, '\0', end - pos)) {
                hand_over();  // the lines before this one
                line_ = line;
                throw ParseError(name_, line,
                                 static_cast<std::size_t>(static_cast<const char *>(nul) - (base + pos)) + 1,
                                 "text", "a NUL byte");
            }
        }
        if (fast) {
            e.line = line;
            next = e.lid + 1;
            if (++n_held == held.size()) hand_over();
        } else {
            hand_over();
            line_ = line;
            next_lid_ = next;
            parse_line({base + pos, end - pos});
            next = next_lid_;
        }
        pos = end + 1;
    }
    hand_over();
    line_ = line;
    next_lid_ = next;
}

void LftDumpParser::expect_lines_of(const Fabric &f) {
    // 4 LID digits, as OpenSM writes LIDs below 0x10000 (expected_entry's port is at bytes 7-9).
    const Lid max = std::min<Lid>(f.max_lid(), 0xFFFF);
    expected_.assign(std::size_t{max} + 1, Expected{});
    // First the lines' lengths and GUIDs (len 0: none expected), then their text, back to back.
    std::size_t total = 0;
    for (Lid l = 1; l <= max; ++l) {
        const auto o = f.lid_owner(l);
        if (!o) continue;
        const Node &n = f.node(o->node);
        // A description with a newline or a NUL in it cannot be the end of one line.
        if (std::any_of(n.desc.begin(), n.desc.end(), [](char c) { return c == '\n' || c == '\0'; }))
            continue;
        const std::size_t len = entry_line_size(l, n);
        expected_[l] = {0, static_cast<std::uint32_t>(len), named_guid(f, *o)};
        total += len;
    }
    if (total > UINT32_MAX) {  // no lines expected: every line is read as without this
        expected_.assign(expected_.size(), Expected{});
        total = 0;
    }
    expected_text_.resize(total);
    char *const text = expected_text_.data();
    char *out = text;
    for (Lid l = 1; l <= max && total; ++l) {
        Expected &x = expected_[l];
        if (x.len == 0) continue;
        x.at = static_cast<std::uint32_t>(out - text);
        out = put_entry_line(out, l, 0, f.node(f.lid_owner(l)->node), x.guid);
    }
}

void LftDumpParser::parse_line(std::string_view raw) {
    Line ln(name_, raw, line_);
    ln.skip_space();
    if (ln.at_end() || ln.peek() == '#') return;
    if (ln.accept("Multicast mlids")) ln.fail(0, "a unicast LFT dump (this is a multicast dump)");
    if (ln.accept("Unicast lids")) {
        LftDumpSwitch sw;
        sw.line = line_;
        parse_header(ln, sw);
        in_switch_ = true;
        in_vlids_ = false;
        switch_guid_ = sw.guid;
        next_lid_ = 1;
        sink_.on_switch(sw);
        return;
    }
    if (ln.accept(kVlidHeader)) {
        // The vLIDs of the switch whose pLIDs come just before.
        if (!in_switch_)
            ln.fail(0, "a 'Unicast lids ... of switch' header before its 'Virtual lids' section");
        LftDumpSwitch sw;
        parse_header(ln, sw);
        if (sw.guid != switch_guid_)
            ln.fail(0,
                    "the 'Virtual lids' section of switch " + guid_text(switch_guid_) +
                        " (the 'Unicast lids' header before it)",
                    guid_text(sw.guid));
        in_vlids_ = true;
        next_lid_ = kFirstVlid;
        return;
    }
    const bool vlid = ln.accept(kVlidPrefix);
    if (vlid || ln.rest().substr(0, 2) == "0x") {
        if (!in_switch_) ln.fail_here("a 'Unicast lids ... of switch' header before LID entries");
        if (vlid && !in_vlids_) ln.fail(0, "a 'Virtual lids ... of switch' header before vLID entries");
        LftDumpEntry e;
        e.line = line_;
        const std::size_t at = ln.pos();
        parse_entry(ln, e);
        if (vlid && e.lid < kFirstVlid) ln.fail(at, "a vLID (0x10000-0x3ffff)");
        next_lid_ = e.lid + 1;
        sink_.on_entries({&e, 1});
        return;
    }
    if (ln.peek() >= '0' && ln.peek() <= '9') {  // "N lids dumped" / "N lids in use" / "N vlids dumped"
        ln.number_in(10, ~std::uint64_t{0}, "a LID count");
        ln.skip_space();
        if (ln.accept("lids") || ln.accept("vlids")) return;
    }
    ln.fail(ln.pos(),
            "a 'Unicast lids' or 'Virtual lids' header, a '0x<LID> <port>' or 'vlid 0x<vLID> <port>' entry "
            "or an 'N lids dumped' trailer");
}

LftDump read_lft_dump(std::string_view text, const std::string &name, const Fabric *expected) {
    LftDump d;
    DumpBuilder builder(d);
    LftDumpParser parser(name, builder);
    if (expected) parser.expect_lines_of(*expected);
    parser.parse(text);
    return d;
}

std::string write_lft_dump(const Fabric &f, const RoutingTables &t) {
    std::vector<SwitchIdx> order(f.switch_count());
    std::iota(order.begin(), order.end(), SwitchIdx{0});
    std::sort(order.begin(), order.end(), [&](SwitchIdx a, SwitchIdx b) {
        return f.node(f.switch_node(a)).guid < f.node(f.switch_node(b)).guid;
    });
    // pLIDs in OpenSM's section; vLIDs, when the fabric has any, in a section of their own that
    // OpenSM's reader skips (its lines start with neither "Unicast lids" nor "0x").
    const Lid max_lid = f.max_lid();
    const Lid max_plid = max_lid < kFirstVlid ? max_lid : routing::max_plid(f);
    std::string out;
    char buf[128];
    auto put_line = [&](Lid l, PortNum p) {
        const auto o = f.lid_owner(l);
        const std::size_t at = out.size();
        if (o) {
            const Node &owner = f.node(o->node);
            out.resize(at + entry_line_size(l, owner));
            put_entry_line(out.data() + at, l, p, owner, named_guid(f, *o));
        } else {
            out.resize(at + entry_head_size(l) + kUnknownText.size());
            put(put_entry_head(out.data() + at, l, p), kUnknownText);
        }
    };
    for (SwitchIdx s : order) {
        const NodeIdx n = f.switch_node(s);
        const Node &sw = f.node(n);
        std::snprintf(buf, sizeof buf, "Unicast lids [0-%u] of switch Lid %u guid 0x%016" PRIx64 " ('",
                      max_plid, f.port(n, 0).lid, sw.guid);
        out += buf;
        out += sw.desc;
        out += "'):\n";
        const auto &lft = t.lft[s];
        for (Lid l = 0; l <= max_plid && l < lft.size(); ++l) {
            const PortNum p = lft[l];
            if (p > sw.num_ports) continue;  // OpenSM skips entries past the port count (no path)
            put_line(l, p);
        }
        std::snprintf(buf, sizeof buf, "%u lids dumped\n", max_plid);
        out += buf;
        if (max_lid < kFirstVlid) continue;
        std::snprintf(buf, sizeof buf, "%.*s [0x%x-0x%x] of switch Lid %u guid 0x%016" PRIx64 " ('",
                      static_cast<int>(kVlidHeader.size()), kVlidHeader.data(), kFirstVlid, max_lid,
                      f.port(n, 0).lid, sw.guid);
        out += buf;
        out += sw.desc;
        out += "'):\n";
        for (Lid l = kFirstVlid; l <= max_lid && l < lft.size(); ++l) {
            const PortNum p = lft[l];
            if (p > sw.num_ports) continue;
            out += kVlidPrefix;
            put_line(l, p);
        }
        std::snprintf(buf, sizeof buf, "%u vlids dumped\n", max_lid - kFirstVlid + 1);
        out += buf;
    }
    return out;
}

LftApplyReport apply_lft_dump(const LftDump &d, const Fabric &f, RoutingTables &t) {
    LftApplier apply(f, t);
    for (const LftDumpSwitch &sw : d.switches) {
        apply.on_switch(sw);
        apply.on_entries(sw.entries);
    }
    return apply.report();
}

LftApplyReport load_lft_dump(const std::string &path, const Fabric &f, RoutingTables &t) {
    struct Fd {
        int fd;
        ~Fd() {
            if (fd >= 0) ::close(fd);
        }
    } in{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (in.fd < 0) throw std::runtime_error("cannot open LFT dump '" + path + "': " + std::strerror(errno));
    LftApplier apply(f, t);
    LftDumpParser parser(path, apply);
    parser.expect_lines_of(f);
    // Streamed in chunks of whole lines through one small buffer, entries applied as they are
    // parsed: a large fabric's dump is gigabytes, and a copy of it would be as much memory again.
    // A line longer than the buffer grows it, up to a limit (OpenSM's lines are short).
    constexpr std::size_t kMaxLine = std::size_t{64} << 10;
    std::vector<char> buf(std::size_t{32} << 10);
    std::size_t have = 0;
    for (;;) {
        const ssize_t got = ::read(in.fd, buf.data() + have, buf.size() - have);
        if (got < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error("cannot read LFT dump '" + path + "': " + std::strerror(errno));
        }
        if (got == 0) {
            parser.parse({buf.data(), have});  // the end: a last line without its newline
            return apply.report();
        }
        have += static_cast<std::size_t>(got);
        const std::size_t nl = std::string_view(buf.data(), have).rfind('\n');
        // Only the buffer's first line can be longer than a chunk.
        const std::size_t first_nl = std::string_view(buf.data(), have).find('\n');
        if ((nl == std::string_view::npos ? have : first_nl) > kMaxLine)
            throw ParseError(path, parser.lines_parsed() + 1, 1, "a line of at most 64 KiB", "a longer line");
        if (nl == std::string_view::npos) {
            if (have == buf.size()) buf.resize(2 * buf.size());
            continue;
        }
        const std::size_t whole = nl + 1;
        parser.parse({buf.data(), whole});
        std::memmove(buf.data(), buf.data() + whole, have - whole);
        have -= whole;
    }
}

}  // namespace weft::routing
