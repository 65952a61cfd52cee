#pragma once
// One logical HTTP call with retries: send, and when the attempt fails in a way another attempt may
// cure (429, most 5xx, timeouts, connection errors), wait as the retry policy says (a server's
// Retry-After wins) and send again, up to the policy's max_attempts. What tasks that call a system
// under test over HTTP use; the judge service composes the same policy with its own limits.
#include "krino/core/common/cancellation.hpp"
#include "krino/core/net/http_client.hpp"
#include "krino/core/net/retry_policy.hpp"

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <cstdint>
#include <functional>

namespace krino::core {

struct HttpCallOutcome {
  HttpResult result;  // the last attempt's: a 2xx response, or why the call gave up
  int attempts = 0;   // in all, the first one included
  bool cancelled = false;  // the run was cancelled while the call waited to try again
};

// True when `result` is a response with a 2xx status.
bool is_success(const HttpResult& result);

// [thread-safe] `done` is called exactly once, on an io_context thread, never from inside this
// function. `seed` drives the backoff jitter, so a run's waits are reproducible. A wait before a
// retry ends early when `cancellation` (may be null) is requested: the outcome is then the last
// attempt's, marked cancelled. Throws std::invalid_argument, before any I/O, for a method the
// client does not know.
void send_with_retries(HttpClient& client, boost::asio::io_context& io, HttpRequest request,
                       std::chrono::milliseconds attempt_timeout, const RetryPolicy& policy, std::uint64_t seed,
                       std::function<void(HttpCallOutcome)> done, const Cancellation* cancellation = nullptr);

// "HTTP 503", "timeout", "connection error": what ended an attempt.
AttemptFailure failure_of(const HttpResult& result);

}  // namespace krino::core
