#include "krino/core/gate/run_projection.hpp"

#include "krino/core/common/error.hpp"

#include <krino/json_parse.hpp>
#include <boost/json.hpp>
#include <krino/event/event_head.hpp>
#include <krino/json_text.hpp>

#include <algorithm>
#include <fstream>

namespace krino::core {
namespace json = boost::json;

namespace {

// Compact JSON with object keys sorted, so the anchor of a structured input does not depend on
// the key order a writer chose.
json::value sorted_keys(const json::value& v) {
  if (v.is_object()) {
    std::vector<std::pair<std::string, json::value>> members;
    for (const auto& [key, value] : v.get_object()) members.emplace_back(std::string(key), sorted_keys(value));
    std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    json::object out;
    for (auto& [key, value] : members) out[key] = std::move(value);
    return out;
  }
  if (v.is_array()) {
    json::array out;
    for (const auto& e : v.get_array()) out.push_back(sorted_keys(e));
    return out;
  }
  return v;
}

std::string collapse_and_cut(std::string_view text, size_t limit) {
  std::string out;
  bool pending_space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += c;
  }
  if (out.size() <= limit) return out;
  size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
  out.resize(cut);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

const EvaluatorProjection* find_evaluator(const std::vector<EvaluatorProjection>& evaluators, std::string_view name) {
  auto it = std::lower_bound(evaluators.begin(), evaluators.end(), name,
                             [](const EvaluatorProjection& e, std::string_view n) { return e.name < n; });
  return it != evaluators.end() && it->name == name ? &*it : nullptr;
}

bool RunProjection::every_item_has_id() const {
  return !items.empty() && std::all_of(items.begin(), items.end(), [](const ItemProjection& i) { return i.id.has_value(); });
}

std::string input_anchor(std::string_view inputs_json) {
  json::value inputs;
  try {
    inputs = krino::json::parse(inputs_json);
  } catch (const std::exception&) {
    return collapse_and_cut(inputs_json, 80);
  }
  if (inputs.is_object()) {
    if (const auto* input = inputs.get_object().if_contains("input")) inputs = *input;
  }
  if (inputs.is_null()) return {};
  if (inputs.is_string()) return collapse_and_cut(inputs.get_string(), 80);
  return collapse_and_cut(::krino::json::to_compact_json(sorted_keys(inputs)), 80);
}

void RunProjectionBuilder::add_event(std::string_view line, const std::string& where) {
  const std::size_t first = line.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || line[first] != '{')
    throw runtime_error(where + ": expected a krino.event/1 object");
  try {
    const krino::event::EventHead head = krino::event::read_event_head(line);
    if (!head.has_schema) return;
    if (head.kind == krino::event::EventKind::run_started) {
      add_run_started(krino::event::read_run_started(line));
    } else if (head.kind == krino::event::EventKind::item_finished) {
      if (!krino::json::find_member(line, "index")) throw runtime_error(where + ": item_finished without an 'index'");
      add_item(krino::event::read_item_finished(line), where);
    } else if (head.kind == krino::event::EventKind::run_finished && head.run_index) {
      if (!krino::event::read_finished(line).cancelled()) completed_runs_.insert(*head.run_index);
    }
  } catch (const krino::event::DecodeError& e) {
    throw runtime_error(where + ": " + e.what());
  }
}

void RunProjectionBuilder::add_run_started(const krino::event::RunStarted& started) {
  if (started.run_index == 0) {  // a new experiment in an appended file: only the last one counts
    items_.clear();
    runs_ = 0;
    completed_runs_.clear();
    experiment_ = started.experiment_name;
  }
  runs_ = std::max(runs_, started.run_index + 1);
}

void RunProjectionBuilder::add_item(const krino::event::ItemFinished& event, const std::string& where) {
  const uint32_t run = event.run_index;
  const uint64_t index = event.index;
  runs_ = std::max(runs_, run + 1);
  ItemAccumulator& acc = items_[index];
  if (acc.last_run == run)
    throw runtime_error(where + ": item " + std::to_string(index) + " appears twice in run " + std::to_string(run) +
                        "; a run must report each item once");
  acc.last_run = run;
  ItemProjection& item = acc.item;
  item.index = index;
  if (!event.id.empty() && event.id.front() == '"') item.id = event.id_text();
  if (item.input.empty() && !event.inputs.empty()) item.input = input_anchor(event.inputs);
  ++item.runs;
  if (event.error) {
    ++item.failed_runs;
    if (item.first_error.empty()) item.first_error = event.error->message.empty() ? "an error" : event.error->message;
    return;  // no results: pass probability counts the run as failed, means leave it out
  }
  if (event.success) ++item.passing_runs;
  for (const auto& result : event.results) {
    if (result.name.empty()) throw runtime_error(where + ": a result without a 'name'");
    EvaluatorAccumulator& e = acc.evaluators[result.name];
    ++e.results;
    if (result.score) {
      e.score_sum += *result.score;
      ++e.scored;
    }
    if (result.success) ++e.passed;
    e.threshold = result.threshold;
  }
}

std::optional<uint32_t> RunProjectionBuilder::first_unfinished_run() const {
  for (uint32_t run = 0; run < runs_; ++run)
    if (completed_runs_.count(run) == 0) return run;
  return std::nullopt;
}

RunProjection RunProjectionBuilder::finish() {
  RunProjection projection;
  projection.experiment = std::move(experiment_);
  projection.runs = runs_;
  projection.items.reserve(items_.size());
  for (auto& [index, acc] : items_) {
    ItemProjection item = std::move(acc.item);
    for (const auto& [name, e] : acc.evaluators) {  // std::map: already sorted by name
      EvaluatorProjection ev;
      ev.name = name;
      if (e.scored > 0) ev.score = e.score_sum / e.scored;
      ev.pass = 2 * e.passed >= e.results;  // majority, ties pass
      ev.threshold = e.threshold;
      item.evaluators.push_back(std::move(ev));
    }
    projection.items.push_back(std::move(item));
  }
  items_.clear();
  runs_ = 0;
  return projection;
}

RunProjection read_run_projection(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw runtime_error("cannot read the run file '" + path + "'");
  RunProjectionBuilder builder;
  std::string line;
  uint64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (in.eof()) break;  // a last line without its line feed is incomplete (docs/json-output.md)
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    builder.add_event(line, path + ":" + std::to_string(number));
  }
  // A run that was killed, stopped with Ctrl-C or is still going holds only some of its items: a
  // gate over it would judge a different dataset than the baseline's.
  if (const auto run = builder.first_unfinished_run())
    throw runtime_error("'" + path + "' is an incomplete run: run " + std::to_string(*run) +
                        " has no completed run_finished event (it was interrupted, or is still going). Finish it "
                        "with `krino run EXPERIMENT --resume " + path + "` and gate the complete report");
  RunProjection projection = builder.finish();
  if (projection.items.empty())
    throw config_error("'" + path + "' holds no item_finished events; give the JSON Lines output of `krino run` "
                       "(the json reporter)");
  return projection;
}

}  // namespace krino::core
