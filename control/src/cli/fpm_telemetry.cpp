// /weft/fpm: `show fpm json` for DPDK telemetry. The telemetry thread never reads the server: the
// control thread refreshes a copy of the record (at most every kRefreshEvery) and the command
// turns the last copy into a telemetry dict (nested objects as nested dicts).
#include <rte_telemetry.h>

#include <chrono>
#include <mutex>
#include <string>

#include "fpm_cli.hpp"
#include "weft/control/fpm_server.hpp"

namespace weft::control {

namespace {

constexpr auto kRefreshEvery = std::chrono::milliseconds(100);

struct Published {
    std::mutex mu;
    cli::Json record;  // null: no server
    std::chrono::steady_clock::time_point at{};
};

Published &published() {
    static Published p;
    return p;
}

void add(rte_tel_data *d, const std::string &key, const cli::Json &v);

// A JSON object as a telemetry dict (what DPDK refuses, a string past its length limit say, left
// out).
void fill(rte_tel_data *d, const cli::Json &object) {
    rte_tel_data_start_dict(d);
    for (const auto &[k, v] : object.items()) add(d, k, v);
}

void add(rte_tel_data *d, const std::string &key, const cli::Json &v) {
    if (v.is_boolean()) {
        rte_tel_data_add_dict_u64(d, key.c_str(), v.get<bool>() ? 1 : 0);
    } else if (v.is_number_unsigned()) {
        rte_tel_data_add_dict_u64(d, key.c_str(), v.get<std::uint64_t>());
    } else if (v.is_number_integer()) {
        rte_tel_data_add_dict_int(d, key.c_str(), static_cast<int>(v.get<std::int64_t>()));
    } else if (v.is_number_float()) {
        rte_tel_data_add_dict_u64(d, key.c_str(), static_cast<std::uint64_t>(v.get<double>() * 1000));
    } else if (v.is_string()) {
        rte_tel_data_add_dict_string(d, key.c_str(), v.get<std::string>().c_str());
    } else if (v.is_object()) {
        rte_tel_data *inner = rte_tel_data_alloc();
        if (inner == nullptr) return;
        fill(inner, v);
        if (rte_tel_data_add_dict_container(d, key.c_str(), inner, 0) != 0) rte_tel_data_free(inner);
    }
    // null (no peer, no policy): left out
}

int tel_fpm(const char *, const char *params, rte_tel_data *d) {
    if (params != nullptr && *params != '\0') return -1;  // no parameters
    Published &p = published();
    cli::Json copy;
    {
        std::lock_guard<std::mutex> lock(p.mu);
        copy = p.record;
    }
    if (copy.is_null()) return -1;
    fill(d, copy);
    return 0;
}

}  // namespace

bool register_fpm_telemetry() {
    // DPDK refuses help texts of 128 characters or more.
    return rte_telemetry_register_cmd("/weft/fpm", tel_fpm,
                                      "The FPM server as show fpm json (fractions in thousandths). No "
                                      "parameters.") == 0;
}

void refresh_fpm_telemetry(const FpmServer *server) {
    Published &p = published();
    const auto now = std::chrono::steady_clock::now();
    if (server != nullptr && now - p.at < kRefreshEvery) return;
    cli::Json record = server != nullptr ? cli::fpm_record(*server) : cli::Json(nullptr);
    std::lock_guard<std::mutex> lock(p.mu);
    p.record = std::move(record);
    p.at = now;
}

}  // namespace weft::control
