#include "krino/core/llm/rate_limiter.hpp"

#include <algorithm>
#include <cmath>

namespace krino::core {
namespace {

std::optional<double> bucket_size(std::optional<double> per_minute) {
  if (!per_minute || !std::isfinite(*per_minute) || *per_minute <= 0) return std::nullopt;
  return per_minute;
}

// Refilling over the waited time can land a hair under the amount through floating point; without
// this, asking again at the promised time could be told to wait another nanosecond.
constexpr double kRoundingSlack = 1e-6;

}  // namespace

RateLimiter::RateLimiter(RateLimits limits, Clock::time_point now) {
  auto make = [now](double per_minute) { return Bucket{per_minute, per_minute / 60.0, per_minute, now}; };
  if (auto r = bucket_size(limits.requests_per_minute)) requests_ = make(*r);
  if (auto t = bucket_size(limits.tokens_per_minute)) tokens_ = make(*t);
}

void RateLimiter::Bucket::refill(Clock::time_point now) {
  // Callers on several threads read the clock before taking the lock, so `now` may be slightly
  // older than the last update; such a call simply adds nothing.
  if (now <= updated) return;
  double seconds = std::chrono::duration<double>(now - updated).count();
  level = std::min(capacity, level + seconds * per_second);
  updated = now;
}

RateLimiter::Clock::duration RateLimiter::Bucket::wait_for(double amount) const {
  if (level + kRoundingSlack >= amount) return Clock::duration::zero();
  double seconds = (amount - level) / per_second;
  // Rounded up, so that asking again at the returned time finds the budget there.
  auto wait = std::chrono::ceil<Clock::duration>(std::chrono::duration<double>(seconds));
  return std::max(wait, Clock::duration{1});
}

RateAdmission RateLimiter::try_acquire(Clock::time_point now, int64_t estimated_tokens) {
  std::lock_guard lock(mutex_);
  double tokens = static_cast<double>(std::max<int64_t>(estimated_tokens, 0));
  Clock::duration wait = Clock::duration::zero();
  if (requests_) {
    requests_->refill(now);
    wait = std::max(wait, requests_->wait_for(1.0));
  }
  if (tokens_) {
    tokens_->refill(now);
    wait = std::max(wait, tokens_->wait_for(std::min(tokens, tokens_->capacity)));
  }
  if (wait > Clock::duration::zero()) return RateAdmission{false, now + wait};
  if (requests_) requests_->level -= 1.0;
  if (tokens_) tokens_->level -= tokens;
  return RateAdmission{true, now};
}

void RateLimiter::settle(Clock::time_point now, int64_t estimated_tokens, int64_t actual_tokens) {
  std::lock_guard lock(mutex_);
  if (!tokens_) return;
  tokens_->refill(now);
  double difference = static_cast<double>(std::max<int64_t>(estimated_tokens, 0)) -
                      static_cast<double>(std::max<int64_t>(actual_tokens, 0));
  tokens_->level = std::min(tokens_->capacity, tokens_->level + difference);
}

std::optional<double> RateLimiter::available_requests(Clock::time_point now) {
  std::lock_guard lock(mutex_);
  if (!requests_) return std::nullopt;
  requests_->refill(now);
  return requests_->level;
}

std::optional<double> RateLimiter::available_tokens(Clock::time_point now) {
  std::lock_guard lock(mutex_);
  if (!tokens_) return std::nullopt;
  tokens_->refill(now);
  return tokens_->level;
}

}  // namespace krino::core
