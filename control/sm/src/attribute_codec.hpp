// The shape every fixed-layout attribute codec shares: size check, read the fields, validate;
// validate, write the fields. The field list and the checks are the attribute's own.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "bit_fields.hpp"
#include "weft/sm/smp.hpp"

namespace weft::sm::detail {

template <class T, class Fields, class Check>
Result<T> decode_attribute(std::span<const std::uint8_t> data, std::string_view size_field, Fields fields,
                           Check check) {
    if (data.size() != kSmpDataSize) return SmpError{size_field, data.size(), "64 bytes"};
    T value{};
    FieldReader reader{data};
    fields(reader, value);
    if (std::optional<SmpError> err = check(value)) return *err;
    return value;
}

template <class T, class Fields, class Check>
Result<SmpData> encode_attribute(const T &value, Fields fields, Check check) {
    if (std::optional<SmpError> err = check(value)) return *err;
    SmpData data{};
    FieldWriter writer{data, std::nullopt};
    fields(writer, value);
    if (writer.error) return *writer.error;
    return data;
}

}  // namespace weft::sm::detail
