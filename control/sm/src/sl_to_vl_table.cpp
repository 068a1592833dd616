#include "weft/sm/sl_to_vl_table.hpp"

#include "bit_fields.hpp"

namespace weft::sm {

Result<SlToVlTable> decode_sl_to_vl_table(std::span<const std::uint8_t> data) {
    if (data.size() != kSmpDataSize) return SmpError{"SLtoVLMappingTable.size", data.size(), "64 bytes"};
    SlToVlTable t;
    for (unsigned sl = 0; sl < 16; ++sl)
        t.vl[sl] = static_cast<std::uint8_t>(detail::get_bits(data, sl * 4, 4));
    return t;
}

Result<SlToVlTable> decode_sl_to_vl_table(const Smp &smp) {
    if (auto err = check_attribute(smp, SlToVlTable::kAttributeId)) return *err;
    const std::uint32_t in = (smp.attr_mod >> 8) & 0xFFu, out = smp.attr_mod & 0xFFu;
    if (in > kMaxPortNum) return SmpError{"SLtoVLMappingTable.input_port", in, "0..254"};
    if (out > kMaxPortNum) return SmpError{"SLtoVLMappingTable.output_port", out, "0..254"};
    return decode_sl_to_vl_table(smp.data);
}

Result<SmpData> encode_sl_to_vl_table(const SlToVlTable &table) {
    SmpData data{};
    for (unsigned sl = 0; sl < 16; ++sl) {
        if (table.vl[sl] > 15) return SmpError{"SLtoVLMappingTable.vl", table.vl[sl], "0..15"};
        detail::set_bits(data, sl * 4, 4, table.vl[sl]);
    }
    return data;
}

}  // namespace weft::sm
