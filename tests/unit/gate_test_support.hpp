#pragma once
// Builders for the regression gate's tests: comparison sides and krino.event/1 lines.
#include "krino/core/gate/comparison.hpp"
#include "krino/core/gate/gate_verdict.hpp"
#include "krino/core/gate/run_projection.hpp"

#include <boost/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

#include <ostream>

// Readable enums in Boost.Test's failure messages.
namespace krino::core {
inline std::ostream& operator<<(std::ostream& out, ChangeStatus s) { return out << change_status_name(s); }
inline std::ostream& operator<<(std::ostream& out, Pairing p) { return out << pairing_name(p); }
inline std::ostream& operator<<(std::ostream& out, GateStatus s) { return out << gate_status_name(s); }
inline std::ostream& operator<<(std::ostream& out, RemovedEvaluatorPolicy p) {
  return out << (p == RemovedEvaluatorPolicy::fail ? "fail" : "warn");
}
}  // namespace krino::core

namespace krino::test {

// One item with one evaluator "quality": pass = score >= threshold.
inline core::SideItem side_item(uint64_t index, double score, double threshold = 0.5, std::string name = "quality") {
  core::SideItem item;
  item.key = core::positional_key(index);
  item.index = index;
  core::EvaluatorProjection e;
  e.name = std::move(name);
  e.score = score;
  e.pass = score >= threshold;
  e.threshold = threshold;
  item.pass_probability = e.pass ? 1.0 : 0.0;
  item.evaluators.push_back(e);
  return item;
}

inline core::ComparisonSide side_of(const std::vector<double>& scores, double threshold = 0.5) {
  core::ComparisonSide side;
  for (size_t i = 0; i < scores.size(); ++i) side.items.push_back(side_item(i, scores[i], threshold));
  return side;
}

// An item_finished line; `results` as (name, score, success, threshold).
struct ResultSpec {
  std::string name;
  std::optional<double> score;
  bool success;
  double threshold = 0.5;
};

inline std::string item_event(uint32_t run, uint64_t index, const std::vector<ResultSpec>& results,
                              std::optional<std::string> id = std::nullopt, boost::json::value input = nullptr,
                              std::optional<std::string> error = std::nullopt) {
  namespace json = boost::json;
  json::object e{{"event", "item_finished"}, {"schema", "krino.event/1"}, {"run_index", run}, {"index", index}};
  e["id"] = id ? json::value(*id) : json::value(nullptr);
  e["inputs"] = json::object{{"input", input}};
  bool success = !error.has_value();
  json::array rs;
  for (const auto& r : results) {
    success = success && r.success;
    rs.push_back(json::object{{"name", r.name},
                              {"score", r.score ? json::value(*r.score) : json::value(nullptr)},
                              {"success", r.success},
                              {"threshold", r.threshold},
                              {"reason", "long prose that the gate never keeps"}});
  }
  e["success"] = success;
  e["error"] = error ? json::value(json::object{{"stage", "task"}, {"message", *error}}) : json::value(nullptr);
  e["results"] = std::move(rs);
  return json::serialize(e);
}

inline std::string run_started(uint32_t run, const std::string& experiment = "exp") {
  namespace json = boost::json;
  return json::serialize(json::object{{"event", "run_started"}, {"schema", "krino.event/1"}, {"run_index", run},
                                      {"experiment", json::object{{"name", experiment}}}});
}

inline std::string run_finished(uint32_t run, const std::string& status = "completed") {
  namespace json = boost::json;
  return json::serialize(json::object{{"event", "run_finished"}, {"schema", "krino.event/1"}, {"run_index", run},
                                      {"status", status}, {"durationMs", 1.0}, {"summary", json::object{}}});
}

// A fresh directory under the temp dir, removed at the end of the test.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    static int counter = 0;
    path = std::filesystem::temp_directory_path() /
           ("krino-gate-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

}  // namespace krino::test
