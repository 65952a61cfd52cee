// The run_finished and experiment_finished events (docs/payloads.md): how a run or the whole
// experiment ended, with its summary. Their model, writer and reader. Header-only.
#ifndef KRINO_EVENT_RUN_FINISHED_HPP
#define KRINO_EVENT_RUN_FINISHED_HPP

#include <krino/event/judge_usage.hpp>
#include <krino/event/run_started.hpp>
#include <krino/event/values.hpp>

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::event {

// One evaluator's line in a run or experiment summary.
struct EvaluatorSummary {
  std::string name;
  std::optional<uint64_t> count;  // run summary: results from this evaluator
  std::optional<double> average_score;
  std::optional<double> std_dev;       // run: of item scores; experiment: of the per-run averages
  std::optional<double> item_std_dev;  // experiment: pooled over items
  std::optional<double> pass_rate;
  std::optional<uint64_t> null_scores;  // run summary only
};

// The `judge` member of a summary: the usage of every item, and price coverage.
struct JudgeTotals : JudgeUsage {
  std::optional<uint64_t> tokenized_items;
  std::optional<uint64_t> priced_items;
  std::string cost_coverage;  // "N/M items priced" when some tokenized items had no price, else ""
};

// A summary as reports read it. Counts are doubles: an experiment summary gives means over runs.
struct Summary {
  double run_count = 1;  // experiment summary only
  double total = 0;
  double passed = 0;
  double failed = 0;  // includes the errored items
  double errors = 0;
  double pass_rate = 0;
  std::vector<EvaluatorSummary> evaluators;  // in the document's order
  std::optional<JudgeTotals> judge;
};

// run_finished (run_index set) and experiment_finished (no run_index).
struct Finished {
  std::optional<uint32_t> run_index;
  std::string status = "completed";  // "completed" or "cancelled"
  double duration_ms = 0;
  Summary summary;
  std::optional<ShardInfo> shard;
  std::optional<MergedInfo> merged;

  bool cancelled() const { return status == "cancelled"; }
};

// Appends a run_finished event (run_index set) or experiment_finished (run_index empty). The
// summary is the document the run statistics built (docs/payloads.md, "summary").
inline void append_finished(std::string& out, std::optional<uint32_t> run_index, bool cancelled, double duration_ms,
                            const boost::json::object& summary, const std::optional<ShardInfo>& shard = std::nullopt,
                            const std::optional<MergedInfo>& merged = std::nullopt) {
  out += run_index ? R"({"event":"run_finished")" : R"({"event":"experiment_finished")";
  out += R"(,"schema":"krino.event/1","run_index":)";
  append_optional(out, run_index);
  append_key(out, "status");
  out += cancelled ? "\"cancelled\"" : "\"completed\"";
  append_key(out, "durationMs");
  krino::json::append_double(out, duration_ms);
  append_key(out, "summary");
  krino::json::append_compact_json(out, summary);
  if (shard) append_shard(out, *shard);
  if (merged) append_merged(out, *merged);
  out += '}';
}

namespace detail {

inline Summary read_summary(std::string_view object) {
  Summary s;
  std::optional<double> failed, pass_rate;
  krino::json::for_each_member(object, [&](std::string_view key, std::string_view value) {
    using krino::json::key_equals;
    if (key_equals(key, "runCount")) s.run_count = read_number(value, "summary.runCount").value_or(1);
    else if (key_equals(key, "totalCount")) s.total = read_number(value, "summary.totalCount").value_or(0);
    else if (key_equals(key, "passCount")) s.passed = read_number(value, "summary.passCount").value_or(0);
    else if (key_equals(key, "failCount")) failed = read_number(value, "summary.failCount");
    else if (key_equals(key, "errorCount")) s.errors = read_number(value, "summary.errorCount").value_or(0);
    else if (key_equals(key, "passRate")) pass_rate = read_number(value, "summary.passRate");
    else if (key_equals(key, "evaluators") && !is_null(value)) {
      krino::json::for_each_member(value, [&](std::string_view name, std::string_view o) {
        if (is_null(o) || o.front() != '{') return true;
        EvaluatorSummary e;
        e.name = krino::json::key_text(name);
        krino::json::for_each_member(o, [&](std::string_view k, std::string_view v) {
          if (key_equals(k, "count")) e.count = read_whole<uint64_t>(v, "summary.evaluators.count");
          else if (key_equals(k, "averageScore")) e.average_score = read_number(v, "summary.evaluators.averageScore");
          else if (key_equals(k, "stdDev")) e.std_dev = read_number(v, "summary.evaluators.stdDev");
          else if (key_equals(k, "itemStdDev")) e.item_std_dev = read_number(v, "summary.evaluators.itemStdDev");
          else if (key_equals(k, "passRate")) e.pass_rate = read_number(v, "summary.evaluators.passRate");
          else if (key_equals(k, "nullScores")) e.null_scores = read_whole<uint64_t>(v, "summary.evaluators.nullScores");
          return true;
        });
        s.evaluators.push_back(std::move(e));
        return true;
      });
    } else if (key_equals(key, "judge") && !is_null(value)) {
      JudgeTotals j;
      static_cast<JudgeUsage&>(j) = read_judge_usage(value, "summary.judge");
      j.tokenized_items = read_whole<uint64_t>(krino::json::find_member(value, "tokenizedItems").value_or(""), "summary.judge.tokenizedItems");
      j.priced_items = read_whole<uint64_t>(krino::json::find_member(value, "pricedItems").value_or(""), "summary.judge.pricedItems");
      j.cost_coverage = read_string(krino::json::find_member(value, "costCoverage").value_or(""), "summary.judge.costCoverage").value_or("");
      s.judge = std::move(j);
    }
    return true;
  });
  s.failed = failed.value_or(s.total - s.passed);
  s.pass_rate = pass_rate.value_or(s.total > 0 ? s.passed / s.total : 0);
  return s;
}

}  // namespace detail

inline Finished read_finished(std::string_view line) {
  Finished f;
  krino::json::for_each_member(line, [&](std::string_view key, std::string_view value) {
    using krino::json::key_equals;
    if (key_equals(key, "run_index")) f.run_index = read_whole<uint32_t>(value, "run_index");
    else if (key_equals(key, "status")) f.status = read_string(value, "status").value_or("completed");
    else if (key_equals(key, "durationMs")) f.duration_ms = read_number(value, "durationMs").value_or(0);
    else if (key_equals(key, "summary") && !detail::is_null(value)) f.summary = detail::read_summary(value);
    else if (key_equals(key, "shard")) f.shard = detail::read_shard(value);
    else if (key_equals(key, "merged")) f.merged = detail::read_merged(value);
    return true;
  });
  return f;
}

}  // namespace krino::event

#endif  // KRINO_EVENT_RUN_FINISHED_HPP
