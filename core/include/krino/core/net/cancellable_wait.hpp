#pragma once
// A wait on the I/O service that ends early when the run is cancelled: retry back-off, a server's
// Retry-After and rate limits can each ask for a minute, and Ctrl-C must not sit through it. The
// timer wakes at least every kCancellationPoll to look at the flag, so no other thread ever
// touches the timer (Asio timers are not thread-safe) and nothing needs unregistering.
#include "krino/core/common/cancellation.hpp"

#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>
#include <memory>

namespace krino::core {

inline constexpr std::chrono::milliseconds kCancellationPoll{100};

// Waits on `timer` until `until`, then calls `then(false)`; when `cancellation` is requested first
// (or already is), calls `then(true)` within kCancellationPoll. `then` runs on an io_context thread,
// never from inside this function. The timer is kept alive until `then` has run.
void wait_cancellably(std::shared_ptr<boost::asio::steady_timer> timer, std::chrono::steady_clock::time_point until,
                      const Cancellation* cancellation, std::function<void(bool cancelled)> then);

}  // namespace krino::core
