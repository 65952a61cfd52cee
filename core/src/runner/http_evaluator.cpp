#include "krino/core/runner/http_evaluator.hpp"

#include "krino/core/common/await_all.hpp"
#include "krino/core/common/await_callback.hpp"
#include "krino/core/common/error.hpp"
#include "krino/core/net/retrying_http_call.hpp"
#include "krino/core/runner/http_evaluator_protocol.hpp"
#include "krino/core/task/http_task.hpp"

#include <krino/json_text.hpp>
#include <krino/utf8.hpp>

#include <chrono>
#include <stdexcept>
#include <utility>

namespace krino::core {
namespace {

constexpr std::size_t kBodyExcerpt = 200;

int64_t http_deadline_after(std::chrono::milliseconds timeout) {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::milliseconds>(now + timeout).count();
}

std::string attempts_text(int attempts) {
  return attempts <= 1 ? std::string() : " (after " + std::to_string(attempts) + " attempts)";
}

}  // namespace

HttpEvaluator::HttpEvaluator(boost::asio::io_context& io, HttpEvaluatorSettings settings, const CheckHandshake& check,
                             const Cancellation* cancellation)
    : io_(io), settings_(std::move(settings)), cancellation_(cancellation) {
  try {
    client_ = std::make_unique<HttpClient>(io_, settings_.client);
  } catch (const std::invalid_argument& e) {
    throw config_error(settings_.what + ": ca_file: " + e.what());
  }
  HttpRequest hello;
  hello.method = "GET";
  hello.url = settings_.url;
  hello.headers = settings_.headers;
  hello.headers.push_back({"Accept", "application/json"});
  HttpCallOutcome outcome = await_callback<HttpCallOutcome>([&](auto done) {
    send_with_retries(*client_, io_, std::move(hello), settings_.timeout, settings_.retry, 0, std::move(done),
                      cancellation_);
  });
  const std::string where = settings_.what + " (GET, the handshake)";
  if (!is_success(outcome.result)) {
    WorkerAnswer failed = transport_failure(outcome.result, outcome.attempts);
    throw config_error(where + ": " + failed.text);
  }
  StatusOr<WorkerHandshake> handshake = read_worker_handshake(outcome.result.response.body);
  if (!handshake.ok()) throw config_error(where + ": " + settings_.redact(handshake.error().message));
  handshake_ = std::move(handshake).value();
  try {
    options_json_ = krino::json::to_compact_json(check(handshake_));
  } catch (const KrinoError& problem) {
    throw config_error(settings_.what + ": " + problem.what());
  }
  name_ = handshake_.name;
}

HttpEvaluator::~HttpEvaluator() = default;

ItemError HttpEvaluator::error(krino_status code, std::string message) const {
  return ItemError{"evaluator", name_, code, std::move(message)};
}

WorkerAnswer HttpEvaluator::transport_failure(const HttpResult& result, int attempts) const {
  WorkerAnswer answer;
  answer.kind = WorkerAnswer::Kind::error;
  switch (result.outcome) {
    case HttpOutcome::timeout:
      answer.code = KRINO_DEADLINE_EXCEEDED;
      answer.text = "no complete reply within " + std::to_string(settings_.timeout.count()) + " ms (timeout_ms)" +
                    attempts_text(attempts);
      return answer;
    case HttpOutcome::connection_error:
      answer.code = KRINO_UNAVAILABLE;
      answer.text = settings_.redact(result.error) + attempts_text(attempts);
      return answer;
    case HttpOutcome::response: break;
  }
  const HttpResponse& response = result.response;
  answer.code = status_for_http(response.status);
  answer.text = "HTTP " + std::to_string(response.status) + attempts_text(attempts);
  // Redacted before the cut: a cut through a secret would leave its start where redact() cannot find it.
  if (!response.body.empty()) answer.text += ": " + utf8::excerpt(settings_.redact(response.body), kBodyExcerpt);
  return answer;
}

HttpEvaluator::Pending HttpEvaluator::pending_call(const krino_call_context& ctx, std::string_view testcase) const {
  Pending pending;
  pending.id = next_id_.fetch_add(1, std::memory_order_relaxed);
  krino_call_context timed = ctx;
  if (timed.deadline_unix_ms == 0) timed.deadline_unix_ms = http_deadline_after(settings_.timeout);
  // The same request a worker process gets: with the handshake's "reads", only those sections.
  pending.line = worker_evaluate_line(pending.id, timed, testcase, handshake_.reads);
  return pending;
}

StatusOr<WrittenResult, ItemError> HttpEvaluator::result_of(WorkerAnswer answer) const {
  switch (answer.kind) {
    case WorkerAnswer::Kind::result: return std::move(answer.text);
    // The server's own error for this test case as it wrote it, or a failed exchange (its text
    // then starts with the evaluator and URL).
    case WorkerAnswer::Kind::error: return error(answer.code, std::move(answer.text));
    case WorkerAnswer::Kind::not_an_answer: break;
  }
  return error(KRINO_INTERNAL, settings_.what + " answered with " + settings_.redact(answer.text));
}

StatusOr<WrittenResult, ItemError> HttpEvaluator::evaluate(const krino_call_context& ctx,
                                                         std::string_view testcase) const {
  const EvaluatorCall call{&ctx, testcase};
  return std::move(evaluate_batch(std::span<const EvaluatorCall>(&call, 1)).front());
}

std::vector<StatusOr<WrittenResult, ItemError>> HttpEvaluator::evaluate_batch(std::span<const EvaluatorCall> calls) const {
  std::vector<StatusOr<WrittenResult, ItemError>> results;
  results.reserve(calls.size());
  if (cancelled(cancellation_)) {
    for (std::size_t k = 0; k < calls.size(); ++k)
      results.push_back(error(KRINO_CANCELLED, "the run was cancelled before the request was sent"));
    return results;
  }
  // Queued together: they leave in as few requests as `batch` allows.
  std::vector<WorkerAnswer> answers(calls.size());
  AwaitAll all;
  std::vector<Pending> pendings;
  pendings.reserve(calls.size());
  for (std::size_t k = 0; k < calls.size(); ++k) {
    pendings.push_back(pending_call(*calls[k].ctx, calls[k].testcase));
    pendings.back().done = [&answers, &all, k](WorkerAnswer answer) {
      answers[k] = std::move(answer);
      all.done();
    };
    all.expect();
  }
  enqueue(std::move(pendings));
  all.wait();
  for (WorkerAnswer& answer : answers) results.push_back(result_of(std::move(answer)));
  return results;
}

void HttpEvaluator::enqueue(std::vector<Pending> pendings) const {
  std::vector<Batch> ready;
  {
    std::lock_guard lock(mutex_);
    for (Pending& pending : pendings) queue_.push_back(std::move(pending));
    ready = take_batches_locked();
  }
  for (Batch& batch : ready) send(std::move(batch));
}

std::vector<HttpEvaluator::Batch> HttpEvaluator::take_batches_locked() const {
  std::vector<Batch> ready;
  while (in_flight_ < settings_.concurrency && !queue_.empty()) {
    Batch batch;
    const std::size_t size = std::min(settings_.batch, queue_.size());
    batch.reserve(size);
    for (std::size_t i = 0; i < size; ++i) {
      batch.push_back(std::move(queue_.front()));
      queue_.pop_front();
    }
    ++in_flight_;
    ready.push_back(std::move(batch));
  }
  return ready;
}

void HttpEvaluator::send(Batch batch) const {
  std::vector<std::string> lines;
  std::vector<uint64_t> ids;
  lines.reserve(batch.size());
  ids.reserve(batch.size());
  for (Pending& pending : batch) {
    lines.push_back(std::move(pending.line));
    ids.push_back(pending.id);
  }
  HttpRequest request;
  request.method = "POST";
  request.url = settings_.url;
  request.headers = settings_.headers;
  request.headers.push_back({"Content-Type", "application/json"});
  request.headers.push_back({"Accept", "application/json"});
  request.body = http_evaluator_batch_body(options_json_, lines);
  requests_sent_.fetch_add(1, std::memory_order_relaxed);
  auto waiting = std::make_shared<Batch>(std::move(batch));
  const uint64_t seed = ids.front();  // the backoff's jitter, reproducible per batch
  auto on_reply = [this, waiting, ids = std::move(ids)](HttpCallOutcome outcome) {
    std::vector<WorkerAnswer> answers;
    if (is_success(outcome.result))
      answers = read_http_evaluator_answers(outcome.result.response.body, ids);
    else {
      WorkerAnswer failed = transport_failure(outcome.result, outcome.attempts);
      if (outcome.cancelled) {
        failed.code = KRINO_CANCELLED;
        failed.text = "cancelled while waiting to try again; the last attempt: " + failed.text;
      }
      failed.text = settings_.what + ": " + failed.text;
      answers.assign(ids.size(), failed);
    }
    // The next batches are taken before any caller is resumed: once the last one is, the
    // evaluator may be destroyed, and nothing here may touch it after that.
    std::vector<Batch> ready;
    {
      std::lock_guard lock(mutex_);
      --in_flight_;
      ready = take_batches_locked();
    }
    for (std::size_t i = 0; i < waiting->size(); ++i) (*waiting)[i].done(std::move(answers[i]));
    // Batches taken hold callers not yet resumed, so the evaluator is still alive when any exist.
    for (Batch& next : ready) send(std::move(next));
  };
  send_with_retries(*client_, io_, std::move(request), settings_.timeout, settings_.retry, seed, std::move(on_reply),
                    cancellation_);
}

}  // namespace krino::core
