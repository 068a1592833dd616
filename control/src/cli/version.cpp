// show version [json]: weft's version (meson's project version), the DPDK it runs on, and how it
// was built (compiler, build type, sanitizers, assertions).
#include <cmdline.h>
#include <rte_version.h>

#include "cli_internal.hpp"
#include "weft_build_info.h"

namespace weft::control::cli {

namespace {

Json version_record() {
#ifdef NDEBUG
    constexpr bool assertions = false;
#else
    constexpr bool assertions = true;
#endif
    return Json{{"weft", WEFT_VERSION},
                {"dpdk", rte_version()},
                {"compiler", WEFT_COMPILER},
                {"buildtype", WEFT_BUILDTYPE},
                {"optimization", WEFT_OPTIMIZATION},
                {"sanitizers", WEFT_SANITIZE},
                {"assertions", assertions},
                {"fuzz_build", WEFT_FUZZ_BUILD != 0}};
}

struct VersionCmd {
    cmdline_fixed_string_t show, version, json;
};
WEFT_TOK_STR(VersionCmd, show, "show");
WEFT_TOK_STR(VersionCmd, version, "version");
WEFT_TOK_STR(VersionCmd, json, "json");

void show_version(void *, struct cmdline *cl, void *) {
    const Json v = version_record();
    cmdline_printf(cl, "weft %s\n%s\nbuilt with %s, buildtype %s (-O%s), sanitizers %s, assertions %s\n",
                   v["weft"].get<std::string>().c_str(), v["dpdk"].get<std::string>().c_str(),
                   v["compiler"].get<std::string>().c_str(), v["buildtype"].get<std::string>().c_str(),
                   v["optimization"].get<std::string>().c_str(), v["sanitizers"].get<std::string>().c_str(),
                   v["assertions"].get<bool>() ? "on" : "off");
}
void show_version_json(void *, struct cmdline *cl, void *) {
    print_json(cl, version_record());
}
Inst<2> inst_version{show_version,
                     nullptr,
                     "show version",
                     {WEFT_HDR(VersionCmd_show), WEFT_HDR(VersionCmd_version), nullptr}};
Inst<3> inst_version_json{
    show_version_json,
    nullptr,
    "show version json",
    {WEFT_HDR(VersionCmd_show), WEFT_HDR(VersionCmd_version), WEFT_HDR(VersionCmd_json), nullptr}};

}  // namespace

InstList version_commands() {
    return {as_inst(inst_version), as_inst(inst_version_json)};
}

}  // namespace weft::control::cli
