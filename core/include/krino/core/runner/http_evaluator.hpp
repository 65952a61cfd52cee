#pragma once
// An evaluator run by a server (`use: http_evaluator`): krino.evaluatorworker/1's documents over
// HTTP (http_evaluator_protocol.hpp). The handshake is fetched once, when the evaluator is made, so
// an unreachable server, another protocol or options its schema refuses stop the run before it
// starts. Each request is the one a worker process would get (worker_evaluate_line), so a handshake's
// "reads" trims its test case the same way. Then test cases are batched: a call is sent at once when fewer than `concurrency`
// requests are in flight, and otherwise waits and leaves with up to `batch` others in the next
// request, so batches grow exactly when the server is the bottleneck. Transport, TLS, keep-alive
// and retries (429, 5xx, timeouts, connection errors; Retry-After wins) are core's HttpClient and
// send_with_retries, as for the `http` task and judges.
//
// Threading: evaluate() is [thread-safe]; it suspends the calling TBB task while its batch is out.
#include "krino/core/common/cancellation.hpp"
#include "krino/core/net/http_client.hpp"
#include "krino/core/runner/evaluator_backend.hpp"
#include "krino/core/runner/evaluator_worker_protocol.hpp"
#include "krino/core/runner/http_evaluator_options.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/json/object.hpp>

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace krino::core {

class HttpEvaluator : public EvaluatorBackend {
 public:
  // Called with the server's handshake: checks the options against its schema (throwing a
  // configuration error) and returns them as every request is to carry them.
  using CheckHandshake = std::function<boost::json::object(const WorkerHandshake&)>;

  // Fetches the handshake (GET) now; throws a configuration error naming the evaluator and URL
  // when it fails. `cancellation` (may be null, else outliving this) is the run's: no request
  // leaves once it is requested, and a wait before a retry ends early.
  HttpEvaluator(boost::asio::io_context& io, HttpEvaluatorSettings settings, const CheckHandshake& check,
                const Cancellation* cancellation);
  ~HttpEvaluator() override;

  const WorkerHandshake& handshake() const { return handshake_; }
  // The display name item errors carry, known only from the handshake. Before the run.
  void set_name(std::string name) { name_ = std::move(name); }
  // POST requests sent so far (tests and benchmarks see the batching).
  std::uint64_t requests_sent() const { return requests_sent_.load(); }

  // One test case is a group of one.
  StatusOr<WrittenResult, ItemError> evaluate(const krino_call_context& ctx, std::string_view testcase) const override;
  // A group's test cases are queued at once and leave together; the task waits once.
  std::vector<StatusOr<WrittenResult, ItemError>> evaluate_batch(std::span<const EvaluatorCall> calls) const override;
  bool batches() const override { return true; }

 private:
  struct Pending {
    uint64_t id = 0;
    std::string line;  // the request document
    std::function<void(WorkerAnswer)> done;
  };
  using Batch = std::vector<Pending>;

  Pending pending_call(const krino_call_context& ctx, std::string_view testcase) const;
  StatusOr<WrittenResult, ItemError> result_of(WorkerAnswer answer) const;
  void enqueue(std::vector<Pending> pendings) const;
  // Batches that may leave now; counted as in flight.
  std::vector<Batch> take_batches_locked() const;
  void send(Batch batch) const;
  // The answer every request of a failed call gets.
  WorkerAnswer transport_failure(const HttpResult& result, int attempts) const;
  ItemError error(krino_status code, std::string message) const;

  boost::asio::io_context& io_;
  HttpEvaluatorSettings settings_;
  const Cancellation* cancellation_;
  std::unique_ptr<HttpClient> client_;
  WorkerHandshake handshake_;
  std::string options_json_;
  std::string name_;

  mutable std::mutex mutex_;
  mutable std::deque<Pending> queue_;
  mutable std::size_t in_flight_ = 0;
  mutable std::atomic<uint64_t> next_id_{1};
  mutable std::atomic<uint64_t> requests_sent_{0};
};

}  // namespace krino::core
