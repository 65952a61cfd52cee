#include "krino/core/gate/baseline_file.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/round6.hpp"
#include "krino/core/common/utc_time.hpp"
#include "krino/core/common/atomic_file.hpp"
#include "krino/core/statistics/run_statistics.hpp"
#include "krino/core/version.hpp"

#include <krino/json_parse.hpp>
#include <boost/json.hpp>
#include <krino/json_text.hpp>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <set>
#include <sstream>

namespace krino::core {
namespace json = boost::json;

namespace {

std::optional<uint64_t> positional_index(std::string_view key) {
  if (key.rfind("item-", 0) != 0 || key.size() == 5) return std::nullopt;
  uint64_t n = 0;
  const char* first = key.data() + 5;
  const char* last = key.data() + key.size();
  auto [ptr, ec] = std::from_chars(first, last, n);
  if (ec != std::errc() || ptr != last || (key.size() > 6 && key[5] == '0')) return std::nullopt;
  return n;
}

json::value optional_double(const std::optional<double>& v) { return v ? json::value(*v) : json::value(nullptr); }

}  // namespace

boost::json::object default_provenance() {
  return json::object{{"krino", kVersion}, {"createdAt", utc_timestamp_now()}};
}

Baseline make_baseline(const RunProjection& run, Pairing pairing, json::object provenance) {
  Baseline baseline;
  baseline.experiment = run.experiment;
  if (pairing == Pairing::automatic) pairing = run.every_item_has_id() ? Pairing::dataset_item_id : Pairing::positional;
  baseline.pairing = pairing;
  baseline.provenance = std::move(provenance);
  for (const auto& item : run.items) {
    const std::string name = item.id ? "item " + std::to_string(item.index) + " (id '" + *item.id + "')"
                                     : "item " + std::to_string(item.index);
    if (item.failed_runs > 0)
      throw config_error(name + " failed (" + item.first_error +
                         ") and has no scores to keep; fix it or take it out of the dataset, then write the baseline again");
    if (item.evaluators.empty()) throw config_error(name + " has no eval results; a baseline needs at least one per item");
  }
  ComparisonSide side = side_from_run(run, pairing);  // keys, order, 6-decimal scores; id checks
  std::set<std::string_view> seen;
  for (size_t i = 0; i < side.items.size(); ++i) {
    if (!seen.insert(side.items[i].key).second)
      throw config_error("two items have the id '" + side.items[i].key + "'; ids must be unique to pair by id");
  }
  for (auto& s : side.items) {
    BaselineItem item;
    item.key = std::move(s.key);
    item.index = s.index;
    item.evaluators = std::move(s.evaluators);
    baseline.items.push_back(std::move(item));
  }
  // The anchors, by index (side_from_run reorders under id pairing).
  for (auto& item : baseline.items) {
    auto it = std::lower_bound(run.items.begin(), run.items.end(), *item.index,
                               [](const ItemProjection& p, uint64_t index) { return p.index < index; });
    if (it != run.items.end() && it->index == *item.index) item.input = it->input;
  }
  return baseline;
}

void write_baseline(const Baseline& baseline, const std::filesystem::path& path) {
  json::array items;
  for (const auto& item : baseline.items) {
    json::array evaluators;
    for (const auto& e : item.evaluators) {
      evaluators.push_back(json::object{{"name", e.name},
                                        {"score", e.score ? json::value(round6(*e.score)) : json::value(nullptr)},
                                        {"threshold", optional_double(e.threshold)},
                                        {"pass", e.pass}});
    }
    json::object o{{"key", item.key}};
    if (item.index) o["index"] = *item.index;
    o["input"] = item.input;
    o["evaluators"] = std::move(evaluators);
    items.push_back(std::move(o));
  }
  json::object document{{"formatVersion", kBaselineFormatVersion},
                        {"experiment", baseline.experiment},
                        {"dataset", json::object{{"itemCount", baseline.items.size()}}},
                        {"pairing", pairing_name(baseline.pairing)},
                        {"runsPerItem", 1},
                        {"items", std::move(items)},
                        {"provenance", baseline.provenance}};
  write_file_atomically(path, ::krino::json::to_pretty_json(document) + "\n");
}

Baseline read_baseline(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw runtime_error("cannot read the baseline '" + path.string() + "'");
  std::stringstream text;
  text << in.rdbuf();
  const std::string where = "baseline " + path.string();
  json::value parsed;
  try {
    parsed = krino::json::parse(text.str());
  } catch (const std::exception& e) {
    throw config_error(where + ": not valid JSON (" + e.what() + ")");
  }
  if (!parsed.is_object()) throw config_error(where + ": expected a JSON object");
  const json::object& root = parsed.get_object();
  const auto* version = root.if_contains("formatVersion");
  if (version == nullptr || !version->is_number()) throw config_error(where + ": 'formatVersion' is missing");
  if (version->to_number<double>() > kBaselineFormatVersion)
    throw config_error(where + ": formatVersion " + json::serialize(*version) + " is newer than this krino reads (" +
                       std::to_string(kBaselineFormatVersion) + "); upgrade krino or re-create the baseline");
  if (const auto* runs = root.if_contains("runsPerItem"); runs != nullptr && !(runs->is_number() && runs->to_number<double>() == 1.0))
    throw config_error(where + ": runsPerItem must be 1 in format v1");

  Baseline baseline;
  if (const auto* e = root.if_contains("experiment"); e != nullptr && e->is_string()) baseline.experiment = std::string(e->get_string());
  baseline.pairing = Pairing::positional;
  if (const auto* p = root.if_contains("pairing"); p != nullptr && p->is_string()) {
    baseline.pairing = parse_pairing(p->get_string(), where + ": pairing");
    if (baseline.pairing == Pairing::automatic) throw config_error(where + ": pairing must be positional or dataset_item_id");
  }
  if (const auto* p = root.if_contains("provenance"); p != nullptr && p->is_object()) baseline.provenance = p->get_object();

  const auto* items = root.if_contains("items");
  if (items == nullptr || !items->is_array() || items->get_array().empty())
    throw config_error(where + ": has no items; re-create it with KRINO_UPDATE_BASELINE=1");
  std::set<std::string> keys;
  size_t position = 0;
  for (const auto& entry : items->get_array()) {
    const std::string at = where + ": items[" + std::to_string(position++) + "]";
    if (!entry.is_object()) throw config_error(at + ": expected an object");
    const json::object& o = entry.get_object();
    BaselineItem item;
    const auto* key = o.if_contains("key");
    if (key == nullptr || !key->is_string() || key->get_string().find_first_not_of(" \t\r\n") == json::string::npos)
      throw config_error(at + ": blank or missing 'key'");
    item.key = std::string(key->get_string());
    if (!keys.insert(item.key).second) throw config_error(at + ": the key '" + item.key + "' appears twice");
    if (const auto* index = o.if_contains("index"); index != nullptr && index->is_number()) item.index = index->to_number<uint64_t>();
    if (baseline.pairing == Pairing::positional) {
      auto n = positional_index(item.key);
      if (!n) throw config_error(at + ": key '" + item.key + "' is not a positional key (item-<n>, n from 0)");
      if (item.index && *item.index != *n) throw config_error(at + ": key '" + item.key + "' disagrees with its index");
      item.index = n;
    }
    if (const auto* input = o.if_contains("input"); input != nullptr && input->is_string()) item.input = std::string(input->get_string());
    const auto* evaluators = o.if_contains("evaluators");
    if (evaluators == nullptr || !evaluators->is_array() || evaluators->get_array().empty())
      throw config_error(at + " ('" + item.key + "'): has no evaluators");
    for (const auto& ev : evaluators->get_array()) {
      if (!ev.is_object()) throw config_error(at + ": an evaluator entry is not an object");
      const json::object& e = ev.get_object();
      EvaluatorProjection p;
      const auto* name = e.if_contains("name");
      if (name == nullptr || !name->is_string() || name->get_string().empty())
        throw config_error(at + ": an evaluator without a 'name'");
      p.name = std::string(name->get_string());
      const auto* score = e.if_contains("score");
      if (score != nullptr && score->is_number()) p.score = round6(score->to_number<double>());
      else if (score != nullptr && !score->is_null()) throw config_error(at + ": '" + p.name + "' score is not a number");
      if (const auto* t = e.if_contains("threshold"); t != nullptr && t->is_number()) p.threshold = t->to_number<double>();
      const auto* pass = e.if_contains("pass");
      if (pass == nullptr || !pass->is_bool()) throw config_error(at + ": '" + p.name + "' needs a boolean 'pass'");
      p.pass = pass->get_bool();
      item.evaluators.push_back(std::move(p));
    }
    std::sort(item.evaluators.begin(), item.evaluators.end(),
              [](const EvaluatorProjection& a, const EvaluatorProjection& b) { return a.name < b.name; });
    for (size_t i = 1; i < item.evaluators.size(); ++i)
      if (item.evaluators[i].name == item.evaluators[i - 1].name)
        throw config_error(at + ": evaluator '" + item.evaluators[i].name + "' appears twice");
    baseline.items.push_back(std::move(item));
  }
  return baseline;
}

ComparisonSide side_from_baseline(const Baseline& baseline, Pairing pairing) {
  if (pairing == Pairing::dataset_item_id && baseline.pairing != Pairing::dataset_item_id)
    throw config_error("pairing by id, but the baseline was written with positional keys; re-create it with ids "
                       "(KRINO_UPDATE_BASELINE=1) or pair by position");
  ComparisonSide side;
  side.runs = 1;
  for (const auto& item : baseline.items) {
    SideItem s;
    s.key = item.key;
    if (pairing == Pairing::positional && baseline.pairing != Pairing::positional) {
      if (!item.index)
        throw config_error("pairing by position, but baseline item '" + item.key +
                           "' has no index; re-create the baseline or pair by id");
      s.key = positional_key(*item.index);
    }
    s.index = item.index;
    const bool pass = std::all_of(item.evaluators.begin(), item.evaluators.end(), [](const auto& e) { return e.pass; });
    s.pass_probability = pass ? 1.0 : 0.0;
    s.evaluators = item.evaluators;
    side.items.push_back(std::move(s));
  }
  if (pairing == Pairing::positional && baseline.pairing != Pairing::positional)
    std::sort(side.items.begin(), side.items.end(), [](const SideItem& a, const SideItem& b) { return *a.index < *b.index; });
  return side;
}

}  // namespace krino::core
