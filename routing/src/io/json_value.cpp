#include "json_value.hpp"

#include <utility>

#include "text_lines.hpp"

namespace weft::routing::io {
namespace {

constexpr unsigned kMaxDepth = 64;

class JsonParser {
  public:
    JsonParser(std::string_view t, const std::string &n) : t_(t), name_(n) {}

    JsonValue document() {
        space();
        JsonValue v = value(0);
        space();
        if (i_ < t_.size()) fail("end of input after the JSON value");
        return v;
    }

  private:
    [[noreturn]] void fail(const std::string &expected) {
        std::string found = i_ >= t_.size() ? "end of input" : printable(t_.substr(i_, 12));
        throw ParseError(name_, line_, i_ - line_start_ + 1, expected, found);
    }
    void space() {
        while (i_ < t_.size()) {
            const char c = t_[i_];
            if (c == '\n') {
                ++line_;
                line_start_ = i_ + 1;
            } else if (c != ' ' && c != '\t' && c != '\r') {
                break;
            }
            ++i_;
        }
    }
    JsonValue value(unsigned depth) {
        if (depth > kMaxDepth) fail("JSON nested at most " + std::to_string(kMaxDepth) + " deep");
        JsonValue v;
        v.line = line_;
        v.column = i_ - line_start_ + 1;
        if (i_ >= t_.size()) fail("a JSON value");
        const char c = t_[i_];
        if (c == '{') {
            v.kind = JsonValue::Kind::Object;
            ++i_;
            space();
            if (i_ < t_.size() && t_[i_] == '}') {
                ++i_;
                return v;
            }
            while (true) {
                space();
                if (i_ >= t_.size() || t_[i_] != '"') fail("a member name in quotes");
                std::string key = string();
                space();
                if (i_ >= t_.size() || t_[i_] != ':') fail("':' after the member name");
                ++i_;
                space();
                v.members.push_back({std::move(key), value(depth + 1)});
                space();
                if (i_ < t_.size() && t_[i_] == ',') {
                    ++i_;
                    continue;
                }
                if (i_ < t_.size() && t_[i_] == '}') {
                    ++i_;
                    return v;
                }
                fail("',' or '}' in an object");
            }
        }
        if (c == '[') {
            v.kind = JsonValue::Kind::Array;
            ++i_;
            space();
            if (i_ < t_.size() && t_[i_] == ']') {
                ++i_;
                return v;
            }
            while (true) {
                space();
                v.items.push_back(value(depth + 1));
                space();
                if (i_ < t_.size() && t_[i_] == ',') {
                    ++i_;
                    continue;
                }
                if (i_ < t_.size() && t_[i_] == ']') {
                    ++i_;
                    return v;
                }
                fail("',' or ']' in an array");
            }
        }
        if (c == '"') {
            v.kind = JsonValue::Kind::String;
            v.text = string();
            return v;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            v.kind = JsonValue::Kind::Number;
            const std::size_t s = i_;
            if (t_[i_] == '-') ++i_;
            auto digits = [&] {
                const std::size_t d = i_;
                while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
                if (i_ == d) fail("a digit");
            };
            digits();
            if (i_ < t_.size() && t_[i_] == '.') {
                ++i_;
                digits();
            }
            if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
                ++i_;
                if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
                digits();
            }
            v.text = std::string(t_.substr(s, i_ - s));
            return v;
        }
        for (auto [word, kind, b] : {std::tuple{"true", JsonValue::Kind::Bool, true},
                                     std::tuple{"false", JsonValue::Kind::Bool, false},
                                     std::tuple{"null", JsonValue::Kind::Null, false}}) {
            const std::string_view w = word;
            if (t_.substr(i_, w.size()) == w) {
                i_ += w.size();
                v.kind = kind;
                v.boolean = b;
                return v;
            }
        }
        fail("a JSON value (object, array, string, number, true, false, null)");
    }
    std::string string() {
        ++i_;  // opening quote
        std::string out;
        while (true) {
            if (i_ >= t_.size()) fail("a closing '\"'");
            const char c = t_[i_++];
            if (c == '"') return out;
            if (static_cast<unsigned char>(c) < 0x20) {
                --i_;
                fail("no control characters inside a string");
            }
            if (c != '\\') {
                out += c;
                continue;
            }
            if (i_ >= t_.size()) fail("an escape character");
            const char e = t_[i_++];
            switch (e) {
                case '"':
                    out += '"';
                    break;
                case '\\':
                    out += '\\';
                    break;
                case '/':
                    out += '/';
                    break;
                case 'b':
                    out += '\b';
                    break;
                case 'f':
                    out += '\f';
                    break;
                case 'n':
                    out += '\n';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'u': {
                    unsigned cp = 0;
                    for (int k = 0; k < 4; ++k) {
                        if (i_ >= t_.size()) fail("four hex digits after \\u");
                        const char h = t_[i_++];
                        cp <<= 4;
                        if (h >= '0' && h <= '9')
                            cp |= static_cast<unsigned>(h - '0');
                        else if (h >= 'a' && h <= 'f')
                            cp |= static_cast<unsigned>(h - 'a' + 10);
                        else if (h >= 'A' && h <= 'F')
                            cp |= static_cast<unsigned>(h - 'A' + 10);
                        else {
                            --i_;
                            fail("four hex digits after \\u");
                        }
                    }
                    // UTF-8 encode (surrogates are kept as-is; descriptions are ASCII in practice).
                    if (cp < 0x80) {
                        out += static_cast<char>(cp);
                    } else if (cp < 0x800) {
                        out += static_cast<char>(0xC0 | (cp >> 6));
                        out += static_cast<char>(0x80 | (cp & 0x3F));
                    } else {
                        out += static_cast<char>(0xE0 | (cp >> 12));
                        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
                        out += static_cast<char>(0x80 | (cp & 0x3F));
                    }
                    break;
                }
                default:
                    --i_;
                    fail("a JSON escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
            }
        }
    }

    std::string_view t_;
    const std::string &name_;
    std::size_t i_ = 0, line_ = 1, line_start_ = 0;
};

}  // namespace

JsonValue parse_json(std::string_view text, const std::string &name) {
    return JsonParser(text, name).document();
}

}  // namespace weft::routing::io
