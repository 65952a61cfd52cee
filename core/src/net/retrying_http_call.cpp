#include "krino/core/net/retrying_http_call.hpp"

#include "krino/core/net/cancellable_wait.hpp"

#include <boost/asio/steady_timer.hpp>

#include <memory>
#include <optional>
#include <random>
#include <stdexcept>

namespace krino::core {

bool is_success(const HttpResult& result) {
  return result.outcome == HttpOutcome::response && result.response.status >= 200 && result.response.status <= 299;
}

AttemptFailure failure_of(const HttpResult& result) {
  switch (result.outcome) {
    case HttpOutcome::timeout: return AttemptFailure::timed_out();
    case HttpOutcome::connection_error: return AttemptFailure::connection_failed();
    case HttpOutcome::response: break;
  }
  return AttemptFailure::status(static_cast<int>(result.response.status));
}

namespace {

// The state of one call across its attempts; kept alive by the callbacks that refer to it.
class RetryingCall : public std::enable_shared_from_this<RetryingCall> {
 public:
  RetryingCall(HttpClient& client, boost::asio::io_context& io, HttpRequest request, std::chrono::milliseconds timeout,
               const RetryPolicy& policy, std::uint64_t seed, std::function<void(HttpCallOutcome)> done,
               const Cancellation* cancellation)
      : client_(client),
        timer_(std::make_shared<boost::asio::steady_timer>(io)),
        cancellation_(cancellation),
        request_(std::move(request)),
        timeout_(timeout),
        policy_(policy),
        jitter_(seed),
        done_(std::move(done)) {}

  void attempt() {
    ++attempts_;
    // The request is copied: a retry needs it again, and the client consumes what it is given.
    client_.send(request_, timeout_, [self = shared_from_this()](HttpResult result) { self->on_result(std::move(result)); });
  }

 private:
  void on_result(HttpResult result) {
    if (is_success(result) || attempts_ >= policy_.max_attempts) return finish(std::move(result));
    const AttemptFailure failure = failure_of(result);
    if (!is_retryable(failure)) return finish(std::move(result));
    std::optional<std::string> retry_after =
        result.outcome == HttpOutcome::response ? result.response.retry_after() : std::nullopt;
    RetryDecision decision = decide_retry(policy_, attempts_, failure,
                                          retry_after ? std::optional<std::string_view>(*retry_after) : std::nullopt,
                                          std::chrono::system_clock::now(), jitter_.engine());
    if (std::holds_alternative<GiveUp>(decision)) return finish(std::move(result));
    if (cancelled(cancellation_)) return finish(std::move(result), true);
    last_ = std::move(result);
    const auto until = std::chrono::steady_clock::now() + std::get<RetryAfterDelay>(decision).delay;
    wait_cancellably(timer_, until, cancellation_, [self = shared_from_this()](bool stopped) {
      if (stopped) return self->finish(std::move(self->last_), true);
      self->attempt();
    });
  }

  void finish(HttpResult result, bool cancelled = false) {
    auto done = std::move(done_);
    done(HttpCallOutcome{std::move(result), attempts_, cancelled});
  }

  HttpClient& client_;
  std::shared_ptr<boost::asio::steady_timer> timer_;
  const Cancellation* cancellation_;
  HttpResult last_;  // the failed attempt a wait follows, reported if the wait is cancelled
  HttpRequest request_;
  std::chrono::milliseconds timeout_;
  RetryPolicy policy_;
  RetryJitter jitter_;
  std::function<void(HttpCallOutcome)> done_;
  int attempts_ = 0;
};

}  // namespace

void send_with_retries(HttpClient& client, boost::asio::io_context& io, HttpRequest request,
                       std::chrono::milliseconds attempt_timeout, const RetryPolicy& policy, std::uint64_t seed,
                       std::function<void(HttpCallOutcome)> done, const Cancellation* cancellation) {
  auto call = std::make_shared<RetryingCall>(client, io, std::move(request), attempt_timeout, policy, seed, std::move(done),
                                             cancellation);
  call->attempt();
}

}  // namespace krino::core
