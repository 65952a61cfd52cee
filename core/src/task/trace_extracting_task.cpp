#include "krino/core/task/trace_extracting_task.hpp"

#include "krino/core/trace/canonical_trace.hpp"

#include <stdexcept>
#include <string>

namespace krino::core {

TraceExtractingTask::TraceExtractingTask(std::unique_ptr<Task> inner, ExtractorChoice extractor, const PriceTable& prices)
    : inner_(std::move(inner)), extractor_(std::move(extractor)), prices_(prices) {}

TaskResult TraceExtractingTask::run(const ExampleView& example, const krino_call_context& ctx) const {
  auto ran = inner_->run(example, ctx);
  if (std::holds_alternative<ItemError>(ran)) return ran;
  TaskOutput& raw = std::get<TaskOutput>(ran);

  auto chosen = extractor_.choose(raw.actual_outputs);
  if (auto* failure = std::get_if<ExtractionFailure>(&chosen))
    return ItemError{"trace", extractor_.label(), failure->code, failure->message};
  const TraceExtractor& extractor = *std::get<const TraceExtractor*>(chosen);

  auto extracted = extractor.extract(raw.actual_outputs);
  if (auto* failure = std::get_if<ExtractionFailure>(&extracted))
    return ItemError{"trace", extractor.name(), failure->code, failure->message};
  try {
    const CanonicalTrace trace(std::get<std::string>(extracted));
    // A replayed example's recorded outputs stay beside the trace's; other tasks' raw output is the
    // trace itself.
    std::string_view recorded;
    if (std::string_view(inner_->kind()) == "replay")
      if (auto outputs = example.raw("actualOutputs"); outputs && is_object_span(*outputs)) recorded = *outputs;
    TaskOutput out;
    out.actual_outputs = trace.actual_outputs(recorded);
    CallMetrics metrics = trace.metrics(prices_);
    if (raw.metrics) {
      if (!metrics.tokens_in && !metrics.tokens_out) {
        metrics.tokens_in = raw.metrics->tokens_in;
        metrics.tokens_out = raw.metrics->tokens_out;
      }
      if (!metrics.cost_usd) metrics.cost_usd = raw.metrics->cost_usd;
      if (raw.metrics->latency_ms) metrics.latency_ms = raw.metrics->latency_ms;
    }
    out.metrics = metrics;
    return out;
  } catch (const std::invalid_argument& e) {
    return ItemError{"trace", extractor.name(), KRINO_INTERNAL,
                     std::string("the extractor wrote a malformed trace: ") + e.what()};
  }
}

}  // namespace krino::core
