#pragma once
// A judge's requests_per_minute and tokens_per_minute, as two token buckets. It never sleeps: it says
// "go" or "not before T", and the caller schedules a timer for T. Time is always passed in, so tests
// drive it with a fake clock.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>

namespace krino::core {

struct RateLimits {
  std::optional<double> requests_per_minute;  // nullopt: unlimited
  std::optional<double> tokens_per_minute;    // nullopt: unlimited
};

struct RateAdmission {
  bool go = false;
  // When `go` is false: the earliest time at which the same call could go, if nothing else takes
  // the budget first (ask again then).
  std::chrono::steady_clock::time_point not_before;
};

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;

  // Both buckets start full: the first minute may spend its whole budget at once.
  RateLimiter(RateLimits limits, Clock::time_point now);

  // [thread-safe] One request with `estimated_tokens` (prompt plus max output, as the caller guesses).
  // On "go" both are taken from the buckets; otherwise nothing is taken. A call estimated above the
  // whole per-minute token budget goes once the bucket is full, and the debt delays later calls.
  RateAdmission try_acquire(Clock::time_point now, int64_t estimated_tokens);

  // [thread-safe] After the call: replaces the estimate with the tokens the provider reported. Over-
  // estimates are given back (up to a full bucket); under-estimates become debt.
  void settle(Clock::time_point now, int64_t estimated_tokens, int64_t actual_tokens);

  // [thread-safe] Budget left now (for tests and progress output); nullopt when unlimited.
  std::optional<double> available_requests(Clock::time_point now);
  std::optional<double> available_tokens(Clock::time_point now);

 private:
  struct Bucket {
    double capacity = 0;
    double per_second = 0;
    double level = 0;  // may go below zero (debt)
    Clock::time_point updated;

    void refill(Clock::time_point now);
    // How long until `amount` is available; zero when it is now.
    Clock::duration wait_for(double amount) const;
  };

  std::mutex mutex_;
  std::optional<Bucket> requests_;
  std::optional<Bucket> tokens_;
};

}  // namespace krino::core
