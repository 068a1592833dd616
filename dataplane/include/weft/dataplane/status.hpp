// Result of a control-side operation: ok, or a message saying why nothing was changed.
#pragma once

#include <string>
#include <utility>

namespace weft::dataplane {

class [[nodiscard]] Status {
  public:
    static Status success() { return Status(); }
    static Status error(std::string message) { return Status(std::move(message)); }
    bool ok() const noexcept { return message_.empty(); }
    const std::string &message() const noexcept { return message_; }

  private:
    Status() = default;
    explicit Status(std::string m) : message_(m.empty() ? "error" : std::move(m)) {}
    std::string message_;
};

}  // namespace weft::dataplane
