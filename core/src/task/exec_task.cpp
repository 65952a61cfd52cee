#include "krino/core/task/exec_task.hpp"

#include "krino/core/common/await_callback.hpp"
#include "krino/core/common/io_service.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/process/child_process.hpp"
#include "krino/core/process/descriptor_limit.hpp"
#include "krino/core/process/printable_text.hpp"
#include "krino/core/process/process_run.hpp"
#include "krino/core/process/worker_failure.hpp"
#include "krino/core/process/worker_pool.hpp"
#include "krino/core/task/exec_reply.hpp"

#include <boost/asio/strand.hpp>

#include <algorithm>
#include <cmath>
#include <optional>

namespace krino::core {
namespace {

constexpr std::size_t kStdoutExcerptBytes = 200;

// The example as the program sees it: krino.example/1 without recorded outputs, on one line. Raw
// line breaks in a valid JSON document are only ever white space between tokens (strings must
// escape them), so they can become spaces.
std::string example_document(const ExampleView& example) {
  std::string document = "{";
  if (auto id = example.id_token()) {
    document += "\"id\":";
    document += *id;
    document += ',';
  }
  document += "\"inputs\":";
  document += example.section("inputs");
  document += ",\"expectedOutputs\":";
  document += example.section("expectedOutputs");
  document += ",\"metadata\":";
  document += example.section("metadata");
  document += '}';
  std::replace_if(document.begin(), document.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return document;
}

std::string with_stderr(std::string message, std::string_view tail, bool truncated) {
  return with_stderr_tail(std::move(message), tail, truncated);
}

double rounded_ms(double ms) { return std::round(ms * 1000.0) / 1000.0; }

std::string milliseconds(std::chrono::milliseconds ms) { return std::to_string(ms.count()) + " ms"; }

}  // namespace

ExecTask::ExecTask(const TaskConfig& config, const TaskEnvironment& environment, bool raw_replies)
    : options_(ExecOptions::parse(config.options, config.base_dir, environment.parallelism)),
      environment_(environment),
      raw_replies_(raw_replies) {
  options_.limits.cancelled = [host = environment.host.host()] { return host->is_cancelled(host, nullptr) != 0; };
  // Three pipe ends and a pidfd per program in flight, and room for everything else krino opens.
  const std::uint64_t in_flight = options_.mode == ExecOptions::Mode::worker ? options_.workers : environment.parallelism;
  if (auto warning = make_room_for_descriptors(4 * in_flight + 256))
    environment.host.log(KRINO_LOG_WARNING, "exec", warning->data(), warning->size());
  if (options_.mode == ExecOptions::Mode::worker) {
    pool_ = std::make_unique<WorkerPool>(environment.io.context(), options_.process, options_.limits, options_.workers,
                                         [&host = environment.host](const std::string& message) {
                                           host.log(KRINO_LOG_WARNING, "exec", message.data(), message.size());
                                         });
  }
}

ExecTask::~ExecTask() = default;

std::size_t ExecTask::workers_started() const { return pool_ ? pool_->started_count() : 0; }

ItemError ExecTask::error(krino_status code, std::string message) const {
  return ItemError{"task", "exec", code, std::move(message)};
}

TaskResult ExecTask::run(const ExampleView& example, const krino_call_context& ctx) const {
  if (options_.limits.cancelled()) return error(KRINO_CANCELLED, "the run was cancelled before the command started");
  const std::string document = example_document(example);
  return options_.mode == ExecOptions::Mode::worker ? run_on_worker(document, ctx) : run_per_example(document, ctx);
}

TaskResult ExecTask::run_per_example(const std::string& example,
                                                              const krino_call_context& ctx) const {
  // The call's context, for programs that seed their own randomness or name their logs.
  const std::vector<std::string> context = {"KRINO_RUN_INDEX=" + std::to_string(ctx.run_index),
                                            "KRINO_ITEM_INDEX=" + std::to_string(ctx.item_index),
                                            "KRINO_SEED=" + std::to_string(ctx.seed)};
  const auto started = ProcessRun::Clock::now();
  ChildProcess::Spawned spawned =
      ChildProcess::spawn(boost::asio::make_strand(environment_.io.context()), options_.process, context);
  if (!spawned.process) return error(KRINO_UNAVAILABLE, spawned.error);

  ProcessRunResult result = await_callback<ProcessRunResult>([&](auto done) {
    ProcessRun::start(std::move(spawned.process), example + "\n", options_.limits, started, std::move(done));
  });

  auto fail = [&](krino_status code, std::string message) {
    return error(code, with_stderr(std::move(message), result.stderr_tail, result.stderr_truncated));
  };
  switch (result.ending) {
    case ProcessRunResult::Ending::timed_out:
      return fail(KRINO_DEADLINE_EXCEEDED, "the command timed out after " + milliseconds(options_.limits.timeout) +
                                               " (timeout_ms); its process group was stopped");
    case ProcessRunResult::Ending::cancelled:
      return fail(KRINO_CANCELLED, "the run was cancelled; the command's process group was stopped");
    case ProcessRunResult::Ending::output_too_large:
      return fail(KRINO_RESOURCE_EXHAUSTED, "the command wrote more than " +
                                                std::to_string(options_.limits.max_output_bytes) +
                                                " bytes to stdout (max_output_bytes); its process group was stopped");
    case ProcessRunResult::Ending::exited: break;
  }
  if (!result.status.success()) {
    std::string message = "the command " + result.status.how_it_ended();
    // Some programs report their failure on stdout; show it when stderr has nothing to say.
    if (printable_tail(result.stderr_tail, result.stderr_tail.size()).empty() && !result.output.empty())
      message += "; stdout: " + printable_head(result.output, kStdoutExcerptBytes);
    return fail(KRINO_UNKNOWN, std::move(message));
  }

  ExecReply reply = read_exec_reply(result.output, ExecReplyRules{std::nullopt, &environment_.prices, options_.model, raw_replies_});
  switch (reply.kind) {
    case ExecReply::Kind::outputs:
      reply.output.metrics->latency_ms = rounded_ms(result.elapsed_ms);
      return std::move(reply.output);
    case ExecReply::Kind::program_error:
      return fail(KRINO_UNKNOWN, "the command reported an error: " + reply.message);
    case ExecReply::Kind::invalid_envelope:
      return fail(KRINO_INTERNAL, "the command printed " + reply.message);
    case ExecReply::Kind::not_a_reply:
      return fail(KRINO_INTERNAL, "the command printed " + reply.message +
                                      " (stdout carries only the reply; write logs to stderr)");
  }
  return fail(KRINO_INTERNAL, "unreachable");
}

TaskResult ExecTask::run_on_worker(const std::string& example,
                                                            const krino_call_context& ctx) const {
  const std::uint64_t id = next_request_id_.fetch_add(1, std::memory_order_relaxed);
  const std::string request = "{\"id\":" + std::to_string(id) + ",\"example\":" + example +
                              ",\"context\":{\"runIndex\":" + std::to_string(ctx.run_index) +
                              ",\"itemIndex\":" + std::to_string(ctx.item_index) +
                              ",\"seed\":" + std::to_string(ctx.seed) + "}}\n";
  // A worker that exited between requests is noticed when the request is about to be written; the
  // request then goes to another worker (a few times at most: a program that cannot stay up fails
  // the item once it has been sent the request).
  WorkerPool::Exchange sent = pool_->exchange(request, std::nullopt, options_.limits.cancelled);
  if (sent.kind == WorkerPool::Exchange::Kind::no_worker)
    return error(KRINO_UNAVAILABLE, "could not start a worker: " + sent.error);
  if (sent.kind == WorkerPool::Exchange::Kind::cancelled)
    return error(KRINO_CANCELLED, "the run was cancelled before the request was sent");
  const WorkerReply& reply = sent.reply;
  WorkerProcess* const worker = sent.worker.get();

  const std::string who = "the worker (pid " + std::to_string(worker->pid()) + ")";
  auto fail = [&](krino_status code, std::string message, const WorkerExit& exit) {
    return error(code, with_stderr(std::move(message), exit.stderr_tail, exit.stderr_truncated));
  };
  if (reply.outcome != WorkerReply::Outcome::answered) {
    WorkerFailure failure = describe_worker_failure(reply, options_.limits, options_.process.memory_limit_bytes, who);
    return error(failure.code, std::move(failure.message));
  }

  ExecReply read = read_exec_reply(reply.line, ExecReplyRules{id, &environment_.prices, options_.model, raw_replies_});
  switch (read.kind) {
    case ExecReply::Kind::outputs:
      read.output.metrics->latency_ms = rounded_ms(reply.elapsed_ms);
      return std::move(read.output);
    case ExecReply::Kind::program_error:
      return error(KRINO_UNKNOWN, "the worker reported an error: " + read.message);
    case ExecReply::Kind::invalid_envelope:
      return error(KRINO_INTERNAL, who + " answered with " + read.message);
    case ExecReply::Kind::not_a_reply: break;
  }
  // Out of step with the protocol: nothing it says can be matched to a request any more.
  WorkerExit exit = await_callback<WorkerExit>([&](auto done) { worker->stop(std::move(done)); });
  return fail(KRINO_INTERNAL, who + " answered with " + read.message + "; it was stopped (" + exit.status.describe() +
                                  ") and will be replaced (stdout carries only replies; write logs to stderr)", exit);
}

}  // namespace krino::core
