#include "engines/nue/workers.hpp"

#include <system_error>

namespace weft::routing::engines::nue {

Workers::Workers(unsigned count) {
    for (unsigned w = 1; w < count; ++w) {
        try {
            threads_.emplace_back([this, w] { serve(w); });
        } catch (const std::system_error &) {
            break;  // the job runs on the threads there are
        }
    }
}

Workers::~Workers() {
    {
        const std::lock_guard lock(mutex_);
        stop_ = true;
    }
    start_.notify_all();
    for (auto &t : threads_) t.join();
}

unsigned Workers::resolve(unsigned wanted) {
    if (wanted) return wanted;
    const unsigned hardware = std::thread::hardware_concurrency();
    return hardware ? hardware : 1;
}

void Workers::serve(unsigned worker) {
    std::uint64_t seen = 0;
    std::unique_lock lock(mutex_);
    for (;;) {
        start_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        const std::function<void(unsigned)> &job = *job_;
        lock.unlock();
        std::exception_ptr failed;
        try {
            job(worker);
        } catch (...) {
            failed = std::current_exception();
        }
        lock.lock();
        if (failed && !error_) error_ = failed;
        if (--running_ == 0) finished_.notify_all();
    }
}

void Workers::run(const std::function<void(unsigned)> &job) {
    {
        const std::lock_guard lock(mutex_);
        job_ = &job;
        running_ = static_cast<unsigned>(threads_.size());
        error_ = nullptr;
        ++generation_;
    }
    start_.notify_all();
    std::exception_ptr failed;
    try {
        job(0);
    } catch (...) {
        failed = std::current_exception();
    }
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [&] { return running_ == 0; });
    job_ = nullptr;
    if (!failed) failed = error_;
    if (failed) std::rethrow_exception(failed);
}

}  // namespace weft::routing::engines::nue
