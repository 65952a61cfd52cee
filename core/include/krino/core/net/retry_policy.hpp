#pragma once
// When a failed call to a server (a judge, or a system under test over HTTP) is tried again, and how
// long to wait first. Pure: the caller supplies the clock reading and the random engine, so the same
// inputs always give the same decision.
#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <variant>

namespace krino::core {

struct RetryPolicy {
  int max_attempts = 5;                         // attempts in all, the first one included
  std::chrono::milliseconds base_delay{500};    // backoff ceiling before the first retry
  std::chrono::milliseconds max_delay{30'000};  // the backoff ceiling stops doubling here
  // A server's Retry-After wins over the computed backoff, up to this much: a header asking for an
  // hour must not stall a run for an hour.
  std::chrono::milliseconds max_retry_after{60'000};
};

// How one attempt failed.
struct AttemptFailure {
  enum class Kind { http_status, timeout, connection_error };
  Kind kind = Kind::http_status;
  int http_status = 0;  // for http_status only

  static AttemptFailure status(int code) { return {Kind::http_status, code}; }
  static AttemptFailure timed_out() { return {Kind::timeout, 0}; }
  static AttemptFailure connection_failed() { return {Kind::connection_error, 0}; }
};

struct RetryAfterDelay {
  std::chrono::milliseconds delay;
  bool from_retry_after_header = false;  // the server chose the delay, not the backoff
};

struct GiveUp {
  std::string reason;  // for the item error: what failed and why it is not tried again
};

using RetryDecision = std::variant<RetryAfterDelay, GiveUp>;

// True for failures another attempt may cure: timeouts, connection errors, HTTP 408 and 429, and 5xx
// except the statuses that describe a permanent mismatch (501, 505, 506, 508, 510, 511).
bool is_retryable(const AttemptFailure& failure);

// The random engine of one call's retry delays, seeded when the first retry needs it: seeding a
// Mersenne twister costs about 2,800 instructions, more than 1 % of a judge call, and most calls
// never retry. The same seed gives the same delays whenever it is made.
class RetryJitter {
 public:
  explicit RetryJitter(std::uint64_t seed) : seed_(seed) {}
  std::mt19937_64& engine() {
    if (!engine_) engine_.emplace(seed_);
    return *engine_;
  }

 private:
  std::uint64_t seed_;
  std::optional<std::mt19937_64> engine_;
};

// `attempt` is the 1-based number of the attempt that just failed. Without a usable Retry-After the
// delay is "full jitter": uniform in [0, min(max_delay, base_delay * 2^(attempt-1))], drawn from `rng`.
// `retry_after` is the raw header value, if the response had one; `now` resolves its HTTP-date form.
RetryDecision decide_retry(const RetryPolicy& policy, int attempt, const AttemptFailure& failure,
                           std::optional<std::string_view> retry_after, std::chrono::system_clock::time_point now,
                           std::mt19937_64& rng);

// The wait a Retry-After value asks for, from `now`: delta-seconds ("120", leniently "1.5") or an
// HTTP-date in any of the three forms RFC 9110 makes recipients accept. A date in the past is zero.
// nullopt when the value is neither.
std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view value,
                                                           std::chrono::system_clock::time_point now);

// An HTTP-date (IMF-fixdate, RFC 850 or asctime form), always UTC.
std::optional<std::chrono::system_clock::time_point> parse_http_date(std::string_view value);

// "HTTP 503", "timeout", "connection error": how a failure reads in messages.
std::string describe(const AttemptFailure& failure);

}  // namespace krino::core
