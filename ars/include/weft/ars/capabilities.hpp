// Scale limits of this software implementation, the answer to SAI's capability query
// (SAI_ARS_PROFILE_ATTR_ECMP_ARS_MAX_GROUPS and friends). Configs beyond them are refused.
#pragma once

#include <cstdint>

namespace weft::ars {

struct Capabilities {
    std::uint32_t max_ports = 4096;                  // port ids are 0 .. max_ports-1
    std::uint32_t max_ecmp_groups = 16384;           // ECMP_ARS_MAX_GROUPS; NHG ids below it
    std::uint32_t max_members_per_ecmp_group = 128;  // ECMP_ARS_MAX_MEMBERS_PER_GROUP (64 + 64)
    std::uint32_t max_primary_members = 64;          // per role, one 64-bit mask per role
    std::uint32_t max_alternate_members = 64;
    std::uint32_t max_lag_groups = 1024;            // LAG_ARS_MAX_GROUPS; LAG ids below it
    std::uint32_t max_members_per_lag_group = 64;   // LAG_ARS_MAX_MEMBERS_PER_GROUP
    std::uint32_t max_ars_objects = 256;            // ARS object ids below it
    std::uint32_t max_flows_per_object = 1u << 24;  // macro flows per table (hardware: 32768)
    std::uint8_t quant_bands = 8;                   // SAI_ARS_PROFILE_ATTR_QUANT_BANDS
    std::uint32_t max_remote_slots = 0xFFFF;        // PortBoard remote quality slots (ARN): 16-bit ids
};

// The limits this build supports.
constexpr Capabilities capabilities() {
    return Capabilities{};
}

}  // namespace weft::ars
