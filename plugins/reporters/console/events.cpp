#include "events.hpp"

#include <boost/json/value.hpp>

#include <algorithm>
#include <limits>
#include <string_view>

namespace krino::console {
namespace {

const boost::json::value* member(const boost::json::object& object, std::string_view key) {
  auto it = object.find(key);
  return it == object.end() || it->value().is_null() ? nullptr : &it->value();
}

std::optional<double> number(const boost::json::object& object, std::string_view key) {
  const auto* v = member(object, key);
  if (v == nullptr) return std::nullopt;
  if (v->is_double()) return v->get_double();
  if (v->is_int64()) return static_cast<double>(v->get_int64());
  if (v->is_uint64()) return static_cast<double>(v->get_uint64());
  return std::nullopt;
}

std::optional<uint64_t> unsigned_number(const boost::json::object& object, std::string_view key) {
  const auto* v = member(object, key);
  if (v == nullptr) return std::nullopt;
  if (v->is_uint64()) return v->get_uint64();
  if (v->is_int64() && v->get_int64() >= 0) return static_cast<uint64_t>(v->get_int64());
  if (v->is_double() && v->get_double() >= 0 && v->get_double() < 1.8e19) return static_cast<uint64_t>(v->get_double());
  return std::nullopt;
}

uint32_t run_index(const boost::json::object& object, std::string_view key) {
  const auto value = unsigned_number(object, key).value_or(0);
  return value > std::numeric_limits<uint32_t>::max() ? std::numeric_limits<uint32_t>::max()
                                                      : static_cast<uint32_t>(value);
}

std::optional<std::string> text(const boost::json::object& object, std::string_view key) {
  const auto* v = member(object, key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}

const boost::json::object* child(const boost::json::object& object, std::string_view key) {
  const auto* v = member(object, key);
  return v != nullptr && v->is_object() ? &v->get_object() : nullptr;
}

Summary read_summary(const boost::json::object& event) {
  Summary s;
  s.status = text(event, "status").value_or("completed");
  s.duration_ms = number(event, "durationMs").value_or(0);
  const auto* summary = child(event, "summary");
  if (summary == nullptr) return s;
  s.run_count = number(*summary, "runCount").value_or(1);
  s.total = number(*summary, "totalCount").value_or(0);
  s.passed = number(*summary, "passCount").value_or(0);
  s.failed = number(*summary, "failCount").value_or(s.total - s.passed);
  s.errors = number(*summary, "errorCount").value_or(0);
  s.pass_rate = number(*summary, "passRate").value_or(s.total > 0 ? s.passed / s.total : 0);
  if (const auto* judge = child(*summary, "judge")) {
    Summary::Judge j;
    j.calls = number(*judge, "calls").value_or(0);
    j.cached = number(*judge, "cachedCalls").value_or(0);
    j.retries = number(*judge, "retries").value_or(0);
    j.failed = number(*judge, "failedCalls").value_or(0);
    j.tokens_in = number(*judge, "tokensIn");
    j.tokens_out = number(*judge, "tokensOut");
    j.cost_usd = number(*judge, "costUsd");
    j.coverage = text(*judge, "costCoverage").value_or("");
    s.judge = j;
  }
  if (const auto* evaluators = child(*summary, "evaluators")) {
    for (const auto& entry : *evaluators) {
      if (!entry.value().is_object()) continue;
      const auto& o = entry.value().get_object();
      EvaluatorStats stats;
      stats.name = std::string(entry.key());
      stats.average_score = number(o, "averageScore");
      stats.std_dev = number(o, "stdDev");
      stats.item_std_dev = number(o, "itemStdDev");
      stats.pass_rate = number(o, "passRate");
      stats.null_scores = unsigned_number(o, "nullScores").value_or(0);
      s.evaluators.push_back(std::move(stats));
    }
  }
  return s;
}

}  // namespace

RunStart read_run_started(const boost::json::object& event) {
  RunStart start;
  start.run_index = run_index(event, "run_index");
  start.runs = std::max<uint32_t>(1, run_index(event, "runs"));
  if (const auto* experiment = child(event, "experiment"))
    start.experiment_name = text(*experiment, "name").value_or("");
  if (const auto* dataset = child(event, "dataset")) start.size_hint = unsigned_number(*dataset, "sizeHint");
  return start;
}

RunFinish read_run_finished(const boost::json::object& event) {
  RunFinish finish;
  finish.run_index = run_index(event, "run_index");
  finish.summary = read_summary(event);
  return finish;
}

Summary read_experiment_finished(const boost::json::object& event) { return read_summary(event); }

}  // namespace krino::console
