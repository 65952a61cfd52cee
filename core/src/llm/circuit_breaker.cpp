#include "krino/core/llm/circuit_breaker.hpp"

#include <algorithm>

namespace krino::core {
namespace {

std::string seconds_text(std::chrono::milliseconds wait) {
  const auto seconds = (wait.count() + 999) / 1000;
  return std::to_string(seconds) + (seconds == 1 ? " second" : " seconds");
}

}  // namespace

std::string CircuitBreaker::refusal_locked(Clock::time_point now) const {
  std::string text = "not asked: the last " + std::to_string(consecutive_failures_) + " calls failed";
  if (!last_failure_.empty()) text.append(" (the last: ").append(last_failure_).append(")");
  if (probe_in_flight_) {
    text.append("; one call is trying it again now");
  } else if (open_until_) {
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(*open_until_ - now);
    text.append("; it is tried again in ").append(seconds_text(std::max(wait, std::chrono::milliseconds(0))));
  }
  return text;
}

CircuitBreaker::Admission CircuitBreaker::admit(Clock::time_point now) {
  std::lock_guard lock(mutex_);
  if (!open_until_) return {};
  if (probe_in_flight_ || now < *open_until_) return {false, false, refusal_locked(now)};
  probe_in_flight_ = true;
  return {true, true, {}};
}

std::optional<std::string> CircuitBreaker::refusing(Clock::time_point now) const {
  std::lock_guard lock(mutex_);
  if (!open_until_ || probe_in_flight_ || now >= *open_until_) return std::nullopt;
  return refusal_locked(now);
}

void CircuitBreaker::succeeded() {
  std::lock_guard lock(mutex_);
  consecutive_failures_ = 0;
  open_until_.reset();
  probe_in_flight_ = false;
  last_failure_.clear();
}

void CircuitBreaker::failed(Clock::time_point now, bool probe, const std::string& why) {
  std::lock_guard lock(mutex_);
  ++consecutive_failures_;
  last_failure_ = why;
  if (probe) probe_in_flight_ = false;
  if (options_.failures <= 0) return;
  // A failed probe reopens; so does reaching the count (calls admitted before the breaker opened
  // and failing after it did extend it, which is what they show).
  if (probe || consecutive_failures_ >= options_.failures) open_until_ = now + options_.cooldown;
}

void CircuitBreaker::abandoned(bool probe) {
  if (!probe) return;
  std::lock_guard lock(mutex_);
  probe_in_flight_ = false;
}

}  // namespace krino::core
