#pragma once
// Cooperative cancellation for one run: Ctrl-C (or a test) requests it, the runner stops
// dispatching, and plugins see it through host->is_cancelled.
#include <atomic>

namespace krino::core {

class Cancellation {
 public:
  void request() noexcept { requested_.store(true, std::memory_order_release); }
  bool requested() const noexcept { return requested_.load(std::memory_order_acquire); }

 private:
  std::atomic<bool> requested_{false};
};

}  // namespace krino::core
