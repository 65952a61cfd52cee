#include "events.hpp"

#include <krino/report/events.hpp>


namespace krino::console {
namespace {

Summary to_summary(const report::Finished& finished) {
  Summary s;
  s.status = finished.status;
  s.duration_ms = finished.duration_ms;
  const report::Summary& in = finished.summary;
  s.run_count = in.run_count;
  s.total = in.total;
  s.passed = in.passed;
  s.failed = in.failed;
  s.errors = in.errors;
  s.pass_rate = in.pass_rate;
  if (in.judge) {
    Summary::Judge j;
    j.calls = in.judge->calls;
    j.cached = in.judge->cached_calls;
    j.retries = in.judge->retries;
    j.failed = in.judge->failed_calls;
    j.tokens_in = in.judge->tokens_in;
    j.tokens_out = in.judge->tokens_out;
    j.cost_usd = in.judge->cost_usd;
    j.coverage = in.judge->cost_coverage;
    s.judge = j;
  }
  for (const auto& e : in.evaluators) {
    EvaluatorStats stats;
    stats.name = e.name;
    stats.average_score = e.average_score;
    stats.std_dev = e.std_dev;
    stats.item_std_dev = e.item_std_dev;
    stats.pass_rate = e.pass_rate;
    stats.null_scores = e.null_scores.value_or(0);
    s.evaluators.push_back(std::move(stats));
  }
  return s;
}

}  // namespace

RunStart read_run_started(const boost::json::object& event) {
  const report::RunStarted run = report::read_run_started(event);
  RunStart start;
  start.run_index = run.run_index;
  start.runs = run.runs;
  start.experiment_name = run.experiment_name;
  start.size_hint = run.size_hint;
  return start;
}

RunFinish read_run_finished(const boost::json::object& event) {
  const report::Finished finished = report::read_finished(event);
  RunFinish run;
  run.run_index = finished.run_index.value_or(0);
  run.summary = to_summary(finished);
  return run;
}

Summary read_experiment_finished(const boost::json::object& event) { return to_summary(report::read_finished(event)); }

}  // namespace krino::console
