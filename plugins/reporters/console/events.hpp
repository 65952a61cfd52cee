// What the console reporter takes from krino.event/1 documents (docs/payloads.md). Readers are
// lenient: a missing or mistyped field reads as "unknown", never as an error. Item events are
// read by item_scanner.hpp.
#ifndef KRINO_CONSOLE_EVENTS_HPP
#define KRINO_CONSOLE_EVENTS_HPP

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace krino::console {

struct RunStart {
  uint32_t run_index = 0;
  uint32_t runs = 1;
  std::string experiment_name;
  std::optional<uint64_t> size_hint;
};

enum class Verdict { pass, fail, error };

// One evaluator result with success false.
// One evaluator's result on an item, as the console shows it.
struct CheckResult {
  std::string name;
  std::optional<double> score;  // nullopt: the evaluator could not score
  std::optional<double> threshold;
  std::string reason;
};

struct ItemError {
  std::string stage;
  std::string component;
  std::string code;
  std::string message;
};

// An item_finished event. For a passing item only the identity and verdict are read.
struct ItemReport {
  uint32_t run_index = 0;
  uint64_t index = 0;
  std::optional<std::string> id;
  std::optional<std::string> location;
  Verdict verdict = Verdict::pass;
  std::vector<CheckResult> failed_checks;  // verdict fail
  std::vector<CheckResult> passed_checks;  // only when the scan was asked for every result
  ItemError error;                         // verdict error
};

// One evaluator's line in a run or experiment summary; absent fields stay nullopt.
struct EvaluatorStats {
  std::string name;
  std::optional<double> average_score;
  std::optional<double> std_dev;       // run summary: item scores; experiment summary: run averages
  std::optional<double> item_std_dev;  // experiment summary only: pooled over items
  std::optional<double> pass_rate;
  uint64_t null_scores = 0;  // run summary only
};

// The summary of a run_finished or experiment_finished event.
struct Summary {
  std::string status;  // "completed", "cancelled"
  double duration_ms = 0;
  double run_count = 1;  // experiment only
  double total = 0;
  double passed = 0;
  double failed = 0;  // includes errored items, as in the payload
  double errors = 0;
  double pass_rate = 0;
  std::vector<EvaluatorStats> evaluators;  // in the document's order
  // The summary's "judge" member, when the run asked an LLM judge: one line of the report.
  struct Judge {
    double calls = 0, cached = 0, retries = 0, failed = 0;
    std::optional<double> tokens_in, tokens_out, cost_usd;
    std::string coverage;  // "N/M items priced" when some tokenized items had no price
  };
  std::optional<Judge> judge;
};

struct RunFinish {
  uint32_t run_index = 0;
  Summary summary;
};

RunStart read_run_started(const boost::json::object& event);
RunFinish read_run_finished(const boost::json::object& event);
Summary read_experiment_finished(const boost::json::object& event);

}  // namespace krino::console

#endif  // KRINO_CONSOLE_EVENTS_HPP
