// The threads Nue's race of candidate runs uses: the calling thread and helpers started once per
// routing step, all given the same job at once (the shortest-path searches of the even-spread
// floor, the first layer's central node, the race, the kept routes' tables).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace weft::routing::engines::nue {

class Workers {
  public:
    // count - 1 helpers besides the caller; a helper the system refuses to start is left out.
    explicit Workers(unsigned count);
    ~Workers();
    Workers(const Workers &) = delete;
    Workers &operator=(const Workers &) = delete;

    // The caller and the helpers.
    unsigned count() const { return static_cast<unsigned>(threads_.size()) + 1; }

    // Runs job(0) on the calling thread and job(1) .. job(count() - 1) on the helpers, and returns
    // once all have returned; then rethrows the first exception any of them threw.
    void run(const std::function<void(unsigned worker)> &job);

    // The thread count to use when the caller asks for `wanted` (0: one per hardware thread).
    static unsigned resolve(unsigned wanted);

  private:
    void serve(unsigned worker);

    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable start_, finished_;
    const std::function<void(unsigned)> *job_ = nullptr;
    std::uint64_t generation_ = 0;  // one more per run()
    unsigned running_ = 0;          // helpers still in the current job
    bool stop_ = false;
    std::exception_ptr error_;
};

}  // namespace weft::routing::engines::nue
