// krino C++ helper: krino::EvalResult, what an evaluator returns: one krino.evalresult/1 document
// (name, score 0..1 or null, success, threshold, reason, metadata).
//
// Threads: any; an EvalResult is a plain value. Ownership: it owns its strings and metadata (default
// storage, never the test case's arena); the trampoline hands it to the host's result sink
// (write_to), which copies.
#ifndef KRINO_PLUGIN_EVAL_RESULT_HPP
#define KRINO_PLUGIN_EVAL_RESULT_HPP

#include <krino/json_text.hpp>
#include <krino/plugin.h>
#include <krino/plugin/error.hpp>

#include <krino/json_parse.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace krino {

struct EvalResult {
  std::string name;
  std::optional<double> score;  // nullopt: could not be computed (say why in `reason`)
  bool success = false;
  std::optional<double> threshold;
  std::string reason;
  boost::json::object metadata;
  // The metadata as compact JSON object text instead, for an evaluator that writes it with
  // json::CompactWriter on every case rather than build `metadata` (an allocation per key, then a
  // walk to write it out). Set at most one of the two; metadata_object() reads either.
  std::string metadata_json;

  // success = score >= threshold, the rule for every evaluator where higher is better.
  static EvalResult scored(std::string name, double score, double threshold, std::string reason = {}) {
    EvalResult r;
    r.name = std::move(name);
    r.score = score;
    r.threshold = threshold;
    r.success = score >= threshold;
    r.reason = std::move(reason);
    return r;
  }
  static EvalResult unscored(std::string name, std::optional<double> threshold, std::string reason) {
    EvalResult r;
    r.name = std::move(name);
    r.threshold = threshold;
    r.reason = std::move(reason);
    return r;
  }

  // The result as the ABI's values, its strings viewing this result's. Metadata set as `metadata`
  // is written as compact JSON into `metadata_text` (left untouched, and not viewed, otherwise).
  krino_eval_result values(std::string& metadata_text) const {
    krino_eval_result v = values_but_metadata();
    if (!metadata_json.empty()) {
      v.metadata_json = metadata_json.data();
      v.metadata_size = metadata_json.size();
    } else if (!metadata.empty()) {
      metadata_text.clear();
      json::append_compact_json(metadata_text, metadata);
      v.metadata_json = metadata_text.data();
      v.metadata_size = metadata_text.size();
    }
    return v;
  }

  // The krino.evalresult/1 document, written straight to text.
  void append_json(std::string& out) const;

  // Hands the result to the host's result sink: as values where the sink takes them (ABI 1.2,
  // krino_sink::write_eval_result), which spares writing the text here and parsing it there; as
  // krino.evalresult/1 text otherwise (an older host, or values the host leaves to its text check).
  // This runs once per evaluator per item.
  void write_to(krino_sink* sink) const;

  // The metadata as an object, whichever way the evaluator set it (for code that reads another
  // evaluator's result in-process, such as a wrapper or a test).
  boost::json::object metadata_object() const {
    if (metadata_json.empty()) return metadata;
    return krino::json::parse(metadata_json).as_object();
  }

  boost::json::object to_json() const {
    std::string text;
    append_json(text);
    return krino::json::parse(text).as_object();
  }

 private:
  krino_eval_result values_but_metadata() const {
    require_finite_score();
    if (!metadata_json.empty() && !metadata.empty())
      throw Error(KRINO_INTERNAL, "evaluator '" + name + "' set both metadata and metadata_json");
    krino_eval_result v{};
    v.struct_size = sizeof(v);
    v.name = name.data();
    v.name_size = name.size();
    v.has_score = score ? 1 : 0;
    v.score = score.value_or(0.0);
    v.success = success ? 1 : 0;
    v.has_threshold = threshold ? 1 : 0;
    v.threshold = threshold.value_or(0.0);
    v.reason = reason.data();
    v.reason_size = reason.size();
    return v;
  }
  void require_finite_score() const {
    if (score && !(*score - *score == 0.0))
      throw Error(KRINO_INTERNAL, "evaluator '" + name + "' produced a non-finite score");
  }
};

namespace detail {
// A krino.evalresult/1 document up to its metadata: everything but the metadata and the closing brace.
inline void append_eval_result_fields(std::string& out, const krino_eval_result& v) {
  // Literals appended with their length known (`+= "..."` would measure each one).
  const auto literal = [&out](const auto& text) { out.append(text, sizeof(text) - 1); };
  out.reserve(out.size() + 96 + v.name_size + v.reason_size + v.metadata_size);
  literal("{\"name\":");
  json::append_json_string(out, std::string_view(v.name, v.name_size));
  literal(",\"score\":");
  if (v.has_score) json::append_double(out, v.score);
  else literal("null");
  if (v.success) literal(",\"success\":true,\"threshold\":");
  else literal(",\"success\":false,\"threshold\":");
  if (v.has_threshold) json::append_double(out, v.threshold);
  else literal("null");
  literal(",\"reason\":");
  json::append_json_string(out, std::string_view(v.reason, v.reason_size));
  literal(",\"metadata\":");
}
}  // namespace detail

// Writes `v` as a krino.evalresult/1 document, compact, in the member order every krino result has
// (the host writes the values a plugin hands over with this same function, so a result reads the
// same byte for byte whichever way it crossed). The score must be finite.
inline void append_eval_result_json(std::string& out, const krino_eval_result& v) {
  detail::append_eval_result_fields(out, v);
  if (v.metadata_size > 0) out.append(v.metadata_json, v.metadata_size);
  else out.append("{}", 2);
  out += '}';
}

inline void EvalResult::append_json(std::string& out) const {
  detail::append_eval_result_fields(out, values_but_metadata());
  if (!metadata_json.empty()) out += metadata_json;
  else json::append_compact_json(out, metadata);  // straight into `out`: no copy of the metadata's text
  out += '}';
}

inline void EvalResult::write_to(krino_sink* sink) const {
  if (sink != nullptr && sink->struct_size >= offsetof(krino_sink, write_eval_result) + sizeof(sink->write_eval_result) &&
      sink->write_eval_result != nullptr) {
    thread_local std::string metadata_text;
    const krino_eval_result v = values(metadata_text);
    if (sink->write_eval_result(sink, &v) == KRINO_OK) return;
  }
  thread_local std::string text;
  text.clear();
  append_json(text);  // checks the score even when there is no sink
  if (sink != nullptr && sink->write != nullptr) sink->write(sink, text.data(), text.size());
}

}  // namespace krino

#endif  // KRINO_PLUGIN_EVAL_RESULT_HPP
