// Numbers as weft reads them everywhere: decimal, or hexadecimal with an explicit 0x. DPDK's
// number token reads a leading 0 as octal and 0b as binary, so `nhg add 010` made group 8;
// weft's token reads 010 as ten and takes no other base.
#pragma once

#include <cmdline_parse.h>

#include <cstdint>
#include <optional>
#include <string_view>

namespace weft::control::cli {

// "10", "010" (ten), "0x1f"; nothing for signs, other bases, blanks or junk.
std::optional<std::uint64_t> parse_number(std::string_view word);

// The operations of a number token (a cmdline_parse_token_num_t): the word is read with
// parse_number and must fit the token's unsigned type; completion and help as DPDK's.
extern cmdline_token_ops number_token_ops;

}  // namespace weft::control::cli
