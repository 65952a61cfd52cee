#pragma once
// One timer, re-armed to the next moment a state machine must look at itself again (a deadline, a
// cancellation poll, the end of a drain). A wake-up that a later arm() or cancel() replaced is
// dropped, even when it had already fired, so stale handlers never act and never pile up.
//
// Threading: on the executor's strand, like the state machine that owns it.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <utility>

namespace krino::core {

class WakeTimer {
 public:
  using Clock = std::chrono::steady_clock;

  explicit WakeTimer(const boost::asio::any_io_executor& executor) : timer_(executor) {}

  // Calls `on_wake()` at `when` (Clock::time_point::max(): never). `on_wake` must keep the timer's
  // owner alive (capture its shared_ptr).
  template <class Handler>
  void arm(Clock::time_point when, Handler on_wake) {
    const unsigned generation = ++generation_;
    if (when == Clock::time_point::max()) {
      timer_.cancel();
      return;
    }
    timer_.expires_at(when);
    timer_.async_wait([this, generation, on_wake = std::move(on_wake)](const boost::system::error_code& error) mutable {
      if (!error && generation == generation_) on_wake();
    });
  }

  void cancel() {
    ++generation_;
    timer_.cancel();
  }

 private:
  boost::asio::steady_timer timer_;
  unsigned generation_ = 0;
};

}  // namespace krino::core
