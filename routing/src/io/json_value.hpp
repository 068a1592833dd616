// Private: a small JSON reader with positions, for the topology JSON schema. Strict RFC 8259
// (no comments, no trailing commas); depth-limited so hostile input cannot exhaust the stack.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "weft/routing/parse_error.hpp"

namespace weft::routing::io {

struct JsonMember;

struct JsonValue {
    enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
    bool boolean = false;
    std::string text;  // string contents, or the number's literal
    std::vector<JsonValue> items;
    // A vector of a type declared but not yet defined, which the standard allows; a
    // std::pair<std::string, JsonValue> here would need JsonValue complete (clang rejects it).
    std::vector<JsonMember> members;
    std::size_t line = 0, column = 0;

    const JsonValue *find(std::string_view key) const;
};

struct JsonMember {
    std::string key;
    JsonValue value;
};

inline const JsonValue *JsonValue::find(std::string_view key) const {
    for (const JsonMember &m : members)
        if (m.key == key) return &m.value;
    return nullptr;
}

JsonValue parse_json(std::string_view text, const std::string &name);

}  // namespace weft::routing::io
