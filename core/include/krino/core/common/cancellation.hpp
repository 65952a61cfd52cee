#pragma once
// Cooperative cancellation for one run: Ctrl-C (or a test) requests it, the runner stops
// dispatching, plugins see it through host->is_cancelled, and the waits of calls in flight (retry
// back-off, Retry-After, rate limits) look at it and end early. The run owns it and passes it down.
#include <atomic>

namespace krino::core {

class Cancellation {
 public:
  void request() noexcept { requested_.store(true, std::memory_order_release); }
  bool requested() const noexcept { return requested_.load(std::memory_order_acquire); }

 private:
  std::atomic<bool> requested_{false};
};

// True when `cancellation` is given and requested: for code where a caller may pass none.
inline bool cancelled(const Cancellation* cancellation) noexcept {
  return cancellation != nullptr && cancellation->requested();
}

}  // namespace krino::core
