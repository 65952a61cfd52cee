#include "krino/core/gate/run_projection.hpp"

#include "krino/core/common/error.hpp"

#include <boost/json.hpp>
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

std::optional<double> optional_number(const json::object& o, std::string_view key) {
  auto it = o.find(key);
  if (it == o.end() || !it->value().is_number()) return std::nullopt;
  return it->value().to_number<double>();
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
    inputs = json::parse(inputs_json);
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
  json::value parsed;
  try {
    parsed = json::parse(line);
  } catch (const std::exception& e) {
    throw runtime_error(where + ": not a JSON document (" + e.what() + ")");
  }
  if (!parsed.is_object()) throw runtime_error(where + ": expected a krino.event/1 object");
  const json::object& event = parsed.get_object();
  const auto* schema = event.if_contains("schema");
  if (schema == nullptr || !schema->is_string() || schema->get_string() != "krino.event/1") return;
  const auto* kind = event.if_contains("event");
  if (kind == nullptr || !kind->is_string()) return;
  const auto* run_value = event.if_contains("run_index");
  const uint32_t run = run_value != nullptr && run_value->is_number() ? run_value->to_number<uint32_t>() : 0;

  if (kind->get_string() == "run_started") {
    if (run == 0) {  // a new experiment in an appended file: only the last one counts
      items_.clear();
      runs_ = 0;
      experiment_.clear();
      if (const auto* exp = event.if_contains("experiment"); exp != nullptr && exp->is_object())
        if (const auto* name = exp->get_object().if_contains("name"); name != nullptr && name->is_string())
          experiment_ = std::string(name->get_string());
    }
    runs_ = std::max(runs_, run + 1);
    return;
  }
  if (kind->get_string() != "item_finished") return;

  const auto* index_value = event.if_contains("index");
  if (index_value == nullptr || !index_value->is_number())
    throw runtime_error(where + ": item_finished without an 'index'");
  const uint64_t index = index_value->to_number<uint64_t>();
  runs_ = std::max(runs_, run + 1);
  ItemAccumulator& acc = items_[index];
  if (acc.last_run == run)
    throw runtime_error(where + ": item " + std::to_string(index) + " appears twice in run " + std::to_string(run) +
                        "; a run must report each item once");
  acc.last_run = run;
  ItemProjection& item = acc.item;
  item.index = index;
  if (const auto* id = event.if_contains("id"); id != nullptr && id->is_string()) item.id = std::string(id->get_string());
  if (item.input.empty())
    if (const auto* inputs = event.if_contains("inputs")) item.input = input_anchor(json::serialize(*inputs));
  ++item.runs;
  const auto* success = event.if_contains("success");
  const auto* error = event.if_contains("error");
  if (error != nullptr && !error->is_null()) {
    ++item.failed_runs;
    if (item.first_error.empty()) {
      item.first_error = "an error";
      if (error->is_object())
        if (const auto* message = error->get_object().if_contains("message"); message != nullptr && message->is_string())
          item.first_error = std::string(message->get_string());
    }
    return;  // no results: pass probability counts the run as failed, means leave it out
  }
  if (success != nullptr && success->is_bool() && success->get_bool()) ++item.passing_runs;
  const auto* results = event.if_contains("results");
  if (results == nullptr || !results->is_array()) return;
  for (const auto& r : results->get_array()) {
    if (!r.is_object()) continue;
    const auto& result = r.get_object();
    const auto* name = result.if_contains("name");
    if (name == nullptr || !name->is_string()) throw runtime_error(where + ": a result without a 'name'");
    EvaluatorAccumulator& e = acc.evaluators[std::string(name->get_string())];
    ++e.results;
    if (auto score = optional_number(result, "score")) {
      e.score_sum += *score;
      ++e.scored;
    }
    if (const auto* pass = result.if_contains("success"); pass != nullptr && pass->is_bool() && pass->get_bool())
      ++e.passed;
    e.threshold = optional_number(result, "threshold");
  }
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
  RunProjection projection = builder.finish();
  if (projection.items.empty())
    throw config_error("'" + path + "' holds no item_finished events; give the JSON Lines output of `krino run` "
                       "(the json reporter)");
  return projection;
}

}  // namespace krino::core
