#include "weft/arn/decode_error.hpp"

#include <cstdio>
#include <numeric>

namespace weft::arn {

namespace {

struct ReasonText {
    const char *name;
    const char *field;
};

constexpr ReasonText kText[kArnDropCount] = {
    {"eth_truncated", "Ethernet header"},
    {"vlan_truncated", "VLAN tag"},
    {"not_arn", "EtherType"},
    {"header_truncated", "ARN header"},
    {"bad_version", "ARN.Version"},
    {"unknown_type", "ARN.Type"},
    {"bad_metric", "ARN.Metric"},
    {"missing_parameter", "ARN.Para-Type"},
    {"param_truncated", "ARN parameter"},
    {"bad_prefix_family", "ARN.DestPrefix.Family"},
    {"bad_prefix_length", "ARN.DestPrefix.Length"},
    {"prefix_host_bits", "ARN.DestPrefix.Address"},
    {"bad_hold_time", "ARN.HoldTime"},
    {"trailing_bytes", "after the ARN"},
    {"ip_truncated", "IP/UDP header"},
    {"bad_ip_header", "IP header"},
    {"not_arn_udp", "IP protocol / UDP port"},
    {"bad_ttl", "IP TTL / hop limit"},
    {"bad_checksum", "IP/UDP checksum"},
    {"bad_udp_length", "UDP length"},
};

}  // namespace

const char *arn_drop_name(ArnDrop reason) {
    return reason < ArnDrop::kCount ? kText[static_cast<std::size_t>(reason)].name : "unknown";
}

const char *arn_drop_field(ArnDrop reason) {
    return reason < ArnDrop::kCount ? kText[static_cast<std::size_t>(reason)].field : "?";
}

std::string ArnError::message() const {
    char value_text[24];
    std::snprintf(value_text, sizeof value_text, "0x%llx", static_cast<unsigned long long>(value));
    return std::string(arn_drop_field(reason)) + " at byte " + std::to_string(offset) + " = " + value_text +
           ": " + arn_drop_name(reason);
}

std::uint64_t ArnDropCounters::total() const {
    return std::accumulate(by_reason.begin(), by_reason.end(), std::uint64_t{0});
}

}  // namespace weft::arn
