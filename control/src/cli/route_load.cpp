// route load <file>: many `route add|del` lines as one batch. Each line goes through the command
// set's own parser and route commands (the syntax and the refusals are the CLI's), staged in the
// FIB builder without a publication; the batch is published once at the end. A refused line is
// reported as FILE:LINE and counted, and the others are applied.
#include <cmdline.h>

#include <chrono>
#include <fstream>
#include <string>

#include "cli_internal.hpp"
#include "weft/control/cli.hpp"
#include "weft/control/input_line.hpp"

namespace weft::control::cli {

namespace {

constexpr unsigned kShownErrors = 20;  // located errors printed; the rest are counted

struct RouteLoadCmd {
    cmdline_fixed_string_t route, load, file;
};
WEFT_TOK_STR(RouteLoadCmd, route, "route");
WEFT_TOK_STR(RouteLoadCmd, load, "load");
WEFT_TOK_STR(RouteLoadCmd, file, nullptr);

// The commands a route file's lines may hold, and the catch-all that explains any other line:
// cmdline tries each instance in turn (zeroing a result buffer for each), so the file's lines
// are parsed against these alone, not the whole command table.
cmdline_parse_ctx_t *route_line_commands() {
    static InstList table = [] {
        InstList t = route_change_commands();
        t.push_back(catch_all_command());
        t.push_back(nullptr);
        return t;
    }();
    return table.data();
}

// Why `line` is not a route change the file may hold, or nothing when it is one.
std::optional<std::string> not_a_route_line(const std::string &line) {
    const Words w = words(line.c_str());
    if (w.size() >= 2 && w[0] == "route" && (w[1] == "add" || w[1] == "del")) return std::nullopt;
    return "not a route add|del line";
}

void route_load(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const std::string file = static_cast<RouteLoadCmd *>(res)->file;
    std::ifstream in(file);
    if (!in) return refuse(ctx, cl, "cannot read " + printable(file));
    const auto start = std::chrono::steady_clock::now();
    const unsigned errors_before = ctx.errors;
    const std::size_t routes_before = ctx.fib->routes().size();
    std::size_t lines = 0, applied = 0, refused = 0;
    std::string why;
    auto located = [&](const std::string &message) {
        if (++refused <= kShownErrors)
            cmdline_printf(cl, "  %s:%zu: %s\n", printable(file).c_str(), lines, one_line(message).c_str());
    };
    cmdline *parser = cmdline_new(route_line_commands(), "", -1, -1);  // prints nothing
    if (parser == nullptr) return refuse(ctx, cl, "cannot make a parser for the file's lines");
    ctx.batch_refusal = &why;  // the route commands stage, and say why they refuse, here
    for (std::string line; std::getline(in, line);) {
        ++lines;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#') continue;
        if (line.find('\0') != std::string::npos) {
            located("a NUL byte; the line is refused whole");
            continue;
        }
        if (const auto bad_line = not_a_route_line(line)) {
            located(*bad_line + ": " + printable(line.substr(0, 60)));
            continue;
        }
        why.clear();
        const int rc = cmdline_parse(parser, (line + "\n").c_str());
        if (rc < 0 && why.empty()) why = "ambiguous line";
        if (why.empty()) {
            ++applied;
        } else {
            located(why);
        }
    }
    ctx.batch_refusal = nullptr;
    cmdline_free(parser);
    ctx.errors = errors_before;
    const std::size_t staged = ctx.fib->staged_routes();
    const bool published = commit(ctx, cl);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (refused > kShownErrors)
        cmdline_printf(cl, "  ... and %zu more refused lines\n", refused - kShownErrors);
    cmdline_printf(
        cl,
        "route load %s: %zu lines, %zu applied, %zu refused; %zu prefixes changed, routes %zu -> %zu, "
        "%s in %.3f s\n",
        printable(file).c_str(), lines, applied, refused, staged, routes_before, ctx.fib->routes().size(),
        published ? "one publication" : "not published", seconds);
    if (refused != 0) ++ctx.errors;  // the command counts as refused once, whatever its lines
}
Inst<3> inst_route_load{
    route_load,
    nullptr,
    "route load <file>",
    {WEFT_HDR(RouteLoadCmd_route), WEFT_HDR(RouteLoadCmd_load), WEFT_HDR(RouteLoadCmd_file), nullptr}};

}  // namespace

InstList route_load_commands() {
    return {as_inst(inst_route_load)};
}

}  // namespace weft::control::cli
