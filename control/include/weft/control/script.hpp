// A command script run while the switch forwards (`weft --script FILE`): one CLI command per
// line; `sleep <seconds>` pauses the script, never the switch or its control loop; lines
// starting with # are comments, and comments holding "----" are banners shown in the output.
// Time enters as a parameter (seconds on any monotonic clock).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "weft/control/command_context.hpp"

struct cmdline;

namespace weft::control {

struct ScriptStep {
    enum class Kind { kCommand, kSleep, kBanner };
    Kind kind = Kind::kCommand;
    std::string text;    // the command, or the banner
    double seconds = 0;  // kSleep
    unsigned line = 0;   // 1-based line in the file
};

struct ScriptParse {
    std::vector<ScriptStep> steps;
    std::string error;  // "<name>:<line>: expected ..., got ..."; empty when the script is good
    bool ok() const { return error.empty(); }
};

inline constexpr double kMaxScriptSleepSeconds = 3600;
inline constexpr std::size_t kMaxScriptLine = 500;  // below cmdline's own line limit

// Reads a whole script; `name` is the file name used in the error.
ScriptParse parse_script(std::string_view text, std::string_view name);

class ScriptRunner {
  public:
    explicit ScriptRunner(std::vector<ScriptStep> steps) : steps_(std::move(steps)) {}

    // Runs the steps due at `now_s`: commands and banners (echoed as `weft> line` on `cl`) up to
    // the next sleep or the end. Returns false once the script is finished (or ran `quit`).
    bool run(CommandContext &ctx, struct cmdline *cl, double now_s);

  private:
    std::vector<ScriptStep> steps_;
    std::size_t next_ = 0;
    double resume_at_ = 0;
};

}  // namespace weft::control
