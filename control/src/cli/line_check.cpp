// Lines against the command table, the way cmdline matches them, to say what is wrong with a
// refused line and where, to find a command's usage, and for `help <command>`. The table ends
// with a catch-all instance that takes exactly the lines no other instance takes, so a refused
// line gets the same answer at a terminal (cmdline's own editor) as in a batch.
#include <cmdline.h>
#include <cmdline_parse_etheraddr.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>

#include "cli_internal.hpp"
#include "grammar.hpp"

namespace weft::control::cli {

namespace {

struct Match {
    unsigned tokens = 0;                              // tokens matched
    bool full = false;                                // every token matched and nothing is left
    bool line_ended = false;                          // the line ended before the command did
    std::size_t at = 0;                               // offset of the first word not taken
    const cmdline_parse_token_hdr_t *next = nullptr;  // the token that refused it, or that was missing
};

bool line_end(char c) {
    return c == '\n' || c == '\r' || c == '#' || c == '\0';
}

// cmdline's get_token: a static token, or one a dynamic instance (a Grammar) makes.
cmdline_parse_token_hdr_t *token_of(cmdline_parse_inst_t *inst, unsigned i) {
    if (inst->tokens[0] != nullptr || inst->f == nullptr) return inst->tokens[i];
    cmdline_parse_token_hdr_t *t = nullptr;
    inst->f(&t, nullptr, &inst->tokens[i]);
    return t;
}

// cmdline's match_inst, telling how far the line went. `buf` ends with a newline.
Match match(cmdline_parse_inst_t *inst, const char *buf) {
    alignas(long double) static char res[CMDLINE_PARSE_RESULT_BUFSIZE];
    std::memset(res, 0, sizeof res);
    Match m;
    const char *p = buf;
    for (unsigned i = 0;; ++i) {
        cmdline_parse_token_hdr_t *t = token_of(inst, i);
        while (*p == ' ' || *p == '\t') ++p;
        m.at = static_cast<std::size_t>(p - buf);
        m.tokens = i;
        if (t == nullptr) {
            m.full = line_end(*p);
            m.next = nullptr;  // what is left is too much
            return m;
        }
        m.next = t;
        if (line_end(*p)) {
            m.line_ended = true;
            return m;
        }
        if (t->offset >= sizeof res) return m;
        const int n = t->ops->parse(t, p, res + t->offset, static_cast<unsigned>(sizeof res - t->offset));
        if (n < 0) return m;
        p += n;
    }
}

cmdline_parse_inst_t *g_catch_all = nullptr;
std::string g_last_line;  // the line cmdline parses now (the catch-all sees every line)

template <typename Fn>
void for_each_command(Fn fn) {
    for (cmdline_parse_inst_t *inst : command_table())
        if (inst != nullptr && inst != g_catch_all) fn(inst);
}

// Shown in messages: control characters (escape sequences) as '?', long words cut.
std::string shown(std::string_view s) {
    std::string out;
    for (const char c : s.substr(0, 60)) out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c;
    return "\"" + out + (s.size() > 60 ? "...\"" : "\"");
}

std::string word_at(const std::string &buf, std::size_t at) {
    std::size_t end = at;
    while (end < buf.size() && !cmdline_isendoftoken(buf[end])) ++end;
    return buf.substr(at, end - at);
}

// How many words start before offset `at`.
unsigned words_before(const std::string &buf, std::size_t at) {
    unsigned n = 0;
    bool in_word = false;
    for (std::size_t i = 0; i < at && i < buf.size(); ++i) {
        const bool blank = buf[i] == ' ' || buf[i] == '\t';
        if (!blank && !in_word) ++n;
        in_word = !blank;
    }
    return n;
}

std::string usage_lines(const std::vector<cmdline_parse_inst_t *> &insts) {
    std::set<std::string> done;
    std::string out;
    for (cmdline_parse_inst_t *inst : insts) {
        if (inst->help_str == nullptr || !done.insert(inst->help_str).second) continue;
        out += (out.empty() ? "usage: " : "       ") + std::string(inst->help_str) + "\n";
    }
    return out;
}

// The first words of every command, for a line whose first word is none of them.
std::string command_words() {
    std::set<std::string> words;
    for_each_command([&](cmdline_parse_inst_t *inst) {
        const cmdline_parse_token_hdr_t *t = token_of(inst, 0);
        if (t == nullptr) return;
        const cmdline_parse_token_hdr_t *inner =
            is_grammar_token(t) ? reinterpret_cast<const GrammarToken *>(t)->inner : t;
        if (inner == nullptr || inner->ops != &cmdline_token_string_ops) return;
        const char *s = reinterpret_cast<const cmdline_parse_token_string_t *>(inner)->string_data.str;
        for (std::string w; s != nullptr && *s != '\0'; ++s) {
            if (*s != '#') w += *s;
            if (*s == '#' || s[1] == '\0') {
                words.insert(w);
                w.clear();
            }
        }
    });
    std::string out;
    for (const std::string &w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

// --- the catch-all: any line no command takes ---
int unmatched_parse(cmdline_parse_token_hdr_t *, const char *buf, void *res, unsigned) {
    // Completion and `?` pass no result buffer: the catch-all is never offered there.
    if (res == nullptr) return -1;
    std::size_t n = 0;
    while (buf[n] != '\0' && buf[n] != '\n' && buf[n] != '\r') ++n;
    g_last_line.assign(buf, n);
    const std::string line = g_last_line + "\n";
    bool taken = false;
    for_each_command([&](cmdline_parse_inst_t *inst) { taken = taken || match(inst, line.c_str()).full; });
    return taken ? -1 : static_cast<int>(n);
}
int unmatched_help(cmdline_parse_token_hdr_t *, char *dst, unsigned size) {
    snprintf(dst, size, "any other line");
    return 0;
}
cmdline_token_ops unmatched_ops = {unmatched_parse, nullptr, nullptr, unmatched_help};
cmdline_token_hdr unmatched_token = {&unmatched_ops, 0};

void unmatched_cmd(void *, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    ++ctx.errors;
    const std::string why = explain_refused(g_last_line);
    if (ctx.batch_refusal != nullptr) {
        *ctx.batch_refusal = why.substr(std::string_view("error: ").size(), why.find('\n') - 7);
        return;
    }
    cmdline_printf(cl, "%s", why.c_str());
}
Inst<1> inst_unmatched{unmatched_cmd, nullptr, nullptr, {&unmatched_token, nullptr}};

}  // namespace

std::string describe_token(const cmdline_parse_token_hdr_t *t) {
    if (t->ops == &cmdline_token_string_ops) {
        const char *s = reinterpret_cast<const cmdline_parse_token_string_t *>(t)->string_data.str;
        if (s == nullptr) return "a word";
        if (*s == '\0') return "more words";
        std::string choices(s);
        std::replace(choices.begin(), choices.end(), '#', '|');
        return choices.find('|') != std::string::npos ? "one of " + choices : "\"" + choices + "\"";
    }
    if (t->ops == &cmdline_token_num_ops || t->ops == &number_token_ops) {
        switch (reinterpret_cast<const cmdline_parse_token_num_t *>(t)->num_data.type) {
            case RTE_UINT8:
                return "a number 0..255";
            case RTE_UINT16:
                return "a number 0..65535";
            case RTE_UINT32:
                return "a number 0..4294967295";
            case RTE_UINT64:
                return "a number 0..18446744073709551615";
            default:
                return "a number";
        }
    }
    if (t->ops == &cmdline_token_etheraddr_ops) return "a MAC address (02:00:00:00:00:01)";
    char buf[256] = "";
    if (t->ops->get_help != nullptr)
        t->ops->get_help(const_cast<cmdline_parse_token_hdr_t *>(t), buf, sizeof buf);
    return buf;
}

cmdline_parse_inst_t *catch_all_command() {
    g_catch_all = as_inst(inst_unmatched);
    return g_catch_all;
}

std::string explain_refused(const std::string &line) {
    const std::string buf = line + "\n";
    unsigned best = 0;
    std::vector<std::pair<cmdline_parse_inst_t *, Match>> at_best;
    unsigned full = 0;
    for_each_command([&](cmdline_parse_inst_t *inst) {
        const Match m = match(inst, buf.c_str());
        full += m.full ? 1 : 0;
        if (m.tokens < best) return;
        if (m.tokens > best) at_best.clear();
        best = m.tokens;
        at_best.push_back({inst, m});
    });
    if (full > 1) return "error: ambiguous command: " + std::to_string(full) + " commands take it\n";
    const auto first = std::min(buf.find_first_not_of(" \t"), buf.size());
    if (best == 0)
        return "error: unknown command " + shown(word_at(buf, first)) + " (commands: " + command_words() +
               "; help <command> tells more)\n";
    // What the commands that went furthest expected where they stopped: their keywords as one
    // list, then anything else.
    std::vector<std::string> keywords;
    std::set<std::string> others;
    bool ended = false;
    std::size_t at = 0;
    std::vector<cmdline_parse_inst_t *> insts;
    for (const auto &[inst, m] : at_best) {
        insts.push_back(inst);
        at = m.at;
        ended = ended || m.line_ended;
        const char *choices =
            m.next != nullptr && m.next->ops == &cmdline_token_string_ops
                ? reinterpret_cast<const cmdline_parse_token_string_t *>(m.next)->string_data.str
                : nullptr;
        if (choices == nullptr || *choices == '\0') {
            others.insert(m.next != nullptr ? describe_token(m.next) : "the end of the line");
            continue;
        }
        std::string w;
        for (const char *c = choices;; ++c) {
            if (*c != '#' && *c != '\0') {
                w += *c;
                continue;
            }
            if (std::find(keywords.begin(), keywords.end(), w) == keywords.end()) keywords.push_back(w);
            w.clear();
            if (*c == '\0') break;
        }
    }
    std::string what;
    for (const std::string &k : keywords) what += (what.empty() ? "" : "|") + k;
    if (keywords.size() == 1) what = "\"" + what + "\"";
    if (keywords.size() > 1) what = "one of " + what;
    for (const std::string &e : others) what += (what.empty() ? "" : " or ") + e;
    const unsigned before = words_before(buf, at);
    const std::string why =
        ended ? "incomplete command: expected " + what + " after word " + std::to_string(before)
              : "word " + std::to_string(before + 1) + " " + shown(word_at(buf, at)) + ": expected " + what;
    // A line that stopped early (`show bogus`) is close to many commands: name how to list them.
    if (insts.size() > 4) {
        const std::string words = buf.substr(first, at - first);
        const std::string head = words.substr(0, words.find_last_not_of(" \t") + 1);
        return "error: " + why + "\nusage: " + std::to_string(insts.size()) + " commands start with \"" +
               one_line(head) + "\": help " + one_line(head) + " lists them\n";
    }
    return "error: " + why + "\n" + usage_lines(insts);
}

std::string usage_of(const std::string &line) {
    const std::string buf = line + "\n";
    std::vector<cmdline_parse_inst_t *> insts;
    for_each_command([&](cmdline_parse_inst_t *inst) {
        if (match(inst, buf.c_str()).full) insts.push_back(inst);
    });
    return usage_lines(insts);
}

const std::string &current_line() {
    return g_last_line;
}

std::string help_for(const std::string &words) {
    const std::string buf = words + "\n";
    std::vector<cmdline_parse_inst_t *> insts;
    for_each_command([&](cmdline_parse_inst_t *inst) {
        const Match m = match(inst, buf.c_str());
        if (m.full || m.line_ended) insts.push_back(inst);
    });
    return usage_lines(insts);
}

}  // namespace weft::control::cli
