// What the attribute codec tests share: a value that must decode, and one byte of a good
// attribute changed at a time that must be refused, naming its field.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <utility>

#include "weft/sm/smp.hpp"

namespace weft::sm::test {

template <class R>
auto must(R r) {
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
    return std::move(r).value();
}

struct ByteCase {
    std::size_t offset;
    std::uint8_t value;
    std::string_view field;
};

template <class Decode>
void expect_rejected(const SmpData &good, std::initializer_list<ByteCase> cases, Decode decode) {
    for (const ByteCase &c : cases) {
        SmpData d = good;
        d[c.offset] = c.value;
        const auto r = decode(d);
        ASSERT_FALSE(r.ok()) << c.field << " at byte " << c.offset;
        EXPECT_EQ(r.error().field, c.field) << r.error().message();
    }
    EXPECT_TRUE(decode(good).ok());
}

}  // namespace weft::sm::test
