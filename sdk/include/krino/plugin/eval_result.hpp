// krino C++ helper: krino::EvalResult, what an evaluator returns: one krino.evalresult/1 document
// (name, score 0..1 or null, success, threshold, reason, metadata).
//
// Threads: any; an EvalResult is a plain value. Ownership: it owns its strings and metadata (default
// storage, never the test case's arena); the trampoline writes it to the host's result sink, which
// copies.
#ifndef KRINO_PLUGIN_EVAL_RESULT_HPP
#define KRINO_PLUGIN_EVAL_RESULT_HPP

#include <krino/json_text.hpp>
#include <krino/plugin.h>
#include <krino/plugin/error.hpp>

#include <krino/json_parse.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include <optional>
#include <string>
#include <utility>

namespace krino {

struct EvalResult {
  std::string name;
  std::optional<double> score;  // nullopt: could not be computed (say why in `reason`)
  bool success = false;
  std::optional<double> threshold;
  std::string reason;
  boost::json::object metadata;

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

  // The krino.evalresult/1 document, written straight to text (this runs once per evaluator per item).
  void append_json(std::string& out) const {
    if (score && !(*score - *score == 0.0))
      throw Error(KRINO_INTERNAL, "evaluator '" + name + "' produced a non-finite score");
    out += "{\"name\":";
    json::append_json_string(out, name);
    out += ",\"score\":";
    if (score) json::append_double(out, *score);
    else out += "null";
    out += success ? ",\"success\":true" : ",\"success\":false";
    out += ",\"threshold\":";
    if (threshold) json::append_double(out, *threshold);
    else out += "null";
    out += ",\"reason\":";
    json::append_json_string(out, reason);
    out += ",\"metadata\":";
    json::append_compact_json(out, metadata);
    out += '}';
  }

  boost::json::object to_json() const {
    std::string text;
    append_json(text);
    return krino::json::parse(text).as_object();
  }
};

}  // namespace krino

#endif  // KRINO_PLUGIN_EVAL_RESULT_HPP
