#pragma once
// A task produces the actual outputs for one example: the call to the system under test.
//
// Tasks are built into the host (replay, exec, http, openai and anthropic, conversation). A task that
// reaches out to a system under test says so with calls_out(), and the runner then admits at most
// `parallelism` of its calls at once; work that stays in-process is not limited by it. replay, http
// and exec can hand their raw output to a trace extractor instead (trace_extracting_task.hpp).
#include "krino/core/common/item_error.hpp"
#include "krino/core/common/status.hpp"
#include "krino/core/task/example_view.hpp"
#include "krino/core/usage/call_metrics.hpp"

#include <krino/plugin.h>

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <variant>

namespace krino::core {

struct TaskOutput {
  std::string actual_outputs;  // a JSON object, as text
  std::optional<CallMetrics> metrics;
};

// The actual outputs, or why the item has none (common/status.hpp: the host's error convention).
using TaskResult = StatusOr<TaskOutput, ItemError>;

class Task {
 public:
  virtual ~Task() = default;

  // The actual outputs for `example`, or why there are none.
  // [thread-safe]: called concurrently for different examples.
  virtual TaskResult run(const ExampleView& example, const krino_call_context& ctx) const = 0;

  // True when run() calls a system under test (and so counts against `parallelism`).
  virtual bool calls_out() const = 0;

  virtual const char* kind() const = 0;
};

}  // namespace krino::core
