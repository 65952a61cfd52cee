#pragma once
// The words of an item error for a worker request that got no answer: what happened, the limit
// that was hit (by its option name, so the user knows what to change), how the process ended, and
// the end of its stderr. One wording for every kind of worker (exec task, evaluators).
#include "krino/core/process/process_limits.hpp"
#include "krino/core/process/worker_process.hpp"

#include <krino/plugin.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace krino::core {

struct WorkerFailure {
  krino_status code = KRINO_UNKNOWN;
  std::string message;
};

// For every outcome but `answered`. `who` names the worker ("the worker (pid 12)");
// `memory_limit_bytes` (0: none) is named when a worker died, as running out of it is the likely
// cause of a crash under a limit.
WorkerFailure describe_worker_failure(const WorkerReply& reply, const ProcessLimits& limits,
                                      std::uint64_t memory_limit_bytes, std::string_view who);

// `message` followed by "; stderr: <its printable tail>" when there is one.
std::string with_stderr_tail(std::string message, std::string_view tail, bool truncated);

}  // namespace krino::core
