#include "krino/core/llm/concurrency_limiter.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace krino::core {

ConcurrencyLimiter::ConcurrencyLimiter(int max_concurrency)
    : max_window_(static_cast<double>(std::max(max_concurrency, 1))), window_(max_window_) {}

int ConcurrencyLimiter::limit_locked() const { return std::max(1, static_cast<int>(std::floor(window_))); }

void ConcurrencyLimiter::grant_waiters_locked(std::vector<std::pair<Grant, ConcurrencySlot>>& out) {
  while (!waiters_.empty() && in_flight_ < limit_locked()) {
    ++in_flight_;
    out.emplace_back(std::move(waiters_.front()), ConcurrencySlot{next_ticket_++});
    waiters_.pop_front();
  }
}

void ConcurrencyLimiter::acquire(Grant on_granted) {
  std::vector<std::pair<Grant, ConcurrencySlot>> granted;
  {
    std::lock_guard lock(mutex_);
    waiters_.push_back(std::move(on_granted));
    grant_waiters_locked(granted);
  }
  for (auto& [grant, slot] : granted) grant(slot);
}

void ConcurrencyLimiter::release(ConcurrencySlot slot, SlotOutcome outcome) {
  std::vector<std::pair<Grant, ConcurrencySlot>> granted;
  {
    std::lock_guard lock(mutex_);
    in_flight_ = std::max(in_flight_ - 1, 0);
    switch (outcome) {
      case SlotOutcome::success:
        window_ = std::min(max_window_, window_ + 1.0 / window_);
        break;
      case SlotOutcome::rate_limited:
        // Once per wave: the calls in flight when the first 429 came were sent at the old rate, and
        // their 429s are the same signal, not new ones.
        if (slot.ticket >= recovery_ticket_) {
          window_ = std::max(1.0, window_ / 2.0);
          recovery_ticket_ = next_ticket_;
          ++decreases_;
        }
        break;
      case SlotOutcome::other:
        break;
    }
    grant_waiters_locked(granted);
  }
  for (auto& [grant, next] : granted) grant(next);
}

double ConcurrencyLimiter::window() const {
  std::lock_guard lock(mutex_);
  return window_;
}

int ConcurrencyLimiter::limit() const {
  std::lock_guard lock(mutex_);
  return limit_locked();
}

int ConcurrencyLimiter::in_flight() const {
  std::lock_guard lock(mutex_);
  return in_flight_;
}

size_t ConcurrencyLimiter::waiting() const {
  std::lock_guard lock(mutex_);
  return waiters_.size();
}

uint64_t ConcurrencyLimiter::decreases() const {
  std::lock_guard lock(mutex_);
  return decreases_;
}

}  // namespace krino::core
