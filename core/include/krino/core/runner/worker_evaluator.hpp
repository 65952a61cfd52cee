#pragma once
// An evaluator whose calls run in persistent worker processes speaking krino.evaluatorworker/1:
// a script in any language (`use: subprocess`) or a plugin under `isolation: process` (the
// krino-plugin-host program). Workers are the exec task's (WorkerPool): started on demand up to
// `workers`, reused across items, and replaced when one crashes, hangs past timeout_ms or breaks
// the protocol; that item becomes an item error naming the cause and the run goes on.
//
// Threading: evaluate() is [thread-safe]; it suspends the calling TBB task while the worker works.
#include "krino/core/process/process_limits.hpp"
#include "krino/core/process/process_spec.hpp"
#include "krino/core/process/worker_pool.hpp"
#include "krino/core/runner/evaluator_backend.hpp"
#include "krino/core/runner/evaluator_worker_protocol.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/json/object.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace krino::core {

struct WorkerEvaluatorSettings {
  ProcessSpec process;      // what to start (with its memory limit)
  ProcessLimits limits;     // timeout_ms and the rest, per request
  std::size_t workers = 1;  // at most this many processes (fewer if the handshake says so)
  std::string what;         // names the evaluator in messages: "subprocess evaluator 'python3 x.py'"
};

class WorkerEvaluator : public EvaluatorBackend {
 public:
  // Called with the first worker's handshake before it is configured: checks the options against
  // its schema (throwing a configuration error) and returns them as the worker is to get them.
  using CheckHandshake = std::function<boost::json::object(const WorkerHandshake&)>;

  // Starts the first worker now and configures it, so a command that does not start, speaks
  // another protocol or refuses its options is a configuration error before the run. `name` is
  // the evaluator's display name (item errors carry it); `log` takes warnings (a worker that died
  // between requests).
  WorkerEvaluator(boost::asio::io_context& io, WorkerEvaluatorSettings settings, std::string name,
                  const CheckHandshake& check, std::function<void(const std::string&)> log);
  ~WorkerEvaluator() override;

  const WorkerHandshake& handshake() const { return handshake_; }
  // The display name item errors carry, when it is known only from the handshake. Before the run.
  void set_name(std::string name) { name_ = std::move(name); }
  std::size_t max_workers() const { return pool_->max_workers(); }
  std::size_t workers_started() const { return pool_->started_count(); }

  StatusOr<WrittenResult, ItemError> evaluate(const krino_call_context& ctx, std::string_view testcase) const override;
  // A group's requests go out together and the task waits once for all their answers.
  std::vector<StatusOr<WrittenResult, ItemError>> evaluate_batch(std::span<const EvaluatorCall> calls) const override;
  bool batches() const override { return true; }

 private:
  // Handshake and configure on a new worker; an empty string when it is ready.
  std::string prepare(WorkerProcess& worker);
  std::unique_ptr<WorkerPool> make_pool(boost::asio::io_context& io);
  ItemError error(krino_status code, std::string message) const;
  std::string request_line(uint64_t id, const krino_call_context& ctx, std::string_view testcase) const;
  // What an exchange's reply means for the item: its result, or the item error.
  StatusOr<WrittenResult, ItemError> answer(WorkerPool::Exchange sent, uint64_t id) const;

  WorkerEvaluatorSettings settings_;
  std::string name_;
  std::function<void(const std::string&)> log_;
  WorkerHandshake handshake_;
  std::string configure_line_;
  std::unique_ptr<WorkerPool> pool_;
  mutable std::atomic<uint64_t> next_id_{1};
  // Set while the first worker is prepared: checks its handshake and yields the options.
  const CheckHandshake* first_check_ = nullptr;
};

}  // namespace krino::core
