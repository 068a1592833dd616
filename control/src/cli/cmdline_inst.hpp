// Declaring rte_cmdline commands from C++. cmdline_parse_inst_t ends in a flexible array member,
// which C++ cannot initialise; Inst<N> has the same layout with N tokens and the terminating
// null. Each command's callback receives the CommandContext through the instance's data
// pointer, which command_set() fills in.
#pragma once

#include <cmdline_parse.h>
#include <cmdline_parse_num.h>
#include <cmdline_parse_string.h>

#include <cstddef>
#include <vector>

#include "number_token.hpp"
#include "weft/control/command_context.hpp"

namespace weft::control::cli {

template <std::size_t N>
struct Inst {
    void (*f)(void *, struct cmdline *, void *);
    void *data;
    const char *help_str;
    cmdline_parse_token_hdr_t *tokens[N + 1];
};

template <std::size_t N>
cmdline_parse_inst_t *as_inst(Inst<N> &i) {
    return reinterpret_cast<cmdline_parse_inst_t *>(&i);
}

// The context a callback was bound to.
inline CommandContext &context_of(void *data) {
    return *static_cast<CommandContext *>(data);
}

using InstList = std::vector<cmdline_parse_inst_t *>;

#define WEFT_TOK_STR(st, field, s) \
    static cmdline_parse_token_string_t st##_##field = TOKEN_STRING_INITIALIZER(st, field, s)
// Numbers: decimal or 0x hexadecimal (number_token.hpp), never DPDK's octal or binary.
#define WEFT_TOK_NUM(st, field, t) \
    static cmdline_parse_token_num_t st##_##field = {{&number_token_ops, offsetof(st, field)}, {t}}
#define WEFT_HDR(x) reinterpret_cast<cmdline_parse_token_hdr_t *>(&(x))

}  // namespace weft::control::cli
