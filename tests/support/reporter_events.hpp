// Shared by the reporter plugins' tests: krino.event/1 sequences as the host writes them (with
// summaries computed from the items, as the runner computes them), scratch directories, and the
// built reporter modules loaded through the C ABI.
#ifndef KRINO_TESTS_REPORTER_EVENTS_HPP
#define KRINO_TESTS_REPORTER_EVENTS_HPP

#include "scratch_directory.hpp"

#include "test_paths.hpp"

#include <krino/json_text.hpp>
#include <krino/plugin.h>
#include <krino/plugin.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <dlfcn.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace krino::testing::reports {

using ScratchDirectory = ::krino::test::ScratchDirectory;

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

inline std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
  return n;
}

// Strings that break naive escaping in every format the reporters write.
inline const std::vector<std::string>& hostile_strings() {
  static const std::vector<std::string> strings = {
      "</script><script>alert(1)</script>",
      "<!-- comment --> & \"quotes\" 'single' ]]> <![CDATA[x]]>",
      "pipe | in | table\nsecond line\r\nthird\ttabbed",
      "=HYPERLINK(\"http://evil.example\",\"click\")",
      "+1+2", "-2+3", "@SUM(A1:A2)",
      std::string("control \x01\x02\x1b[31mred\x1b[0m \x7f end"),
      "unicode: Ελληνικά κρίνω, 日本語, emoji \xF0\x9F\x98\x80, rtl \xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D",
      "noncharacter \xEF\xBF\xBE and \xEF\xBF\xBF",
      "markdown **bold** _it_ `code` [link](http://x) # heading @someone #12 $x$ ~strike~ \\ backslash",
  };
  return strings;
}

struct Result {
  std::string name;
  std::optional<double> score;
  bool success = true;
  std::optional<double> threshold;
  std::string reason;
  bool skipped = false;
};

inline Result passed(std::string name, double score = 1.0, std::optional<double> threshold = 1.0,
                     std::string reason = "ok") {
  return Result{std::move(name), score, true, threshold, std::move(reason), false};
}
inline Result failed(std::string name, double score, std::optional<double> threshold, std::string reason) {
  return Result{std::move(name), score, false, threshold, std::move(reason), false};
}
inline Result unscored(std::string name, std::string reason, std::optional<double> threshold = 0.5) {
  return Result{std::move(name), std::nullopt, false, threshold, std::move(reason), false};
}
inline Result skipped(std::string name, std::string reason) {
  return Result{std::move(name), 1.0, true, std::nullopt, std::move(reason), true};
}

struct ItemError {
  std::string stage = "evaluator";
  std::string component = "exact_match";
  std::string code = "INVALID_ARGUMENT";
  std::string message = "broken";
};

struct Item {
  Item(std::optional<std::string> id_, std::string input_, std::string expected_, std::string actual_,
       std::vector<Result> results_, std::optional<ItemError> error_ = std::nullopt)
      : id(std::move(id_)), input(std::move(input_)), expected(std::move(expected_)), actual(std::move(actual_)),
        results(std::move(results_)), error(std::move(error_)) {}

  std::optional<std::string> id;
  std::string input;
  std::string expected;
  std::string actual;
  std::vector<Result> results;
  std::optional<ItemError> error;
  double duration_ms = 0.5;
  std::optional<boost::json::object> metrics;  // the item's `metrics`, null when absent
  std::optional<boost::json::object> judge;    // the item's `judge`, absent when unset
  std::optional<std::string> location;
};

// Builds a whole experiment's events, computing summaries as the runner does (docs/payloads.md).
class EventScript {
 public:
  struct Evaluator {
    std::string name;
    std::optional<double> threshold;
  };

  EventScript(std::string experiment, uint32_t runs, std::vector<Evaluator> evaluators,
              boost::json::object metadata = {})
      : experiment_(std::move(experiment)), runs_(runs), evaluators_(std::move(evaluators)),
        metadata_(std::move(metadata)) {}

  EventScript& start_run(std::optional<uint64_t> size_hint = std::nullopt) {
    run_ = RunState{};
    boost::json::object e{{"event", "run_started"}, {"schema", "krino.event/1"}, {"run_index", run_index_},
                          {"runs", runs_}};
    e["experiment"] = boost::json::object{{"name", experiment_}, {"description", "a test experiment"}, {"metadata", metadata_}};
    boost::json::object dataset{{"uri", "data/cases.jsonl"}, {"name", "cases"}, {"description", ""}};
    if (size_hint) dataset["sizeHint"] = *size_hint;
    else dataset["sizeHint"] = nullptr;
    e["dataset"] = std::move(dataset);
    boost::json::array evaluators;
    for (const auto& ev : evaluators_) {
      boost::json::object o{{"name", ev.name}, {"component", "krino." + ev.name}};
      if (ev.threshold) o["threshold"] = *ev.threshold;
      else o["threshold"] = nullptr;
      evaluators.push_back(std::move(o));
    }
    e["evaluators"] = std::move(evaluators);
    e["parallelism"] = 4;
    e["timestamp"] = "2026-11-21T10:00:00Z";
    events_.push_back(json::to_compact_json(e));
    return *this;
  }

  EventScript& item(const Item& item) {
    const uint64_t index = run_.next_index++;
    boost::json::object e{{"event", "item_finished"}, {"schema", "krino.event/1"}, {"run_index", run_index_},
                          {"index", index}};
    if (item.id) e["id"] = *item.id;
    else e["id"] = nullptr;
    if (item.location) e["location"] = *item.location;
    else e["location"] = "data/cases.jsonl:" + std::to_string(index + 1);
    bool success = !item.error.has_value();
    boost::json::array results;
    if (!item.error) {
      for (const auto& r : item.results) {
        success = success && r.success;
        boost::json::object o{{"name", r.name}};
        if (r.score) o["score"] = *r.score;
        else o["score"] = nullptr;
        o["success"] = r.success;
        if (r.threshold) o["threshold"] = *r.threshold;
        else o["threshold"] = nullptr;
        o["reason"] = r.reason;
        boost::json::object metadata;
        if (r.skipped) metadata["skipped"] = true;
        o["metadata"] = std::move(metadata);
        results.push_back(std::move(o));
        auto& stats = run_.evaluators[r.name];
        ++stats.count;
        if (r.success) ++stats.passed;
        if (r.score) stats.scores.push_back(*r.score);
        else ++stats.null_scores;
      }
    }
    e["success"] = success;
    if (item.error)
      e["error"] = boost::json::object{{"stage", item.error->stage}, {"component", item.error->component},
                                       {"code", item.error->code}, {"message", item.error->message}};
    else e["error"] = nullptr;
    e["results"] = std::move(results);
    if (item.metrics) e["metrics"] = *item.metrics;
    else e["metrics"] = nullptr;
    if (item.judge) e["judge"] = *item.judge;
    e["durationMs"] = item.duration_ms;
    e["inputs"] = boost::json::object{{"input", item.input}};
    e["expectedOutputs"] = item.expected.empty() ? boost::json::object{} : boost::json::object{{"output", item.expected}};
    if (item.error && item.error->stage != "evaluator") e["actualOutputs"] = nullptr;
    else e["actualOutputs"] = boost::json::object{{"output", item.actual}};
    e["metadata"] = boost::json::object{};
    ++run_.total;
    if (success) ++run_.passed;
    if (item.error) ++run_.errors;
    events_.push_back(json::to_compact_json(e));
    return *this;
  }

  EventScript& finish_run(const std::string& status = "completed") {
    boost::json::object e{{"event", "run_finished"}, {"schema", "krino.event/1"}, {"run_index", run_index_},
                          {"status", status}, {"durationMs", 12.5}};
    boost::json::object s{{"totalCount", run_.total}, {"passCount", run_.passed}, {"failCount", run_.total - run_.passed},
                          {"errorCount", run_.errors},
                          {"passRate", run_.total == 0 ? 0.0 : round6(double(run_.passed) / double(run_.total))}};
    boost::json::object evaluators;
    for (const auto& ev : evaluators_) {
      const auto& stats = run_.evaluators[ev.name];
      double mean = 0, m2 = 0;
      for (double x : stats.scores) mean += x;
      if (!stats.scores.empty()) mean /= double(stats.scores.size());
      for (double x : stats.scores) m2 += (x - mean) * (x - mean);
      const double sd = stats.scores.size() < 2 ? 0.0 : std::sqrt(m2 / double(stats.scores.size() - 1));
      evaluators[ev.name] = boost::json::object{
          {"count", stats.count}, {"averageScore", round6(mean)}, {"stdDev", round6(sd)},
          {"passRate", stats.count == 0 ? 0.0 : round6(double(stats.passed) / double(stats.count))},
          {"nullScores", stats.null_scores}};
      runs_done_.push_back({ev.name, mean, stats.count == 0 ? 0.0 : double(stats.passed) / double(stats.count)});
    }
    s["evaluators"] = std::move(evaluators);
    if (judge_) s["judge"] = *judge_;
    e["summary"] = std::move(s);
    pass_rates_.push_back(run_.total == 0 ? 0.0 : double(run_.passed) / double(run_.total));
    totals_.push_back(run_.total);
    errors_.push_back(run_.errors);
    events_.push_back(json::to_compact_json(e));
    ++run_index_;
    return *this;
  }

  EventScript& finish_experiment(const std::string& status = "completed") {
    double pass_rate = 0;
    for (double r : pass_rates_) pass_rate += r;
    if (!pass_rates_.empty()) pass_rate /= double(pass_rates_.size());
    const double total = totals_.empty() ? 0.0 : double(totals_.front());
    double errors = 0;
    for (uint64_t e : errors_) errors += double(e);
    if (!errors_.empty()) errors /= double(errors_.size());
    boost::json::object s{{"runCount", pass_rates_.size()}, {"totalCount", total}, {"passCount", round6(pass_rate * total)},
                          {"failCount", round6(total - pass_rate * total)}, {"passRate", round6(pass_rate)},
                          {"errorCount", round6(errors)}};
    boost::json::object evaluators;
    for (const auto& ev : evaluators_) {
      double sum = 0, pass_sum = 0;
      int n = 0;
      for (const auto& run : runs_done_) {
        if (run.name != ev.name) continue;
        sum += run.mean;
        pass_sum += run.pass_rate;
        ++n;
      }
      // The run-to-run spread is 0 (every run alike in these scripts); the item spread is fixed.
      evaluators[ev.name] = boost::json::object{{"averageScore", n ? round6(sum / n) : 0.0}, {"stdDev", 0.0},
                                                {"passRate", n ? round6(pass_sum / n) : 0.0}, {"itemStdDev", 0.25}};
    }
    s["evaluators"] = std::move(evaluators);
    if (judge_) s["judge"] = *judge_;
    boost::json::object e{{"event", "experiment_finished"}, {"schema", "krino.event/1"}, {"run_index", nullptr},
                          {"status", status}, {"durationMs", 20.0}, {"summary", std::move(s)}};
    events_.push_back(json::to_compact_json(e));
    return *this;
  }

  // A `judge` member for the following run and experiment summaries.
  EventScript& judge_totals(boost::json::object judge) {
    judge_ = std::move(judge);
    return *this;
  }

  const std::vector<std::string>& events() const { return events_; }

 private:
  static double round6(double x) { return std::floor(x * 1e6 + 0.5) / 1e6; }

  struct EvaluatorStats {
    uint64_t count = 0, passed = 0, null_scores = 0;
    std::vector<double> scores;
  };
  struct RunState {
    uint64_t next_index = 0, total = 0, passed = 0, errors = 0;
    std::map<std::string, EvaluatorStats> evaluators;
  };

  std::string experiment_;
  uint32_t runs_;
  std::vector<Evaluator> evaluators_;
  boost::json::object metadata_;
  uint32_t run_index_ = 0;
  RunState run_;
  struct RunMean {
    std::string name;
    double mean;
    double pass_rate;
  };
  std::vector<RunMean> runs_done_;
  std::vector<uint64_t> errors_;
  std::vector<double> pass_rates_;
  std::vector<uint64_t> totals_;
  std::optional<boost::json::object> judge_;
  std::vector<std::string> events_;
};

// The options object `json` as a component receives it.
inline krino::Config config_from(const std::string& json) { return krino::Config(boost::json::parse(json).as_object()); }

// An experiment named "capitals" with evaluators exact_match (threshold 1) and faithfulness (0.8),
// whose every run has one item of each kind: cap-01 passes, cap-02 fails both evaluators, #2 (no
// id) has a null score, cap-04 has an item error, cap-05 is skipped by every evaluator.
inline EventScript sample_experiment(uint32_t runs = 1) {
  EventScript script("capitals", runs, {{"exact_match", 1.0}, {"faithfulness", 0.8}}, {{"model", "gpt-test"}, {"temperature", 0}});
  for (uint32_t run = 0; run < runs; ++run) {
    script.start_run(5)
        .item({"cap-01", "What is the capital of France?", "Paris", "Paris",
               {passed("exact_match"), passed("faithfulness", 0.9, 0.8)}})
        .item({"cap-02", "What is the capital of Australia?", "Canberra", "Sydney",
               {failed("exact_match", 0.0, 1.0, "expected \"Canberra\", got \"Sydney\""),
                failed("faithfulness", 0.25, 0.8, "claims a city that is not the capital")}})
        .item({std::nullopt, "Capital of Peru?", "Lima", "Lima",
               {passed("exact_match"), unscored("faithfulness", "the judge reply had no score")}})
        .item({"cap-04", "Capital of Chile?", "Santiago", "", {}, ItemError{}})
        .item({"cap-05", "Capital of Mars?", "", "n/a",
               {skipped("exact_match", "no expected output"), skipped("faithfulness", "no context")}})
        .finish_run();
  }
  script.finish_experiment();
  return script;
}

// Feeds `events` to a reporter object (the class itself, not through the ABI).
template <class Reporter>
void feed(Reporter& reporter, const std::vector<std::string>& events) {
  for (const auto& event : events) reporter.on_event(krino::Event(event));
  reporter.flush();
}

// A built reporter module, loaded as the host loads it.
class ReporterModule {
 public:
  explicit ReporterModule(const std::string& file_name) {
    const std::string module = std::string(KRINO_PLUGIN_BUILD_DIR) + "/" + file_name;
    library_ = dlopen(module.c_str(), RTLD_NOW | RTLD_LOCAL);
    BOOST_REQUIRE_MESSAGE(library_ != nullptr, dlerror());
    auto entry = reinterpret_cast<krino_plugin_entry_fn>(dlsym(library_, KRINO_PLUGIN_ENTRY_SYMBOL));
    BOOST_REQUIRE(entry != nullptr);
    krino_host_info info{};
    info.struct_size = sizeof info;
    info.abi_major = KRINO_ABI_MAJOR;
    info.abi_minor = KRINO_ABI_MINOR;
    info.host_name = "krino";
    info.host_version = "test";
    krino::detail::StringSink error;
    descriptor_ = entry(&info, &error.sink);
    BOOST_REQUIRE_MESSAGE(descriptor_ != nullptr, error.text);
  }
  ~ReporterModule() {
    if (library_ != nullptr) dlclose(library_);
  }
  ReporterModule(const ReporterModule&) = delete;
  ReporterModule& operator=(const ReporterModule&) = delete;

  const krino_plugin_descriptor& descriptor() const { return *descriptor_; }
  const krino_component& component() const { return descriptor_->components[0]; }
  const krino_reporter_vtable& vtable() const { return *static_cast<const krino_reporter_vtable*>(component().vtable); }

  // Creates an instance with `config`, sends every event, flushes and destroys it. Returns the
  // first error message (empty when every call succeeded).
  std::string run(const std::string& config, const std::vector<std::string>& events) const {
    krino::detail::StringSink error;
    void* instance = nullptr;
    if (vtable().create(nullptr, config.data(), config.size(), &instance, &error.sink) != KRINO_OK) return error.text;
    for (const auto& event : events) {
      if (vtable().on_event(instance, event.data(), event.size(), &error.sink) != KRINO_OK) {
        vtable().destroy(instance);
        return error.text;
      }
    }
    if (vtable().flush(instance, &error.sink) != KRINO_OK) {
      vtable().destroy(instance);
      return error.text;
    }
    vtable().destroy(instance);
    return {};
  }

 private:
  void* library_ = nullptr;
  const krino_plugin_descriptor* descriptor_ = nullptr;
};

}  // namespace krino::testing::reports

#endif  // KRINO_TESTS_REPORTER_EVENTS_HPP
