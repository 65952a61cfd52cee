#pragma once
// A task produces the actual outputs for one example: the call to the system under test.
//
// Tasks are built into the host (replay today; exec, http and model-calling tasks next). A task that
// reaches out to a system under test says so with calls_out(), and the runner then admits at most
// `parallelism` of its calls at once; work that stays in-process is not limited by it.
#include "krino/core/runner/item_error.hpp"
#include "krino/core/task/example_view.hpp"

#include <krino/event/call_metrics.hpp>
#include <krino/plugin.h>

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <variant>

namespace krino::core {

// Measurements of one call (spec §9); every field may be unknown. The one model is the event
// codec's, which writes it as an item's `metrics`.
using CallMetrics = krino::event::CallMetrics;

// Recorded metrics from a dataset (a replayed call): read leniently, since users write them; a
// member of the wrong type is unknown.
CallMetrics call_metrics_from_json(const boost::json::object& object);

struct TaskOutput {
  std::string actual_outputs;  // a JSON object, as text
  std::optional<CallMetrics> metrics;
};

class Task {
 public:
  virtual ~Task() = default;

  // The actual outputs for `example`, or why there are none.
  // [thread-safe]: called concurrently for different examples.
  virtual std::variant<TaskOutput, ItemError> run(const ExampleView& example, const krino_call_context& ctx) const = 0;

  // True when run() calls a system under test (and so counts against `parallelism`).
  virtual bool calls_out() const = 0;

  virtual const char* kind() const = 0;
};

}  // namespace krino::core
