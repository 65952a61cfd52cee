// Typed views of krino.event/1 documents (docs/payloads.md) for reporters. Header-only.
//
// Readers are lenient, as docs/json-output.md asks: a missing, null or mistyped field reads as
// "unknown" (an empty optional, an empty string, zero), never as an error, and unknown fields are
// ignored. Pointers into the event (an item's example sections) are valid only while the event is.
#ifndef KRINO_REPORT_EVENTS_HPP
#define KRINO_REPORT_EVENTS_HPP

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::report {

namespace detail {

inline const boost::json::value* member(const boost::json::object& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() || it->value().is_null() ? nullptr : &it->value();
}

inline std::optional<double> number(const boost::json::object& object, std::string_view key) {
  const auto* v = member(object, key);
  if (v == nullptr) return std::nullopt;
  if (v->is_double()) return v->get_double();
  if (v->is_int64()) return static_cast<double>(v->get_int64());
  if (v->is_uint64()) return static_cast<double>(v->get_uint64());
  return std::nullopt;
}

inline std::optional<uint64_t> whole_number(const boost::json::object& object, std::string_view key) {
  const auto* v = member(object, key);
  if (v == nullptr) return std::nullopt;
  if (v->is_uint64()) return v->get_uint64();
  if (v->is_int64() && v->get_int64() >= 0) return static_cast<uint64_t>(v->get_int64());
  if (v->is_double() && v->get_double() >= 0 && v->get_double() < 1.8e19) return static_cast<uint64_t>(v->get_double());
  return std::nullopt;
}

inline uint32_t small_number(const boost::json::object& object, std::string_view key, uint32_t fallback) {
  const auto value = whole_number(object, key);
  if (!value) return fallback;
  return *value > std::numeric_limits<uint32_t>::max() ? std::numeric_limits<uint32_t>::max()
                                                       : static_cast<uint32_t>(*value);
}

inline std::optional<std::string> text(const boost::json::object& object, std::string_view key) {
  const auto* v = member(object, key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}

inline bool flag(const boost::json::object& object, std::string_view key) {
  const auto* v = member(object, key);
  return v != nullptr && v->is_bool() && v->get_bool();
}

inline const boost::json::object* child(const boost::json::object& object, std::string_view key) {
  const auto* v = member(object, key);
  return v != nullptr && v->is_object() ? &v->get_object() : nullptr;
}

}  // namespace detail

// The "event" field of a document: run_started, item_finished, run_finished, experiment_finished.
inline std::string_view event_type(const boost::json::object& event) {
  const auto* v = detail::member(event, "event");
  return v != nullptr && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

struct EvaluatorInfo {
  std::string name;
  std::string component;
  std::optional<double> threshold;
};

struct RunStarted {
  uint32_t run_index = 0;
  uint32_t runs = 1;
  std::string experiment_name;
  std::string experiment_description;
  boost::json::object experiment_metadata;
  std::string dataset_uri;
  std::string dataset_name;
  std::optional<uint64_t> size_hint;
  std::vector<EvaluatorInfo> evaluators;
  std::optional<uint64_t> parallelism;
  std::string timestamp;  // ISO 8601, UTC
};

inline RunStarted read_run_started(const boost::json::object& event) {
  using namespace detail;
  RunStarted r;
  r.run_index = small_number(event, "run_index", 0);
  r.runs = small_number(event, "runs", 1);
  if (r.runs == 0) r.runs = 1;
  if (const auto* experiment = child(event, "experiment")) {
    r.experiment_name = text(*experiment, "name").value_or("");
    r.experiment_description = text(*experiment, "description").value_or("");
    if (const auto* metadata = child(*experiment, "metadata")) r.experiment_metadata = *metadata;
  }
  if (const auto* dataset = child(event, "dataset")) {
    r.dataset_uri = text(*dataset, "uri").value_or("");
    r.dataset_name = text(*dataset, "name").value_or("");
    r.size_hint = whole_number(*dataset, "sizeHint");
  }
  if (const auto* evaluators = member(event, "evaluators"); evaluators != nullptr && evaluators->is_array()) {
    for (const auto& entry : evaluators->get_array()) {
      if (!entry.is_object()) continue;
      EvaluatorInfo info;
      info.name = text(entry.get_object(), "name").value_or("");
      info.component = text(entry.get_object(), "component").value_or("");
      info.threshold = number(entry.get_object(), "threshold");
      if (!info.name.empty()) r.evaluators.push_back(std::move(info));
    }
  }
  r.parallelism = whole_number(event, "parallelism");
  r.timestamp = text(event, "timestamp").value_or("");
  return r;
}

// One evaluator result of an item.
struct Result {
  std::string name;
  std::optional<double> score;  // empty: the evaluator could not compute one
  bool success = false;
  std::optional<double> threshold;
  std::string reason;
  // The evaluator said the check did not apply (`"metadata": {"skipped": true}`).
  bool skipped = false;
};

struct ItemError {
  std::string stage;  // dataset, task, evaluator
  std::string component;
  std::string code;  // a status name: INVALID_ARGUMENT, ...
  std::string message;
};

// The task's call metrics (`metrics`), all optional.
struct CallMetrics {
  std::optional<double> tokens_in;
  std::optional<double> tokens_out;
  std::optional<double> cost_usd;
  std::optional<double> latency_ms;
};

// What the item's judge calls cost (`judge`), when it asked a judge.
struct JudgeUsage {
  double calls = 0;
  double cached_calls = 0;
  double failed_calls = 0;
  double retries = 0;
  std::optional<double> tokens_in;
  std::optional<double> tokens_out;
  std::optional<double> cost_usd;
};

// Reads a `judge` member (of an item, a run or an experiment).
inline JudgeUsage read_judge_usage(const boost::json::object& judge) {
  using namespace detail;
  JudgeUsage j;
  j.calls = number(judge, "calls").value_or(0);
  j.cached_calls = number(judge, "cachedCalls").value_or(0);
  j.failed_calls = number(judge, "failedCalls").value_or(0);
  j.retries = number(judge, "retries").value_or(0);
  j.tokens_in = number(judge, "tokensIn");
  j.tokens_out = number(judge, "tokensOut");
  j.cost_usd = number(judge, "costUsd");
  return j;
}

// How a report classifies an item. An item with an error is `errored`; otherwise a failing result
// makes it `failed`; an item that passed is `skipped` when none of its results checked anything
// (it has none, or every one says it was skipped), else `passed`.
enum class ItemStatus { passed, failed, errored, skipped };

inline std::string_view status_name(ItemStatus status) {
  switch (status) {
    case ItemStatus::passed:
      return "passed";
    case ItemStatus::failed:
      return "failed";
    case ItemStatus::errored:
      return "error";
    case ItemStatus::skipped:
      return "skipped";
  }
  return "";
}

struct ItemFinished {
  uint32_t run_index = 0;
  uint64_t index = 0;
  std::optional<std::string> id;
  std::optional<std::string> location;  // "data.jsonl:13"
  bool success = false;
  std::optional<ItemError> error;
  std::vector<Result> results;
  std::optional<CallMetrics> metrics;
  std::optional<JudgeUsage> judge;
  std::optional<double> duration_ms;
  // The example's sections, straight from the event (null when absent).
  const boost::json::value* inputs = nullptr;
  const boost::json::value* expected_outputs = nullptr;
  const boost::json::value* actual_outputs = nullptr;
  const boost::json::value* metadata = nullptr;

  ItemStatus status() const {
    if (error) return ItemStatus::errored;
    bool checked = false;
    for (const auto& r : results) {
      if (!r.success) return ItemStatus::failed;
      checked = checked || !r.skipped;
    }
    if (!success) return ItemStatus::failed;
    return checked ? ItemStatus::passed : ItemStatus::skipped;
  }

  // "q-13" for an item with an id, else "#12" (the zero-based dataset position).
  std::string label() const { return id ? *id : "#" + std::to_string(index); }
};

inline ItemFinished read_item_finished(const boost::json::object& event) {
  using namespace detail;
  ItemFinished item;
  item.run_index = small_number(event, "run_index", 0);
  item.index = whole_number(event, "index").value_or(0);
  item.id = text(event, "id");
  if (!item.id) {
    // Ids are strings in what krino writes; a number from another writer still identifies.
    if (const auto* id = member(event, "id"); id != nullptr && (id->is_int64() || id->is_uint64()))
      item.id = id->is_int64() ? std::to_string(id->get_int64()) : std::to_string(id->get_uint64());
  }
  item.location = text(event, "location");
  item.success = flag(event, "success");
  if (const auto* error = child(event, "error")) {
    ItemError e;
    e.stage = text(*error, "stage").value_or("");
    e.component = text(*error, "component").value_or("");
    e.code = text(*error, "code").value_or("");
    e.message = text(*error, "message").value_or("");
    item.error = std::move(e);
  }
  if (const auto* results = member(event, "results"); results != nullptr && results->is_array()) {
    for (const auto& entry : results->get_array()) {
      if (!entry.is_object()) continue;
      const auto& o = entry.get_object();
      Result r;
      r.name = text(o, "name").value_or("");
      r.score = number(o, "score");
      r.success = flag(o, "success");
      r.threshold = number(o, "threshold");
      r.reason = text(o, "reason").value_or("");
      if (const auto* metadata = child(o, "metadata")) r.skipped = flag(*metadata, "skipped");
      item.results.push_back(std::move(r));
    }
  }
  if (const auto* metrics = child(event, "metrics")) {
    CallMetrics m;
    m.tokens_in = number(*metrics, "tokensIn");
    m.tokens_out = number(*metrics, "tokensOut");
    m.cost_usd = number(*metrics, "costUsd");
    m.latency_ms = number(*metrics, "latencyMs");
    item.metrics = m;
  }
  if (const auto* judge = child(event, "judge")) item.judge = read_judge_usage(*judge);
  item.duration_ms = number(event, "durationMs");
  item.inputs = member(event, "inputs");
  item.expected_outputs = member(event, "expectedOutputs");
  item.actual_outputs = member(event, "actualOutputs");
  item.metadata = member(event, "metadata");
  return item;
}

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

// The `judge` member of a run or experiment summary: the usage of every item, and price coverage.
struct JudgeTotals : JudgeUsage {
  std::optional<uint64_t> tokenized_items;
  std::optional<uint64_t> priced_items;
  std::string cost_coverage;  // "N/M items priced" when some tokenized items had no price, else ""
};

struct Summary {
  double run_count = 1;  // experiment summary only
  double total = 0;      // per run (a mean over runs in the experiment summary)
  double passed = 0;
  double failed = 0;  // includes the errored items
  double errors = 0;
  double pass_rate = 0;
  std::vector<EvaluatorSummary> evaluators;  // in the document's order
  std::optional<JudgeTotals> judge;
};

// run_finished and experiment_finished.
struct Finished {
  std::optional<uint32_t> run_index;  // empty for experiment_finished
  std::string status;                 // "completed" or "cancelled"
  double duration_ms = 0;
  Summary summary;

  bool cancelled() const { return status == "cancelled"; }
};

inline Finished read_finished(const boost::json::object& event) {
  using namespace detail;
  Finished f;
  if (member(event, "run_index") != nullptr) f.run_index = small_number(event, "run_index", 0);
  f.status = text(event, "status").value_or("completed");
  f.duration_ms = number(event, "durationMs").value_or(0);
  const auto* summary = child(event, "summary");
  if (summary == nullptr) return f;
  Summary& s = f.summary;
  s.run_count = number(*summary, "runCount").value_or(1);
  s.total = number(*summary, "totalCount").value_or(0);
  s.passed = number(*summary, "passCount").value_or(0);
  s.failed = number(*summary, "failCount").value_or(s.total - s.passed);
  s.errors = number(*summary, "errorCount").value_or(0);
  s.pass_rate = number(*summary, "passRate").value_or(s.total > 0 ? s.passed / s.total : 0);
  if (const auto* evaluators = child(*summary, "evaluators")) {
    for (const auto& entry : *evaluators) {
      if (!entry.value().is_object()) continue;
      const auto& o = entry.value().get_object();
      EvaluatorSummary e;
      e.name = std::string(entry.key());
      e.count = whole_number(o, "count");
      e.average_score = number(o, "averageScore");
      e.std_dev = number(o, "stdDev");
      e.item_std_dev = number(o, "itemStdDev");
      e.pass_rate = number(o, "passRate");
      e.null_scores = whole_number(o, "nullScores");
      s.evaluators.push_back(std::move(e));
    }
  }
  if (const auto* judge = child(*summary, "judge")) {
    JudgeTotals j;
    static_cast<JudgeUsage&>(j) = read_judge_usage(*judge);
    j.tokenized_items = whole_number(*judge, "tokenizedItems");
    j.priced_items = whole_number(*judge, "pricedItems");
    j.cost_coverage = text(*judge, "costCoverage").value_or("");
    s.judge = std::move(j);
  }
  return f;
}

}  // namespace krino::report

#endif  // KRINO_REPORT_EVENTS_HPP
