#include "krino/core/runner/worker_evaluator.hpp"

#include "krino/core/common/await_callback.hpp"
#include "krino/core/common/error.hpp"
#include "krino/core/process/printable_text.hpp"
#include "krino/core/process/worker_failure.hpp"

#include <chrono>
#include <utility>

namespace krino::core {
namespace {

std::string who(const WorkerProcess& worker) { return "the worker (pid " + std::to_string(worker.pid()) + ")"; }

// One line from a worker outside a request (the handshake: an empty request writes nothing).
WorkerReply exchange(WorkerProcess& worker, std::string line) {
  return await_callback<WorkerReply>([&](auto done) { worker.request(std::move(line), std::move(done)); });
}

std::string failed_exchange(const WorkerReply& reply, const ProcessLimits& limits, uint64_t memory, const WorkerProcess& worker,
                            std::string_view when) {
  if (reply.outcome == WorkerReply::Outcome::not_sent) {
    WorkerReply died = reply;
    died.outcome = WorkerReply::Outcome::died;
    return std::string(when) + ": " + describe_worker_failure(died, limits, memory, who(worker)).message;
  }
  return std::string(when) + ": " + describe_worker_failure(reply, limits, memory, who(worker)).message;
}

int64_t deadline_after(std::chrono::milliseconds timeout) {
  if (timeout.count() <= 0) return 0;
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::milliseconds>(now + timeout).count();
}

}  // namespace

WorkerEvaluator::WorkerEvaluator(boost::asio::io_context& io, WorkerEvaluatorSettings settings, std::string name,
                                 const CheckHandshake& check, std::function<void(const std::string&)> log)
    : settings_(std::move(settings)), name_(std::move(name)), log_(std::move(log)) {
  pool_ = make_pool(io);
  first_check_ = &check;
  WorkerPool::Lease first;
  try {
    first = pool_->acquire();
  } catch (...) {
    first_check_ = nullptr;
    pool_->shutdown();
    throw;
  }
  first_check_ = nullptr;
  if (!first.worker) {
    pool_->shutdown();
    throw config_error(settings_.what + ": " + first.error);
  }
  pool_->release(std::move(first.worker));
  // A worker that says it can run only so many copies of itself gets no more; the pool's limit is
  // read when a worker is granted, and only one worker exists yet.
  if (handshake_.max_workers && *handshake_.max_workers < settings_.workers) {
    pool_->shutdown();
    settings_.workers = *handshake_.max_workers;
    pool_ = make_pool(io);
  }
  pool_->set_requests_per_worker(handshake_.concurrency);
}

WorkerEvaluator::~WorkerEvaluator() { pool_->shutdown(); }

std::unique_ptr<WorkerPool> WorkerEvaluator::make_pool(boost::asio::io_context& io) {
  return std::make_unique<WorkerPool>(
      io, settings_.process, settings_.limits, settings_.workers,
      // Copies, not `this`: a worker's exit can be reported on the pool's strand after the
      // evaluator is gone (its constructor threw, and the worker's last words came late).
      [what = settings_.what, log = log_](const std::string& message) {
        if (log) log(what + ": " + message);
      },
      [this](WorkerProcess& worker) { return prepare(worker); });
}

std::string WorkerEvaluator::prepare(WorkerProcess& worker) {
  const uint64_t memory = settings_.process.memory_limit_bytes;
  WorkerReply hello = exchange(worker, {});
  if (hello.outcome != WorkerReply::Outcome::answered)
    return failed_exchange(hello, settings_.limits, memory, worker, "it ended before its handshake");
  StatusOr<WorkerHandshake> handshake = read_worker_handshake(hello.line);
  if (!handshake.ok()) return handshake.error().message;
  if (first_check_ != nullptr) {
    // The first worker: its handshake describes the evaluator; the options are checked against it.
    handshake_ = std::move(handshake).value();
    try {
      configure_line_ = worker_configure_line((*first_check_)(handshake_));
    } catch (const KrinoError& problem) {
      return problem.what();
    }
  } else if (handshake.value().id != handshake_.id) {
    return "a new worker says it is '" + handshake.value().id + "', the first said '" + handshake_.id + "'";
  }
  WorkerReply configured = exchange(worker, configure_line_);
  if (configured.outcome != WorkerReply::Outcome::answered)
    return failed_exchange(configured, settings_.limits, memory, worker, "it ended while being configured");
  Status status = read_worker_configured(configured.line);
  if (!status.ok()) {
    if (status.code == KRINO_FAILED_PRECONDITION) return "it refused its options: " + status.message;
    return status.message;
  }
  return {};
}

ItemError WorkerEvaluator::error(krino_status code, std::string message) const {
  return ItemError{"evaluator", name_, code, std::move(message)};
}

std::string WorkerEvaluator::request_line(uint64_t id, const krino_call_context& ctx, std::string_view testcase) const {
  krino_call_context timed = ctx;
  if (timed.deadline_unix_ms == 0) timed.deadline_unix_ms = deadline_after(settings_.limits.timeout);
  return worker_evaluate_line(id, timed, testcase, handshake_.reads);
}

StatusOr<WrittenResult, ItemError> WorkerEvaluator::evaluate(const krino_call_context& ctx,
                                                           std::string_view testcase) const {
  const uint64_t id = next_id_.fetch_add(1, std::memory_order_relaxed);
  return answer(pool_->exchange(request_line(id, ctx, testcase), id, settings_.limits.cancelled), id);
}

std::vector<StatusOr<WrittenResult, ItemError>> WorkerEvaluator::evaluate_batch(std::span<const EvaluatorCall> calls) const {
  const uint64_t first = next_id_.fetch_add(calls.size(), std::memory_order_relaxed);
  std::vector<std::string> lines;
  std::vector<uint64_t> ids;
  lines.reserve(calls.size());
  ids.reserve(calls.size());
  for (std::size_t k = 0; k < calls.size(); ++k) {
    ids.push_back(first + k);
    lines.push_back(request_line(ids.back(), *calls[k].ctx, calls[k].testcase));
  }
  std::vector<WorkerPool::Exchange> sent = pool_->exchange_all(lines, ids, settings_.limits.cancelled);
  std::vector<StatusOr<WrittenResult, ItemError>> results;
  results.reserve(calls.size());
  for (std::size_t k = 0; k < calls.size(); ++k) results.push_back(answer(std::move(sent[k]), ids[k]));
  return results;
}

StatusOr<WrittenResult, ItemError> WorkerEvaluator::answer(WorkerPool::Exchange sent, uint64_t id) const {
  if (sent.kind == WorkerPool::Exchange::Kind::no_worker)
    return error(KRINO_UNAVAILABLE, "could not start a worker: " + sent.error);
  if (sent.kind == WorkerPool::Exchange::Kind::cancelled)
    return error(KRINO_CANCELLED, "the run was cancelled before the request was sent");
  const WorkerReply& reply = sent.reply;
  WorkerProcess* const worker = sent.worker.get();
  if (reply.outcome != WorkerReply::Outcome::answered) {
    WorkerFailure failure =
        describe_worker_failure(reply, settings_.limits, settings_.process.memory_limit_bytes, who(*worker));
    return error(failure.code, std::move(failure.message));
  }

  WorkerAnswer answer = read_worker_answer(reply.line, id);
  switch (answer.kind) {
    case WorkerAnswer::Kind::result: return std::move(answer.text);
    case WorkerAnswer::Kind::error: return error(answer.code, std::move(answer.text));
    case WorkerAnswer::Kind::not_an_answer: break;
  }
  // Out of step with the protocol: nothing it says can be matched to a request any more.
  WorkerExit exit = await_callback<WorkerExit>([&](auto done) { worker->stop(std::move(done)); });
  return error(KRINO_INTERNAL, with_stderr_tail(who(*worker) + " answered with " + answer.text + "; it was stopped (" +
                                                    exit.status.describe() +
                                                    ") and will be replaced (stdout carries only answers; write logs to "
                                                    "stderr)",
                                                exit.stderr_tail, exit.stderr_truncated));
}

}  // namespace krino::core
