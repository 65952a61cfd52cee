#pragma once
// Stops asking a model that keeps failing. After `failures` calls in a row have failed (each after
// its own retries), the breaker opens: calls fail at once with the reason, for `cooldown`. Then
// one call goes through as a probe (the others still fail at once): its success closes the
// breaker, its failure opens it for another cooldown. Without it, a judge that answers every
// request with 503 and Retry-After costs each remaining item the whole retry budget.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace krino::core {

struct CircuitBreakerOptions {
  std::int64_t failures = 5;  // calls failed in a row that open the breaker; 0: never opens
  std::chrono::milliseconds cooldown{30'000};
};

class CircuitBreaker {
 public:
  using Clock = std::chrono::steady_clock;

  struct Admission {
    bool go = true;
    bool probe = false;    // this call decides whether the breaker closes again
    std::string refusal;   // when !go: why, for the item error
  };

  explicit CircuitBreaker(CircuitBreakerOptions options) : options_(options) {}

  // [thread-safe] Whether a call may go now.
  Admission admit(Clock::time_point now);
  // [thread-safe] True while the breaker is open and not yet due for a probe: a call in its retry
  // loop stops waiting then, since the calls around it already tell the model is down.
  std::optional<std::string> refusing(Clock::time_point now) const;

  // [thread-safe] How an admitted call ended. A success closes the breaker. A failure counts
  // towards opening it (a probe's reopens it). A call that ended for its own reasons (a bad
  // request, a cancelled run) neither counts nor clears; a probe's then lets the next call probe.
  void succeeded();
  void failed(Clock::time_point now, bool probe, const std::string& why);
  void abandoned(bool probe);

 private:
  std::string refusal_locked(Clock::time_point now) const;

  const CircuitBreakerOptions options_;
  mutable std::mutex mutex_;
  std::int64_t consecutive_failures_ = 0;
  std::optional<Clock::time_point> open_until_;  // set while open
  bool probe_in_flight_ = false;
  std::string last_failure_;
};

}  // namespace krino::core
