#pragma once
// The background worker of regression alerts. A run that ends in a project with an enabled webhook
// is queued by the store in the same transaction; this worker, on a thread of its own, claims
// queued runs, asks `RegressionCheck` whether the run regressed (the gate's verdict), queues one
// delivery per webhook when it did, and POSTs due deliveries, signed (webhook_signature.hpp).
// A 2xx answer delivers; anything else, a timeout or a refused connection is tried again after a
// backoff that doubles (a Retry-After header wins, up to its cap) until the attempts run out: the
// delivery is then DEAD and stays in the log until someone redelivers it.
//
// Nothing here runs in a request: ingestion never waits for a comparison or a receiver. Every
// claim holds a lease (AlertOptions::lease), so replicas on one PostgreSQL share the queue without
// sending anything twice, and a replica that dies mid-way leaves its work to the others once its
// lease runs out. A delivery is sent at least once: a receiver should drop repeats by
// X-Krino-Delivery (one can only happen when an attempt outlives its lease).
//
// Threading: start() and stop() from one thread; metrics_text() from any.
#include "krino/core/net/retry_policy.hpp"
#include "krino/core/store/store.hpp"

#include <boost/asio/io_context.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace krino::core {
class HttpClient;
}

namespace krino::core::server {

struct AlertOptions {
  // How often the queue is looked at when there was nothing to do.
  std::chrono::milliseconds poll_interval{1000};
  // Attempts in all (the first included), and the backoff: base_delay, doubling, up to max_delay.
  // A receiver's Retry-After is followed up to max_retry_after.
  RetryPolicy retry{8, std::chrono::milliseconds(10'000), std::chrono::milliseconds(3'600'000), std::chrono::milliseconds(3'600'000)};
  std::chrono::milliseconds request_timeout{10'000};
  // How long a claim is held. Longer than a request and a comparison take, so that a living worker
  // never loses what it holds.
  std::chrono::milliseconds lease{120'000};
  std::size_t batch = 16;  // rows claimed at a time
  // A run whose check failed this many times (the comparison throws each time) is given up.
  int max_check_claims = 5;
};

// The wait before the attempt after `attempts_made` failed ones: base_delay * 2^(attempts_made-1),
// at most max_delay.
std::chrono::milliseconds alert_retry_delay(const RetryPolicy& retry, std::int64_t attempts_made);

// Whether the run of `check` regressed, as the gate would say: the alert's JSON body when it did,
// nullopt when not. Throws when it cannot tell now (the check is tried again when its lease ends).
using RegressionCheck = std::function<std::optional<std::string>(const store::AlertCheck& check)>;

class AlertDispatcher {
 public:
  // `store` and `io` must outlive the dispatcher; `io` runs the HTTP requests.
  AlertDispatcher(store::Store& store, boost::asio::io_context& io, RegressionCheck check, AlertOptions options = {});
  ~AlertDispatcher();  // stop()
  AlertDispatcher(const AlertDispatcher&) = delete;
  AlertDispatcher& operator=(const AlertDispatcher&) = delete;

  void start();
  // Returns once the worker has finished what it was doing (at most a request timeout).
  void stop();

  // Prometheus text: the queue's depth as last seen, and counts since start by outcome.
  std::string metrics_text() const;

 private:
  void run();
  // One pass over the queue; whether it found anything to do.
  bool work_once();
  void check_runs();
  bool send_due();

  store::Store& store_;
  boost::asio::io_context& io_;
  RegressionCheck check_;
  AlertOptions options_;
  std::string owner_;  // this worker's name in lease_owner
  std::unique_ptr<HttpClient> client_;

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;

  std::atomic<std::int64_t> delivered_{0};
  std::atomic<std::int64_t> retried_{0};
  std::atomic<std::int64_t> dead_{0};
  std::atomic<std::int64_t> checked_{0};  // ended runs judged
  std::atomic<std::int64_t> alerts_{0};   // of which regressed
  std::atomic<std::int64_t> queued_checks_{0};
  std::atomic<std::int64_t> pending_{0};
  std::atomic<std::int64_t> dead_now_{0};
  std::atomic<std::int64_t> in_flight_{0};  // POSTs sent and not yet answered: what this replica holds leases on
};

}  // namespace krino::core::server
