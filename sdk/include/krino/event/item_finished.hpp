// The item_finished event (docs/payloads.md): one scored (or failed) example. The one model of it,
// its one writer and its one reader. Header-only.
//
// An item is mostly bytes that pass through: the example's sections and each evaluator's result
// document are kept as the exact JSON text they were written as (views), so writing an event copies
// them and reading one finds them without building a document. Small members are decoded.
//
// Adding a member to the event is a change here: the struct, append_item_finished and
// read_item_finished.
#ifndef KRINO_EVENT_ITEM_FINISHED_HPP
#define KRINO_EVENT_ITEM_FINISHED_HPP

#include <krino/event/call_metrics.hpp>
#include <krino/event/judge_usage.hpp>
#include <krino/event/values.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace krino::event {

// Why an item could not be scored (docs/payloads.md, "error").
struct ItemError {
  std::string stage;      // "dataset", "task" or "evaluator"
  std::string component;  // the evaluator's name, the task kind, or the resolver
  std::string code;       // a status name: INVALID_ARGUMENT, ...
  std::string message;
};

// One evaluator's result on the item: its krino.evalresult/1 document as written, and what
// summaries, gates and reports read of it.
struct ItemResult {
  std::string_view json;  // the result document, compact
  std::string name;
  std::optional<double> score;  // empty: the evaluator could not compute one
  bool success = false;
  std::optional<double> threshold;
  std::string reason;
  bool skipped = false;  // the evaluator said the check did not apply (`"metadata": {"skipped": true}`)
};

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
  uint64_t index = 0;              // zero-based position in the dataset
  std::string_view id;             // the example's id as a JSON token ("\"q-1\"", 7); empty: none
  std::string_view dataset_item_id;  // the dataset's own id of the example, a JSON token; empty: none
  std::optional<std::string> location;  // "data.jsonl:13"
  bool success = false;
  std::optional<ItemError> error;
  std::vector<ItemResult> results;
  std::optional<CallMetrics> metrics;
  // Judge calls the item made, in all and per evaluator; present only when it asked a judge.
  std::optional<JudgeUsage> judge;
  std::vector<std::pair<std::string, JudgeUsage>> judge_by_evaluator;
  std::optional<double> duration_ms;
  // The example's sections and the task's output, as JSON text; empty: absent (written as null).
  std::string_view inputs;
  std::string_view expected_outputs;
  std::string_view actual_outputs;
  std::string_view metadata;

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

  // The id as text ("q-13"; a numeric id as its digits), or nullopt when the item has none.
  std::optional<std::string> id_text() const {
    if (id.empty() || id == "null") return std::nullopt;
    if (id.front() == '"') return read_string(id, "id");
    return std::string(id);
  }

  // "q-13" for an item with an id, else "#12" (the zero-based dataset position).
  std::string label() const {
    auto text = id_text();
    return text ? *text : "#" + std::to_string(index);
  }
};

namespace detail {

inline void append_token_or_null(std::string& out, std::string_view token) {
  if (token.empty()) out += "null";
  else out += token;
}

}  // namespace detail

// Appends an item's error as a JSON object: {stage, component, code, message}.
inline void append_item_error(std::string& out, const ItemError& error) {
  out += "{\"stage\":";
  krino::json::append_json_string(out, error.stage);
  append_key(out, "component");
  krino::json::append_json_string(out, error.component);
  append_key(out, "code");
  krino::json::append_json_string(out, error.code);
  append_key(out, "message");
  krino::json::append_json_string(out, error.message);
  out += '}';
}

// Appends the event as one line's JSON (no line feed). Members come in a fixed order: what a
// reader needs first (verdict, results, timing) before the example's sections, which are most of
// the bytes, so a reader can stop early.
inline void append_item_finished(std::string& out, const ItemFinished& item) {
  out += R"({"event":"item_finished","schema":"krino.event/1","run_index":)";
  append_integer(out, item.run_index);
  append_key(out, "index");
  append_integer(out, item.index);
  append_key(out, "id");
  detail::append_token_or_null(out, item.id);
  append_key(out, "datasetItemId");
  detail::append_token_or_null(out, item.dataset_item_id);
  append_key(out, "location");
  if (item.location) krino::json::append_json_string(out, *item.location);
  else out += "null";
  append_key(out, "success");
  append_bool(out, item.success);
  append_key(out, "error");
  if (item.error) {
    append_item_error(out, *item.error);
  } else {
    out += "null";
  }
  append_key(out, "results");
  out += '[';
  for (std::size_t i = 0; i < item.results.size(); ++i) {
    if (i > 0) out += ',';
    out += item.results[i].json;
  }
  out += ']';
  append_key(out, "metrics");
  if (item.metrics) append_call_metrics(out, *item.metrics);
  else out += "null";
  if (item.judge && !item.judge->empty()) {
    append_key(out, "judge");
    append_judge_usage(out, *item.judge, JudgeUsageForm::item);
    out.pop_back();  // the per-evaluator usage goes inside
    append_key(out, "byEvaluator");
    out += '{';
    for (std::size_t i = 0; i < item.judge_by_evaluator.size(); ++i) {
      if (i > 0) out += ',';
      krino::json::append_json_string(out, item.judge_by_evaluator[i].first);
      out += ':';
      append_judge_usage(out, item.judge_by_evaluator[i].second, JudgeUsageForm::item);
    }
    out += "}}";
  }
  append_key(out, "durationMs");
  append_optional(out, item.duration_ms);
  append_key(out, "inputs");
  detail::append_token_or_null(out, item.inputs);
  append_key(out, "expectedOutputs");
  detail::append_token_or_null(out, item.expected_outputs);
  append_key(out, "actualOutputs");
  detail::append_token_or_null(out, item.actual_outputs);
  append_key(out, "metadata");
  detail::append_token_or_null(out, item.metadata);
  out += '}';
}

// Reads the result document that starts at text[at] into `r` and returns the index just past it.
// The document's bytes are scanned once: its metadata (which can be most of it, as an agent
// evaluator's pairing is) is walked in place for its "skipped" member.
inline std::size_t read_item_result_at(std::string_view text, std::size_t at, ItemResult& r) {
  if (at >= text.size() || text[at] != '{') throw DecodeError("a member of \"results\" is not a JSON object");
  using krino::json::key_equals;
  using krino::json::detail::skip_value;
  const std::size_t end = krino::json::walk_members(text, at, [&](std::string_view key, std::size_t v) {
    if (key_equals(key, "metadata") && v < text.size() && text[v] == '{') {
      // The last "skipped" counts, as a parser keeps the last of a repeated key.
      return krino::json::walk_members(text, v, [&](std::string_view k, std::size_t mv) {
        const std::size_t member_end = skip_value(text, mv);
        if (key_equals(k, "skipped")) r.skipped = text.substr(mv, member_end - mv) == "true";
        return member_end;
      });
    }
    const std::size_t value_end = skip_value(text, v);
    const std::string_view value = text.substr(v, value_end - v);
    if (key_equals(key, "name")) r.name = read_string(value, "results[].name").value_or("");
    else if (key_equals(key, "score")) r.score = read_number(value, "results[].score");
    else if (key_equals(key, "success")) r.success = read_bool(value, "results[].success").value_or(false);
    else if (key_equals(key, "threshold")) r.threshold = read_number(value, "results[].threshold");
    else if (key_equals(key, "reason")) r.reason = read_string(value, "results[].reason").value_or("");
    return value_end;
  });
  r.json = text.substr(at, end - at);
  return end;
}

// Reads one result document's summary members (name, score, success, threshold, reason, skipped).
inline ItemResult read_item_result(std::string_view json) {
  ItemResult r;
  read_item_result_at(json, 0, r);
  r.json = json;
  return r;
}

// Reads the "results" array that starts at text[at] (or null) into `results`; returns the index
// just past it. Each result is read where it lies, without a separate pass to find its end.
inline std::size_t read_item_results_at(std::string_view text, std::size_t at, std::vector<ItemResult>& results) {
  results.clear();
  if (at < text.size() && text[at] == '[') {
    return krino::json::walk_elements(text, at, [&](std::size_t element) {
      return read_item_result_at(text, element, results.emplace_back());
    });
  }
  const std::size_t end = krino::json::detail::skip_value(text, at);
  if (!detail::is_null(text.substr(at, end - at))) detail::wrong_type("results", "an array");
  return end;
}

// How much of an item_finished event to read.
enum class ItemParts {
  head,  // every member before the example's sections: verdict, error, results, metrics, judge, timing
  all,   // every member
  // A passing item's identity and verdict only (krino writes success and error before the
  // results); a failed or errored item's head. For readers that show only what went wrong.
  head_of_failures,
};

// Reads an item_finished event from its exact text (which must outlive the result: results and
// sections are views into it). Unknown members are skipped, as readers must. Throws DecodeError
// for a member of the wrong type. With ItemParts::head it stops at `inputs` once `results` has
// been read: krino writes the example's sections, most of the bytes, last. With
// ItemParts::head_of_failures it stops at a passing item's verdict.
inline ItemFinished read_item_finished(std::string_view line, ItemParts parts = ItemParts::all) {
  ItemFinished item;
  bool results_seen = false;
  bool success_seen = false;
  bool error_seen = false;
  // Whether the verdict says the item passed, so a head_of_failures reader has all it needs.
  auto passed_and_done = [&] {
    return parts == ItemParts::head_of_failures && success_seen && error_seen && item.success && !item.error;
  };
  auto read_member = [&](std::string_view key, std::string_view value) {
    using krino::json::key_equals;
    if (key_equals(key, "run_index")) {
      item.run_index = read_whole<uint32_t>(value, "run_index").value_or(0);
    } else if (key_equals(key, "index")) {
      item.index = read_whole<uint64_t>(value, "index").value_or(0);
    } else if (key_equals(key, "id")) {
      item.id = detail::is_null(value) ? std::string_view() : value;
    } else if (key_equals(key, "datasetItemId")) {
      item.dataset_item_id = detail::is_null(value) ? std::string_view() : value;
    } else if (key_equals(key, "location")) {
      item.location = read_string(value, "location");
    } else if (key_equals(key, "success")) {
      item.success = read_bool(value, "success").value_or(false);
      success_seen = true;
      if (passed_and_done()) return false;
    } else if (key_equals(key, "error")) {
      error_seen = true;
      if (detail::is_null(value)) {
        item.error.reset();
        if (passed_and_done()) return false;
      } else {
        if (value.front() != '{') detail::wrong_type("error", "an object");
        ItemError e;
        krino::json::for_each_member(value, [&](std::string_view k, std::string_view v) {
          if (key_equals(k, "stage")) e.stage = read_string(v, "error.stage").value_or("");
          else if (key_equals(k, "component")) e.component = read_string(v, "error.component").value_or("");
          else if (key_equals(k, "code")) e.code = read_string(v, "error.code").value_or("");
          else if (key_equals(k, "message")) e.message = read_string(v, "error.message").value_or("");
          return true;
        });
        item.error = std::move(e);
      }
    } else if (key_equals(key, "metrics")) {
      if (!detail::is_null(value)) item.metrics = read_call_metrics(value);
    } else if (key_equals(key, "judge")) {
      if (!detail::is_null(value)) {
        item.judge = read_judge_usage(value);
        item.judge_by_evaluator.clear();
        if (auto per = krino::json::find_member(value, "byEvaluator"); per && !detail::is_null(*per)) {
          krino::json::for_each_member(*per, [&](std::string_view name, std::string_view usage) {
            item.judge_by_evaluator.emplace_back(krino::json::key_text(name), read_judge_usage(usage, "judge.byEvaluator"));
            return true;
          });
        }
      }
    } else if (key_equals(key, "durationMs")) {
      item.duration_ms = read_number(value, "durationMs");
    } else if (key_equals(key, "inputs")) {
      if (parts != ItemParts::all && results_seen) return false;
      item.inputs = detail::is_null(value) ? std::string_view() : value;
    } else if (key_equals(key, "expectedOutputs")) {
      item.expected_outputs = detail::is_null(value) ? std::string_view() : value;
    } else if (key_equals(key, "actualOutputs")) {
      item.actual_outputs = detail::is_null(value) ? std::string_view() : value;
    } else if (key_equals(key, "metadata")) {
      item.metadata = detail::is_null(value) ? std::string_view() : value;
    }
    return true;
  };
  // The results, most of an item's head, are read where they lie; every other member is found
  // first and then read.
  krino::json::walk_members(line, 0, [&](std::string_view key, std::size_t at) {
    if (krino::json::key_equals(key, "results")) {
      results_seen = true;
      return read_item_results_at(line, at, item.results);
    }
    const std::size_t end = krino::json::detail::skip_value(line, at);
    return read_member(key, line.substr(at, end - at)) ? end : std::string_view::npos;
  });
  return item;
}

}  // namespace krino::event

#endif  // KRINO_EVENT_ITEM_FINISHED_HPP
