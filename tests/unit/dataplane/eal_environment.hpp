// Starts EAL once per test binary without hugepages or PCI, under a file prefix unique to this
// process, so test binaries can run in parallel with each other and with a running weft.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace weft::dataplane::test {

class EalEnvironment : public ::testing::Environment {
  public:
    explicit EalEnvironment(std::string name, std::string extra_args = "")
        : name_(std::move(name)), extra_(std::move(extra_args)) {}
    void SetUp() override;
    void TearDown() override;

  private:
    std::string name_;
    std::string extra_;
};

}  // namespace weft::dataplane::test
