// Shared by the console reporter's tests: a capturing output, a hand-driven clock, and builders
// for realistic krino.event/1 documents (docs/payloads.md).
#ifndef KRINO_TESTS_CONSOLE_TEST_SUPPORT_HPP
#define KRINO_TESTS_CONSOLE_TEST_SUPPORT_HPP

#include "progress_bar.hpp"
#include "text_output.hpp"

#include <boost/json.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace krino::console::testing {

class StringOutput final : public TextOutput {
 public:
  explicit StringOutput(bool terminal = false, unsigned columns = 0) : terminal_(terminal), columns_(columns) {}
  void write(std::string_view bytes) override { text.append(bytes); }
  void flush() override { ++flushes; }
  bool is_terminal() const override { return terminal_; }
  unsigned columns() const override { return columns_; }

  std::string text;
  int flushes = 0;

 private:
  bool terminal_;
  unsigned columns_;
};

class FakeClock {
 public:
  SteadyClock function() {
    return [this] { return now_; };
  }
  void advance(std::chrono::milliseconds step) { now_ += step; }

 private:
  std::chrono::steady_clock::time_point now_{std::chrono::hours(1)};
};

inline std::string run_started(uint32_t run_index, uint32_t runs, std::optional<uint64_t> size_hint,
                               const std::string& name = "qa-smoke") {
  boost::json::object e;
  e["event"] = "run_started";
  e["schema"] = "krino.event/1";
  e["run_index"] = run_index;
  e["runs"] = runs;
  e["experiment"] = {{"name", name}, {"description", "smoke test"}, {"metadata", boost::json::object{}}};
  boost::json::object dataset{{"uri", "data.jsonl"}, {"name", "qa"}, {"description", ""}};
  if (size_hint) dataset["sizeHint"] = *size_hint;
  else dataset["sizeHint"] = nullptr;
  e["dataset"] = dataset;
  e["evaluators"] = boost::json::array{
      boost::json::object{{"name", "exact_match"}, {"component", "krino.exact_match"}, {"threshold", 1.0}}};
  e["parallelism"] = 4;
  e["timestamp"] = "2026-11-21T10:00:00Z";
  return boost::json::serialize(e);
}

inline boost::json::object result(const std::string& name, std::optional<double> score, bool success,
                                  std::optional<double> threshold, const std::string& reason = "") {
  boost::json::object r;
  r["name"] = name;
  if (score) r["score"] = *score;
  else r["score"] = nullptr;
  r["success"] = success;
  if (threshold) r["threshold"] = *threshold;
  else r["threshold"] = nullptr;
  r["reason"] = reason;
  r["metadata"] = boost::json::object{};
  return r;
}

inline std::string item(uint32_t run_index, uint64_t index, std::optional<std::string> id,
                        std::optional<std::string> location, boost::json::array results) {
  bool success = !results.empty();
  for (const auto& r : results) success = success && r.at("success").as_bool();
  boost::json::object e;
  e["event"] = "item_finished";
  e["schema"] = "krino.event/1";
  e["run_index"] = run_index;
  e["index"] = index;
  if (id) e["id"] = *id;
  else e["id"] = nullptr;
  if (location) e["location"] = *location;
  else e["location"] = nullptr;
  e["success"] = success;
  e["error"] = nullptr;
  e["inputs"] = {{"input", "What is the capital of France?"}};
  e["expectedOutputs"] = {{"output", "Paris"}};
  e["actualOutputs"] = {{"output", "Paris"}};
  e["metadata"] = boost::json::object{};
  e["results"] = std::move(results);
  e["metrics"] = {{"tokensIn", nullptr}, {"tokensOut", nullptr}, {"costUsd", nullptr}, {"latencyMs", 3}};
  e["durationMs"] = 0.41;
  return boost::json::serialize(e);
}

inline std::string passing_item(uint32_t run_index, uint64_t index, const std::string& id) {
  return item(run_index, index, id, "data.jsonl:" + std::to_string(index + 1),
              {result("exact_match", 1.0, true, 1.0, "exact match")});
}

inline std::string failing_item(uint32_t run_index, uint64_t index, const std::string& id, const std::string& reason) {
  return item(run_index, index, id, "data.jsonl:" + std::to_string(index + 1),
              {result("exact_match", 0.0, false, 1.0, reason)});
}

inline std::string errored_item(uint32_t run_index, uint64_t index, std::optional<std::string> id,
                                std::optional<std::string> location, const std::string& stage,
                                const std::string& component, const std::string& code, const std::string& message) {
  boost::json::object e;
  e["event"] = "item_finished";
  e["schema"] = "krino.event/1";
  e["run_index"] = run_index;
  e["index"] = index;
  if (id) e["id"] = *id;
  else e["id"] = nullptr;
  if (location) e["location"] = *location;
  else e["location"] = nullptr;
  e["success"] = false;
  e["error"] = {{"stage", stage}, {"component", component}, {"code", code}, {"message", message}};
  e["inputs"] = boost::json::object{};
  e["expectedOutputs"] = boost::json::object{};
  e["actualOutputs"] = nullptr;
  e["metadata"] = boost::json::object{};
  e["results"] = boost::json::array{};
  e["metrics"] = nullptr;
  e["durationMs"] = 0.05;
  return boost::json::serialize(e);
}

inline std::string run_finished(uint32_t run_index, const std::string& status, double duration_ms,
                                boost::json::object summary) {
  boost::json::object e;
  e["event"] = "run_finished";
  e["schema"] = "krino.event/1";
  e["run_index"] = run_index;
  e["status"] = status;
  e["durationMs"] = duration_ms;
  e["summary"] = std::move(summary);
  return boost::json::serialize(e);
}

inline std::string experiment_finished(const std::string& status, double duration_ms, boost::json::object summary) {
  boost::json::object e;
  e["event"] = "experiment_finished";
  e["schema"] = "krino.event/1";
  e["run_index"] = nullptr;
  e["status"] = status;
  e["durationMs"] = duration_ms;
  e["summary"] = std::move(summary);
  return boost::json::serialize(e);
}

// One run of five items over exact_match and faithfulness: a pass, a dataset error, a failure,
// a pass, and a faithfulness score that could not be computed (null).
inline std::vector<std::string> single_run_events() {
  std::vector<std::string> events;
  events.push_back(run_started(0, 1, 5));
  events.push_back(item(0, 0, "q-1", "data.jsonl:1",
                        {result("exact_match", 1.0, true, 1.0, "exact match"),
                         result("faithfulness", 0.9, true, 0.7, "grounded")}));
  events.push_back(errored_item(0, 1, std::nullopt, "data.jsonl:2", "dataset", "jsonl", "INVALID_ARGUMENT",
                                "line 2 is not valid JSON: expected a value"));
  events.push_back(item(0, 2, "q-3", "data.jsonl:3",
                        {result("exact_match", 0.0, false, 1.0, "expected \"Paris\", got \"Lyon\""),
                         result("faithfulness", 0.8, true, 0.7, "grounded")}));
  events.push_back(item(0, 3, "q-4", "data.jsonl:4",
                        {result("exact_match", 1.0, true, 1.0, "exact match"),
                         result("faithfulness", 0.85, true, 0.7, "grounded")}));
  events.push_back(item(0, 4, "q-5", "data.jsonl:5",
                        {result("exact_match", 1.0, true, 1.0, "exact match"),
                         result("faithfulness", std::nullopt, false, 0.7, "the judge reply\nhad no score")}));
  events.push_back(run_finished(
      0, "completed", 1520.5,
      {{"totalCount", 5}, {"passCount", 2}, {"failCount", 3}, {"errorCount", 1}, {"passRate", 0.4},
       {"evaluators",
        {{"exact_match", {{"count", 4}, {"averageScore", 0.75}, {"stdDev", 0.5}, {"passRate", 0.75}, {"nullScores", 0}}},
         {"faithfulness",
          {{"count", 4}, {"averageScore", 0.85}, {"stdDev", 0.05}, {"passRate", 0.75}, {"nullScores", 1}}}}}}));
  events.push_back(experiment_finished(
      "completed", 1600.0,
      {{"runCount", 1}, {"totalCount", 5}, {"passCount", 2.0}, {"failCount", 3.0}, {"passRate", 0.4}, {"errorCount", 1.0},
       {"evaluators",
        {{"exact_match", {{"averageScore", 0.75}, {"stdDev", 0.0}, {"passRate", 0.75}, {"itemStdDev", 0.5}}},
         {"faithfulness", {{"averageScore", 0.85}, {"stdDev", 0.0}, {"passRate", 0.75}, {"itemStdDev", 0.05}}}}}}));
  return events;
}

// Three runs of three items: q-2 fails in runs 1 and 3; in run 3 the task times out on q-3.
inline std::vector<std::string> three_run_events() {
  std::vector<std::string> events;
  auto summary = [](int pass, int fail, int errors, double rate, int count, double average, double std_dev,
                    double pass_rate) {
    return boost::json::object{
        {"totalCount", 3}, {"passCount", pass}, {"failCount", fail}, {"errorCount", errors}, {"passRate", rate},
        {"evaluators",
         {{"exact_match",
           {{"count", count}, {"averageScore", average}, {"stdDev", std_dev}, {"passRate", pass_rate}, {"nullScores", 0}}}}}};
  };
  events.push_back(run_started(0, 3, 3));
  events.push_back(passing_item(0, 0, "q-1"));
  events.push_back(failing_item(0, 1, "q-2", "expected \"4\", got \"5\""));
  events.push_back(passing_item(0, 2, "q-3"));
  events.push_back(run_finished(0, "completed", 1500, summary(2, 1, 0, 0.666667, 3, 0.666667, 0.57735, 0.666667)));
  events.push_back(run_started(1, 3, 3));
  events.push_back(passing_item(1, 0, "q-1"));
  events.push_back(passing_item(1, 1, "q-2"));
  events.push_back(passing_item(1, 2, "q-3"));
  events.push_back(run_finished(1, "completed", 1400, summary(3, 0, 0, 1.0, 3, 1.0, 0.0, 1.0)));
  events.push_back(run_started(2, 3, 3));
  events.push_back(passing_item(2, 0, "q-1"));
  events.push_back(failing_item(2, 1, "q-2", "expected \"4\", got \"5\""));
  events.push_back(errored_item(2, 2, "q-3", "data.jsonl:3", "task", "http", "DEADLINE_EXCEEDED",
                                "no reply within 30 s"));
  events.push_back(run_finished(2, "completed", 1700, summary(1, 2, 1, 0.333333, 2, 0.5, 0.707107, 0.5)));
  events.push_back(experiment_finished(
      "completed", 4600.0,
      {{"runCount", 3}, {"totalCount", 3}, {"passCount", 2.0}, {"failCount", 1.0}, {"passRate", 0.666667},
       {"errorCount", 0.333333},
       {"evaluators",
        {{"exact_match", {{"averageScore", 0.722222}, {"stdDev", 0.254588}, {"passRate", 0.722222}, {"itemStdDev", 0.5}}}}}}));
  return events;
}

// Three runs planned; Ctrl-C after the second item of the first.
inline std::vector<std::string> cancelled_events() {
  std::vector<std::string> events;
  events.push_back(run_started(0, 3, 5));
  events.push_back(passing_item(0, 0, "q-1"));
  events.push_back(failing_item(0, 1, "q-2", "expected \"4\", got \"5\""));
  const boost::json::object summary{
      {"totalCount", 2}, {"passCount", 1}, {"failCount", 1}, {"errorCount", 0}, {"passRate", 0.5},
      {"evaluators",
       {{"exact_match", {{"count", 2}, {"averageScore", 0.5}, {"stdDev", 0.707107}, {"passRate", 0.5}, {"nullScores", 0}}}}}};
  events.push_back(run_finished(0, "cancelled", 800, summary));
  events.push_back(experiment_finished(
      "cancelled", 810,
      {{"runCount", 1}, {"totalCount", 2}, {"passCount", 1.0}, {"failCount", 1.0}, {"passRate", 0.5}, {"errorCount", 0.0},
       {"evaluators",
        {{"exact_match", {{"averageScore", 0.5}, {"stdDev", 0.0}, {"passRate", 0.5}, {"itemStdDev", 0.707107}}}}}}));
  return events;
}

}  // namespace krino::console::testing

#endif  // KRINO_TESTS_CONSOLE_TEST_SUPPORT_HPP
