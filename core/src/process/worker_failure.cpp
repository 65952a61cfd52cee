#include "krino/core/process/worker_failure.hpp"

#include "krino/core/process/printable_text.hpp"

namespace krino::core {

std::string with_stderr_tail(std::string message, std::string_view tail, bool truncated) {
  std::string printable = printable_tail(tail, tail.size(), truncated);
  if (!printable.empty() && printable != "...") message.append("; stderr: ").append(printable);
  return message;
}

WorkerFailure describe_worker_failure(const WorkerReply& reply, const ProcessLimits& limits,
                                      std::uint64_t memory_limit_bytes, std::string_view who) {
  WorkerFailure failure;
  std::string& message = failure.message;
  message.assign(who);
  switch (reply.outcome) {
    case WorkerReply::Outcome::answered:
      failure.code = KRINO_INTERNAL;
      message.append(" answered");
      return failure;
    case WorkerReply::Outcome::not_sent:
      failure.code = KRINO_UNAVAILABLE;
      message = "three workers in a row had exited before they could be sent the request";
      return failure;
    case WorkerReply::Outcome::timed_out:
      failure.code = KRINO_DEADLINE_EXCEEDED;
      message.append(" did not answer within ").append(std::to_string(limits.timeout.count()));
      message.append(" ms (timeout_ms); it was stopped (").append(reply.exit.status.describe());
      message.append(") and will be replaced");
      break;
    case WorkerReply::Outcome::cancelled:
      failure.code = KRINO_CANCELLED;
      message = "the run was cancelled; ";
      message.append(who).append(" was stopped");
      break;
    case WorkerReply::Outcome::died:
      failure.code = KRINO_UNKNOWN;
      message.append(" ").append(reply.exit.status.how_it_ended());
      if (memory_limit_bytes > 0 && !reply.exit.status.success()) {
        message.append(" (under memory_mb: ").append(std::to_string(memory_limit_bytes >> 20));
        message.append(" MB of address space; running out of it ends a program this way)");
      }
      message.append(" before answering; a new worker takes the next request");
      break;
    case WorkerReply::Outcome::interrupted:
      failure.code = KRINO_UNAVAILABLE;
      message.append(" ").append(reply.exit.status.how_it_ended());
      message.append(" before answering, over an earlier request in flight at it; this request had already been "
                     "retried once on another worker that ended the same way");
      break;
    case WorkerReply::Outcome::reply_too_long:
      failure.code = KRINO_RESOURCE_EXHAUSTED;
      message.append(" wrote more than ").append(std::to_string(limits.max_output_bytes));
      message.append(" bytes without ending its reply line (max_output_bytes); it was stopped and will be replaced");
      break;
  }
  message = with_stderr_tail(std::move(message), reply.exit.stderr_tail, reply.exit.stderr_truncated);
  return failure;
}

}  // namespace krino::core
