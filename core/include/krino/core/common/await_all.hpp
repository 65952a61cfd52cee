#pragma once
// Waiting once for several asynchronous operations (a group's requests): each one started is
// expect()ed, each one finished calls done(), and wait() returns when all have, suspending the
// calling TBB task (or blocking a plain thread) at most once, however many there are.
#include "krino/core/common/await_callback.hpp"

#include <cstddef>
#include <functional>
#include <mutex>

namespace krino::core {

class AwaitAll {
 public:
  AwaitAll() = default;
  AwaitAll(const AwaitAll&) = delete;
  AwaitAll& operator=(const AwaitAll&) = delete;

  // One more operation to wait for; before it can finish.
  void expect() {
    std::lock_guard lock(mutex_);
    ++outstanding_;
  }
  // One operation finished; from any thread. The last one resumes the waiter, and must touch
  // nothing the waiter owns after this call (the waiter may have returned by then).
  void done() {
    std::function<void(bool)> wake;
    {
      std::lock_guard lock(mutex_);
      if (--outstanding_ == 0) wake = std::move(resume_);
    }
    if (wake) wake(true);
  }
  // Once, after every operation was started: returns when all are done.
  void wait() {
    await_callback<bool>([this](auto resume) {
      {
        std::lock_guard lock(mutex_);
        if (outstanding_ > 0) {
          resume_ = std::move(resume);
          return;
        }
      }
      resume(true);
    });
  }

 private:
  std::mutex mutex_;
  std::size_t outstanding_ = 0;
  std::function<void(bool)> resume_;
};

}  // namespace krino::core
