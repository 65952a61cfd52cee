#pragma once
// Any task, followed by a trace extractor: the task's raw output (a provider reply, an agent
// framework's trace, a replayed example's "trace") is read by the extractor the experiment names
// (`task: {kind: ..., extractor: NAME | auto}`), and the canonical trace becomes the actual outputs
// (output, toolCalls, reasoningSteps, turns) and the item's metrics (docs/plugins/traces.md).
//
// Metrics: tokens and cost come from the trace when it reports them (cost priced by the
// experiment's prices otherwise), else from the task; latency from the task when it measured one,
// else from the trace. An output no extractor can read is an item error of stage "trace" naming
// the extractor; never a crash.
#include "krino/core/usage/price_table.hpp"
#include "krino/core/task/task.hpp"
#include "krino/core/trace/extractor_choice.hpp"

#include <memory>

namespace krino::core {

class TraceExtractingTask final : public Task {
 public:
  // `prices` must outlive the task.
  TraceExtractingTask(std::unique_ptr<Task> inner, ExtractorChoice extractor, const PriceTable& prices);

  TaskResult run(const ExampleView& example, const krino_call_context& ctx) const override;
  bool calls_out() const override { return inner_->calls_out(); }
  const char* kind() const override { return inner_->kind(); }

 private:
  std::unique_ptr<Task> inner_;
  ExtractorChoice extractor_;
  const PriceTable& prices_;
};

}  // namespace krino::core
