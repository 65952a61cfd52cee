#pragma once
// The regression gate's view of a run: per item and evaluator only what measures quality (mean
// score, pass, threshold). Model outputs, judge prose and metrics are left out, so a projection is
// small enough to hold for a whole run while the run itself is streamed (docs/gate.md).
#include <krino/event/item_finished.hpp>
#include <krino/event/run_started.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core {

// One evaluator on one item, aggregated over the runs that scored it.
struct EvaluatorProjection {
  std::string name;
  std::optional<double> score;      // mean of the non-null scores over runs; nullopt: none computed
  bool pass = false;                // majority of runs passed (ties pass)
  std::optional<double> threshold;  // as the last run reported it
};

// The entry named `name` in a list sorted by name, or null.
const EvaluatorProjection* find_evaluator(const std::vector<EvaluatorProjection>& sorted, std::string_view name);

// One dataset item, aggregated over runs.
struct ItemProjection {
  uint64_t index = 0;
  std::optional<std::string> id;
  std::string input;   // the input anchor: whitespace collapsed, trimmed, at most 80 characters
  uint32_t runs = 0;   // runs that reported the item
  uint32_t passing_runs = 0;
  uint32_t failed_runs = 0;  // runs where the item ended in an error (no results)
  std::string first_error;   // the first such error's message, to name it
  std::vector<EvaluatorProjection> evaluators;  // sorted by name

  // Share of runs in which the item passed (every evaluator passed): the gate's pass probability.
  double pass_probability() const { return runs > 0 ? static_cast<double>(passing_runs) / runs : 0.0; }
  const EvaluatorProjection* evaluator(std::string_view name) const { return find_evaluator(evaluators, name); }
};

struct RunProjection {
  std::string experiment;  // the experiment's name, from run_started ("" when absent)
  uint32_t runs = 0;       // runs seen
  std::vector<ItemProjection> items;  // sorted by index

  bool every_item_has_id() const;
};

// The input anchor of an item: a string input as text, anything else as compact JSON with sorted
// keys; whitespace runs collapsed to one space, trimmed, cut to 80 characters (on a UTF-8
// boundary). Used only to help a person find the item in a baseline file.
std::string input_anchor(std::string_view inputs_json);

// Builds a projection from krino.event/1 lines, one at a time (a file or a live run).
class RunProjectionBuilder {
 public:
  // One event line. Unknown events and other schemas are skipped; a malformed line is an error
  // naming `where` (a file and line number).
  void add_event(std::string_view line, const std::string& where);
  // The same, from the events' models: how a live run feeds the gate without reading lines back.
  void add_run_started(const krino::event::RunStarted& started);
  void add_item(const krino::event::ItemFinished& item, const std::string& where);
  RunProjection finish();
  // From events read from a file: the first run (since the last experiment started) that has no
  // run_finished event with status "completed", if any.
  std::optional<uint32_t> first_unfinished_run() const;

 private:
  struct EvaluatorAccumulator {
    double score_sum = 0.0;
    uint32_t scored = 0;
    uint32_t results = 0;
    uint32_t passed = 0;
    std::optional<double> threshold;
  };
  struct ItemAccumulator {
    ItemProjection item;
    std::map<std::string, EvaluatorAccumulator> evaluators;
    std::optional<uint32_t> last_run;
  };
  std::string experiment_;
  uint32_t runs_ = 0;
  std::map<uint64_t, ItemAccumulator> items_;
  std::set<uint32_t> completed_runs_;
};

// Reads a krino.event/1 JSON Lines file line by line. With several experiments appended in one
// file, only the last one counts. Throws a runtime error for an unreadable file and a
// configuration error for a file with no items.
RunProjection read_run_projection(const std::string& path);

}  // namespace krino::core
