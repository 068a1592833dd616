#include "number_token.hpp"

#include <cmdline_parse_num.h>

#include <charconv>
#include <cstring>
#include <limits>

namespace weft::control::cli {

std::optional<std::uint64_t> parse_number(std::string_view word) {
    int base = 10;
    if (word.size() > 2 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X')) {
        word.remove_prefix(2);
        base = 16;
    }
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v, base);
    if (word.empty() || ec != std::errc() || end != word.data() + word.size()) return std::nullopt;
    return v;
}

namespace {

template <typename T>
int store(std::uint64_t v, void *res, unsigned ressize) {
    if (v > std::numeric_limits<T>::max()) return -1;
    if (res == nullptr) return 0;
    if (ressize < sizeof(T)) return -1;
    const T value = static_cast<T>(v);
    std::memcpy(res, &value, sizeof value);
    return 0;
}

int parse(cmdline_parse_token_hdr_t *tk, const char *buf, void *res, unsigned ressize) {
    if (tk == nullptr || buf == nullptr || *buf == '\0') return -1;
    std::size_t len = 0;
    while (!cmdline_isendoftoken(buf[len])) ++len;
    const auto v = parse_number(std::string_view(buf, len));
    if (!v) return -1;
    int rc = -1;
    switch (reinterpret_cast<const cmdline_parse_token_num_t *>(tk)->num_data.type) {
        case RTE_UINT8:
            rc = store<std::uint8_t>(*v, res, ressize);
            break;
        case RTE_UINT16:
            rc = store<std::uint16_t>(*v, res, ressize);
            break;
        case RTE_UINT32:
            rc = store<std::uint32_t>(*v, res, ressize);
            break;
        case RTE_UINT64:
            rc = store<std::uint64_t>(*v, res, ressize);
            break;
        default:  // signed types: weft's commands take none
            break;
    }
    return rc < 0 ? -1 : static_cast<int>(len);
}

}  // namespace

cmdline_token_ops number_token_ops = {parse, nullptr, nullptr, cmdline_get_help_num};

}  // namespace weft::control::cli
