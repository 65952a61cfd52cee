#pragma once
// The replay task: the actual outputs were recorded earlier and travel with the example
// ("actualOutputs", and optionally "metrics"), which is how logged runs are scored offline.
// With a trace extractor (TraceExtractingTask), what was recorded is the raw trace instead: the
// example's "trace" member, handed over as it is (a JSON string member is taken as the text of the
// trace, for datasets that store traces as text).
#include "krino/core/task/task.hpp"

#include <optional>
#include <string>

namespace krino::core {

// What a replay hands on: the recorded actual outputs, or the recorded raw trace.
enum class ReplaySource { actual_outputs, trace };

class ReplayTask final : public Task {
 public:
  // Options: none yet; unknown options are a configuration error.
  explicit ReplayTask(const boost::json::object& options, ReplaySource source = ReplaySource::actual_outputs);

  TaskResult run(const ExampleView& example, const krino_call_context& ctx) const override;
  bool calls_out() const override { return false; }
  const char* kind() const override { return "replay"; }

 private:
  static std::optional<CallMetrics> recorded_metrics(const ExampleView& example);
  static TaskResult run_trace(const ExampleView& example);

  ReplaySource source_;
};

}  // namespace krino::core
