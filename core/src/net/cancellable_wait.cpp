#include "krino/core/net/cancellable_wait.hpp"

#include <algorithm>

namespace krino::core {

void wait_cancellably(std::shared_ptr<boost::asio::steady_timer> timer, std::chrono::steady_clock::time_point until,
                      const Cancellation* cancellation, std::function<void(bool cancelled)> then) {
  const auto now = std::chrono::steady_clock::now();
  // Without a cancellation to watch, one timer for the whole wait.
  timer->expires_at(cancellation == nullptr ? until : std::min(until, now + kCancellationPoll));
  timer->async_wait([timer, until, cancellation, then = std::move(then)](const boost::system::error_code& error) mutable {
    if (error || cancelled(cancellation)) return then(true);  // an aborted timer ends the wait as a cancel does
    if (std::chrono::steady_clock::now() >= until) return then(false);
    wait_cancellably(std::move(timer), until, cancellation, std::move(then));
  });
}

}  // namespace krino::core
