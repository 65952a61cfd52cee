#pragma once
// How many calls one judge may have in flight: an AIMD window between 1 and max_concurrency, the way
// TCP sizes its congestion window. It starts at the maximum, halves on a 429 and grows back by one
// slot per window of successes. Nothing blocks: a caller without a slot leaves a callback in a FIFO
// queue and is called when one frees up.
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <utility>
#include <vector>

namespace krino::core {

// One granted slot. The ticket orders grants; it tells a late 429 from a wave that was already
// answered by a decrease.
struct ConcurrencySlot {
  uint64_t ticket = 0;
};

enum class SlotOutcome {
  success,       // additive increase
  rate_limited,  // HTTP 429: multiplicative decrease
  other          // any other failure: the window is left alone (it says nothing about load)
};

class ConcurrencyLimiter {
 public:
  using Grant = std::function<void(ConcurrencySlot)>;

  explicit ConcurrencyLimiter(int max_concurrency);

  // [thread-safe] Asks for a slot. `on_granted` runs exactly once: inside this call when a slot is
  // free and nobody is queued, otherwise inside the release() that frees one, on that thread. Keep
  // it short (post the real work to an executor). It is never called with the limiter's lock held.
  void acquire(Grant on_granted);

  // [thread-safe] Gives back a slot granted earlier, saying how its call ended, and hands freed
  // slots to the oldest waiters.
  void release(ConcurrencySlot slot, SlotOutcome outcome);

  // [thread-safe] Snapshots, for tests and progress output.
  double window() const;
  int limit() const;  // slots usable now: floor(window), at least 1
  int in_flight() const;
  size_t waiting() const;
  uint64_t decreases() const;  // halvings so far

 private:
  int limit_locked() const;
  void grant_waiters_locked(std::vector<std::pair<Grant, ConcurrencySlot>>& out);

  mutable std::mutex mutex_;
  const double max_window_;
  double window_;
  int in_flight_ = 0;
  uint64_t next_ticket_ = 0;
  // Slots granted before this ticket belong to a wave already answered by a decrease; their 429s do
  // not halve again.
  uint64_t recovery_ticket_ = 0;
  uint64_t decreases_ = 0;
  std::deque<Grant> waiters_;
};

}  // namespace krino::core
