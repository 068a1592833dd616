#include "grammar.hpp"

#include <cstdint>
#include <cstring>
#include <string_view>

#include "cli_internal.hpp"

namespace weft::control::cli {

namespace {

GrammarToken &as_grammar_token(cmdline_parse_token_hdr_t *tk) {
    return *reinterpret_cast<GrammarToken *>(tk);
}

int token_parse(cmdline_parse_token_hdr_t *tk, const char *buf, void *res, unsigned size) {
    GrammarToken &t = as_grammar_token(tk);
    return t.grammar->parse(t, buf, res, size);
}

int token_count(cmdline_parse_token_hdr_t *tk) {
    GrammarToken &t = as_grammar_token(tk);
    if (t.inner != nullptr)
        return t.inner->ops->complete_get_nb != nullptr ? t.inner->ops->complete_get_nb(t.inner) : 0;
    return static_cast<int>(t.grammar->choices(t.section).size());
}

int token_choice(cmdline_parse_token_hdr_t *tk, int i, char *dst, unsigned size) {
    GrammarToken &t = as_grammar_token(tk);
    if (t.inner != nullptr)
        return t.inner->ops->complete_get_elt != nullptr
                   ? t.inner->ops->complete_get_elt(t.inner, i, dst, size)
                   : -1;
    const auto c = t.grammar->choices(t.section);
    if (i < 0 || static_cast<std::size_t>(i) >= c.size() || c[i].size() + 1 > size) return -1;
    std::memcpy(dst, c[i].c_str(), c[i].size() + 1);
    return 0;
}

int token_help(cmdline_parse_token_hdr_t *tk, char *dst, unsigned size) {
    if (size == 0) return -1;
    const std::string h = as_grammar_token(tk).grammar->help(as_grammar_token(tk));
    const std::size_t n = std::min<std::size_t>(h.size(), size - 1);
    std::memcpy(dst, h.data(), n);
    dst[n] = '\0';
    return 0;
}

cmdline_token_ops grammar_ops = {token_parse, token_count, token_choice, token_help};

std::size_t word_length(const char *buf) {
    std::size_t n = 0;
    while (!cmdline_isendoftoken(buf[n])) ++n;
    return n;
}

}  // namespace

bool is_grammar_token(const cmdline_parse_token_hdr_t *tk) {
    return tk->ops == &grammar_ops;
}

Grammar::Grammar(const char *help, std::vector<cmdline_parse_token_hdr_t *> head,
                 std::vector<GrammarSection> sections, void (*run)(void *, struct cmdline *, void *),
                 void (*dispatch)(void *, struct cmdline *, void *))
    : inst_{dispatch, nullptr, help, {nullptr, nullptr}}, run_(run), sections_(std::move(sections)) {
    for (cmdline_parse_token_hdr_t *t : head) head_.push_back({{&grammar_ops, t->offset}, this, t, -1, 0});
    unsigned next = 0;
    for (unsigned s = 0; s < sections_.size(); ++s) {
        first_item_.push_back(next);
        choice_.push_back({{&grammar_ops, 0}, this, nullptr, -1, s});
        for (const GrammarItem &item : sections_[s].items) {
            // A flag keyword has no value token; its slot is never handed out.
            values_.push_back({{&grammar_ops, item.value != nullptr ? item.value->offset : 0},
                               this,
                               item.value,
                               static_cast<int>(next),
                               s});
            ++next;
        }
    }
    if (next > 64) throw std::logic_error("a grammar has at most 64 keywords");
}

void Grammar::on_callback(void *a, struct cmdline *cl, void *b) {
    if (cl != nullptr) return run_(a, cl, b);
    // cmdline asks for token `index`: `a` receives it, `b` is &tokens[index] of our instance.
    const auto index = static_cast<unsigned>(
        (reinterpret_cast<std::uintptr_t>(b) - reinterpret_cast<std::uintptr_t>(&inst_.tokens[0])) /
        sizeof(cmdline_parse_token_hdr_t *));
    *static_cast<cmdline_parse_token_hdr_t **>(a) = token(index);
}

cmdline_parse_token_hdr_t *Grammar::token(unsigned index) {
    if (index == 0) state_ = State{};
    if (index < head_.size()) return &head_[index].hdr;
    if (state_.pending >= 0) return &values_[static_cast<std::size_t>(state_.pending)].hdr;
    if (state_.at_end && complete()) return nullptr;
    return &choice_[state_.section].hdr;
}

bool Grammar::section_done() const {
    const GrammarSection &s = sections_[state_.section];
    if (state_.in_section < s.min_items) return false;
    for (unsigned k = 0; k < s.items.size(); ++k)
        if (s.items[k].required && ((state_.seen >> (first_item_[state_.section] + k)) & 1) == 0)
            return false;
    return true;
}

bool Grammar::complete() const {
    if (state_.pending >= 0 || !section_done()) return false;
    for (unsigned s = state_.section + 1; s < sections_.size(); ++s) {
        if (sections_[s].min_items != 0) return false;
        for (const GrammarItem &item : sections_[s].items)
            if (item.required) return false;
    }
    return true;
}

void Grammar::note_end(const char *rest) {
    while (*rest == ' ' || *rest == '\t') ++rest;
    // The end of a line being parsed; a completion's buffer ends with a NUL instead, where
    // more keywords may follow.
    state_.at_end = *rest == '\n' || *rest == '\r' || *rest == '#';
}

int Grammar::parse(GrammarToken &t, const char *buf, void *res, unsigned size) {
    if (t.inner != nullptr) {
        const int n = t.inner->ops->parse(t.inner, buf, res, size);
        if (n < 0) return n;
        if (t.item >= 0) state_.pending = -1;
        note_end(buf + n);
        return n;
    }
    const std::size_t len = word_length(buf);
    const std::string_view word(buf, len);
    const GrammarSection &s = sections_[state_.section];
    for (unsigned k = 0; k < s.items.size(); ++k) {
        const unsigned item = first_item_[state_.section] + k;
        const std::uint64_t bit = std::uint64_t{1} << item;
        if ((state_.seen & bit) != 0 || word != s.items[k].keyword) continue;
        state_.seen |= bit;
        ++state_.in_section;
        state_.pending = s.items[k].value != nullptr ? static_cast<int>(item) : -1;
        if (res != nullptr && size >= sizeof(GrammarSeen)) {
            GrammarSeen seen;
            std::memcpy(&seen, res, sizeof seen);
            seen.bits |= bit;
            std::memcpy(res, &seen, sizeof seen);
        }
        note_end(buf + len);
        return static_cast<int>(len);
    }
    const unsigned next = state_.section + 1;
    if (next < sections_.size() && section_done() && word == sections_[next].opener) {
        state_.section = next;
        state_.in_section = 0;
        note_end(buf + len);
        return static_cast<int>(len);
    }
    return -1;
}

std::vector<std::string> Grammar::choices(unsigned section) const {
    std::vector<std::string> out;
    const GrammarSection &s = sections_[section];
    for (unsigned k = 0; k < s.items.size(); ++k)
        if (((state_.seen >> (first_item_[section] + k)) & 1) == 0) out.emplace_back(s.items[k].keyword);
    if (section == state_.section && section + 1 < sections_.size() && section_done())
        out.emplace_back(sections_[section + 1].opener);
    return out;
}

std::string Grammar::help(const GrammarToken &t) const {
    if (t.inner != nullptr) {
        const std::string what = describe_token(t.inner);
        if (t.item < 0) return what;
        unsigned s = 0;
        while (s + 1 < first_item_.size() && first_item_[s + 1] <= static_cast<unsigned>(t.item)) ++s;
        return what + " after " + sections_[s].items[static_cast<unsigned>(t.item) - first_item_[s]].keyword;
    }
    std::string out;
    for (const std::string &c : choices(t.section)) out += (out.empty() ? "" : "|") + c;
    if (t.section == state_.section && complete())
        return out.empty() ? "the end of the line" : out + " or the end";
    return out.empty() ? "nothing more" : "one of " + out;
}

}  // namespace weft::control::cli
