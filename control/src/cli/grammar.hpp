// Commands whose words after a fixed head are keywords in any order, each at most once, some
// with a value (`nhg add 1 ars 1 primary 1,2 cost 1 threshold 4`, `acl add 10 proto 17 action
// disable-ars`). A plain cmdline instance has one fixed token list; a Grammar is a cmdline
// instance with dynamic tokens (as testpmd's flow commands are): cmdline asks for token i after
// parsing tokens 0..i-1, and the grammar answers from what they were: the value of the keyword
// just read, the keywords still allowed, or nothing where the line may end. So completion, the
// `?` help and the error messages know the keywords as they do any other token.
#pragma once

#include <cmdline_parse.h>

#include <cstdint>
#include <string>
#include <vector>

namespace weft::control::cli {

class Grammar;

// A token of a grammar: a DPDK token (string, number, MAC) that also tells the grammar where it
// ended, or the choice of the keywords allowed at that point.
struct GrammarToken {
    cmdline_token_hdr hdr;
    Grammar *grammar = nullptr;
    cmdline_parse_token_hdr_t *inner = nullptr;  // the DPDK token read (null: a keyword choice)
    int item = -1;                               // the keyword whose value this is (-1: head word)
    unsigned section = 0;                        // a keyword choice: its section
};

struct GrammarItem {
    const char *keyword;
    cmdline_parse_token_hdr_t *value = nullptr;  // null: a keyword alone (a flag)
    bool required = false;
};

// Keywords that may come in any order; the section after the first opens with its keyword
// (`action`) once the current one is complete.
struct GrammarSection {
    const char *opener = nullptr;
    std::vector<GrammarItem> items;
    unsigned min_items = 0;  // at least this many of its keywords (ACL: one action)
};

// Result structures of grammar commands start with this: bit k is set when item k (counted
// across sections) was given.
struct GrammarSeen {
    std::uint64_t bits;
    bool has(unsigned item) const { return ((bits >> item) & 1) != 0; }
};

class Grammar {
  public:
    // `run(result, cl, data)` is called for a complete line, as a plain instance's callback;
    // `dispatch` is the function the instance calls (cmdline asks it for tokens too), defined by
    // the user of the grammar as a one-line forward to on_callback.
    Grammar(const char *help, std::vector<cmdline_parse_token_hdr_t *> head,
            std::vector<GrammarSection> sections, void (*run)(void *, struct cmdline *, void *),
            void (*dispatch)(void *, struct cmdline *, void *));
    Grammar(const Grammar &) = delete;
    Grammar &operator=(const Grammar &) = delete;

    cmdline_parse_inst_t *inst() { return reinterpret_cast<cmdline_parse_inst_t *>(&inst_); }
    void on_callback(void *a, struct cmdline *cl, void *b);

    // The token ops' view (they are free functions cmdline calls).
    int parse(GrammarToken &t, const char *buf, void *res, unsigned size);
    std::vector<std::string> choices(unsigned section) const;
    std::string help(const GrammarToken &t) const;

  private:
    struct State {
        unsigned section = 0;
        unsigned in_section = 0;  // keywords given in the current section
        std::uint64_t seen = 0;
        int pending = -1;  // item whose value comes next
        bool at_end = false;
    };
    cmdline_parse_token_hdr_t *token(unsigned index);
    bool complete() const;
    bool section_done() const;
    void note_end(const char *rest);

    struct Inst {
        void (*f)(void *, struct cmdline *, void *);
        void *data;
        const char *help_str;
        cmdline_parse_token_hdr_t *tokens[2];  // {null, null}: the tokens are dynamic
    } inst_;
    void (*run_)(void *, struct cmdline *, void *);
    std::vector<GrammarToken> head_;
    std::vector<GrammarSection> sections_;
    std::vector<unsigned> first_item_;  // global index of each section's first item
    std::vector<GrammarToken> values_;  // by global item index
    std::vector<GrammarToken> choice_;  // by section
    State state_;
};

}  // namespace weft::control::cli
