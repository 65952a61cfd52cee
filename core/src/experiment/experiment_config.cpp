#include "krino/core/experiment/experiment_config.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/experiment/config_document.hpp"

#include <boost/json.hpp>

#include <cmath>
#include <set>

namespace krino::core {
namespace {

namespace json = boost::json;

json::value normalize_use(const json::value& entry, const std::string& where) {
  if (entry.is_string()) return json::object{{"use", entry.get_string()}};
  if (!entry.is_object()) throw config_error(where + ": expected a name or an object");
  const auto& object = entry.get_object();
  if (object.contains("use")) return entry;
  if (object.size() == 1) {
    const auto& only = *object.begin();
    if (only.value().is_object() || only.value().is_null()) {
      json::object expanded = only.value().is_object() ? only.value().get_object() : json::object();
      expanded["use"] = only.key();
      return expanded;
    }
  }
  throw config_error(where + ": say which component to use, e.g. {use: exact_match, ...}");
}

std::string require_string(const json::object& object, std::string_view key, const std::string& where) {
  auto it = object.find(key);
  if (it == object.end()) throw config_error(where + ": '" + std::string(key) + "' is required");
  if (!it->value().is_string()) throw config_error(where + "." + std::string(key) + ": expected a string");
  return std::string(it->value().get_string());
}

std::string optional_string(const json::object& object, std::string_view key, const std::string& where,
                            std::string fallback = {}) {
  auto it = object.find(key);
  if (it == object.end() || it->value().is_null()) return fallback;
  if (!it->value().is_string()) throw config_error(where + "." + std::string(key) + ": expected a string");
  return std::string(it->value().get_string());
}

json::object optional_object(const json::object& object, std::string_view key, const std::string& where) {
  auto it = object.find(key);
  if (it == object.end() || it->value().is_null()) return {};
  if (!it->value().is_object()) throw config_error(where + "." + std::string(key) + ": expected a mapping");
  return it->value().get_object();
}

int64_t positive_integer(const json::object& object, std::string_view key, int64_t fallback, int64_t max) {
  auto it = object.find(key);
  if (it == object.end() || it->value().is_null()) return fallback;
  const auto& v = it->value();
  int64_t n = 0;
  if (v.is_int64()) n = v.get_int64();
  else if (v.is_uint64() && v.get_uint64() <= static_cast<uint64_t>(max)) n = static_cast<int64_t>(v.get_uint64());
  else throw config_error(std::string(key) + ": expected a whole number");
  if (n < 1 || n > max)
    throw config_error(std::string(key) + ": must be between 1 and " + std::to_string(max) + ", got " + std::to_string(n));
  return n;
}

ComponentUse parse_use(const json::value& entry, const std::string& where) {
  const auto& object = entry.get_object();
  ComponentUse use;
  use.component = require_string(object, "use", where);
  for (const auto& [key, value] : object) {
    if (key != "use") use.options[key] = value;
  }
  return use;
}

std::vector<ComponentUse> parse_uses(const json::object& root, std::string_view key) {
  std::vector<ComponentUse> uses;
  auto it = root.find(key);
  if (it == root.end() || it->value().is_null()) return uses;
  if (!it->value().is_array()) throw config_error(std::string(key) + ": expected a list");
  size_t i = 0;
  for (const auto& entry : it->value().get_array()) {
    uses.push_back(parse_use(entry, std::string(key) + "[" + std::to_string(i++) + "]"));
  }
  return uses;
}

bool has_scheme(std::string_view uri) {
  size_t colon = uri.find(':');
  if (colon == std::string_view::npos || colon < 2) return false;  // "C:" style and plain paths
  for (size_t i = 0; i < colon; ++i) {
    char c = uri[i];
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.')) return false;
  }
  return true;
}

// Relative file paths are relative to the experiment file, so an experiment and its data move
// together; other schemes are left to their resolver.
std::string resolve_dataset_uri(const std::string& uri, const std::filesystem::path& base_dir) {
  std::string path = uri;
  std::string prefix;
  if (uri.rfind("file://", 0) == 0) return uri;
  if (uri.rfind("file:", 0) == 0) {
    prefix = "file:";
    path = uri.substr(5);
  } else if (has_scheme(uri)) {
    return uri;
  }
  std::filesystem::path p(path);
  if (p.is_relative() && !base_dir.empty()) p = base_dir / p;
  return prefix + p.lexically_normal().string();
}

}  // namespace

void normalize_experiment_document(json::value& document) {
  if (!document.is_object()) throw config_error("an experiment file must be a mapping at the top level");
  auto& root = document.get_object();
  for (std::string_view key : {"evaluators", "reporters"}) {
    auto it = root.find(key);
    if (it == root.end() || it->value().is_null()) continue;
    if (it->value().is_string()) it->value() = json::array{it->value()};
    if (!it->value().is_array()) throw config_error(std::string(key) + ": expected a list");
    auto& array = it->value().get_array();
    for (size_t i = 0; i < array.size(); ++i) {
      array[i] = normalize_use(array[i], std::string(key) + "[" + std::to_string(i) + "]");
    }
  }
  if (auto it = root.find("dataset"); it != root.end() && it->value().is_string()) {
    it->value() = json::object{{"uri", it->value()}};
  }
  if (auto it = root.find("task"); it != root.end() && it->value().is_string()) {
    it->value() = json::object{{"kind", it->value()}};
  }
}

// judges, default_judge, judge_cache and prices: shared by experiment files and `krino eval --judges`.
void read_judge_settings(const json::object& root, ExperimentConfig& config) {
  config.judges = optional_object(root, "judges", "experiment");
  for (const auto& [name, judge] : config.judges)
    if (!judge.is_object()) throw config_error("judges." + std::string(name) + ": expected a mapping of judge options");
  config.default_judge = optional_string(root, "default_judge", "experiment");
  if (!config.default_judge.empty() && !config.judges.contains(config.default_judge))
    throw config_error("default_judge: no judge named '" + config.default_judge + "' under judges");
  if (auto it = root.find("judge_cache"); it != root.end()) {
    if (!it->value().is_bool() && !(it->value().is_string() && !it->value().get_string().empty()))
      throw config_error("judge_cache: expected true, false or a directory");
    config.judge_cache = it->value();
  }
  config.prices = optional_object(root, "prices", "experiment");
}

ExperimentConfig parse_experiment(const json::value& document, const std::filesystem::path& base_dir) {
  if (!document.is_object()) throw config_error("an experiment file must be a mapping at the top level");
  const auto& root = document.get_object();
  static const std::set<std::string, std::less<>> known = {
      "name", "description", "metadata", "dataset", "task", "evaluators", "reporters",
      "runs", "parallelism", "min_pass_rate", "seed", "isolation", "judges", "default_judge", "judge_cache", "prices", "gate",
      "resume"};
  for (const auto& [key, value] : root) {
    if (known.count(key) == 0) {
      std::string message = "unknown key '" + std::string(key) + "'; known keys:";
      for (const auto& k : known) message += " " + k;
      throw config_error(message);
    }
  }

  ExperimentConfig config;
  config.name = optional_string(root, "name", "experiment", "unnamed");
  config.description = optional_string(root, "description", "experiment");
  config.metadata = optional_object(root, "metadata", "experiment");

  auto dataset = root.find("dataset");
  if (dataset == root.end() || dataset->value().is_null()) throw config_error("dataset: required (a path or URI)");
  if (!dataset->value().is_object()) throw config_error("dataset: expected a path or a mapping with 'uri'");
  const auto& ds = dataset->value().get_object();
  for (const auto& [key, value] : ds) {
    if (key != "uri" && key != "resolver" && key != "options")
      throw config_error("dataset: unknown key '" + std::string(key) + "' (known: uri, resolver, options)");
  }
  config.dataset.uri = resolve_dataset_uri(require_string(ds, "uri", "dataset"), base_dir);
  config.dataset.resolver = optional_string(ds, "resolver", "dataset");
  config.dataset.options = optional_object(ds, "options", "dataset");

  if (auto task = root.find("task"); task != root.end() && !task->value().is_null()) {
    if (!task->value().is_object()) throw config_error("task: expected a kind or a mapping with 'kind'");
    const auto& t = task->value().get_object();
    config.task.kind = require_string(t, "kind", "task");
    for (const auto& [key, value] : t) {
      if (key != "kind") config.task.options[key] = value;
    }
  }
  config.task.base_dir = base_dir;

  config.evaluators = parse_uses(root, "evaluators");
  if (auto it = root.find("isolation"); it != root.end() && !it->value().is_null()) {
    if (!it->value().is_string() || (it->value().get_string() != "none" && it->value().get_string() != "process"))
      throw config_error("isolation: expected none or process");
    config.isolation = std::string(it->value().get_string());
  }
  if (config.evaluators.empty()) throw config_error("evaluators: at least one evaluator is required");
  read_judge_settings(root, config);
  config.reporters = parse_uses(root, "reporters");
  if (root.find("reporters") == root.end()) config.reporters.push_back({"console", {}});

  config.runs = static_cast<uint32_t>(positive_integer(root, "runs", 1, 10000));
  config.parallelism = static_cast<uint32_t>(positive_integer(root, "parallelism", 1, 100000));
  if (auto it = root.find("min_pass_rate"); it != root.end() && !it->value().is_null()) {
    if (!it->value().is_number()) throw config_error("min_pass_rate: expected a number between 0 and 1");
    double v = it->value().to_number<double>();
    if (!(v >= 0.0 && v <= 1.0)) throw config_error("min_pass_rate: expected a number between 0 and 1");
    config.min_pass_rate = v;
  }
  if (auto it = root.find("seed"); it != root.end() && !it->value().is_null()) {
    if (it->value().is_int64() && it->value().get_int64() >= 0) config.seed = static_cast<uint64_t>(it->value().get_int64());
    else if (it->value().is_uint64()) config.seed = it->value().get_uint64();
    else throw config_error("seed: expected a non-negative whole number");
  }
  if (auto it = root.find("resume"); it != root.end() && !it->value().is_null()) {
    // resume: REPORT, or resume: {from: REPORT, retry_errors: true}; a report path is relative to the
    // working directory, as reporters' paths are.
    if (it->value().is_string()) {
      config.resume.from = std::string(it->value().get_string());
    } else if (it->value().is_object()) {
      const auto& r = it->value().get_object();
      for (const auto& [key, value] : r)
        if (key != "from" && key != "retry_errors")
          throw config_error("resume: unknown key '" + std::string(key) + "' (known: from, retry_errors)");
      config.resume.from = require_string(r, "from", "resume");
      if (const auto* retry = r.if_contains("retry_errors"); retry != nullptr && !retry->is_null()) {
        if (!retry->is_bool()) throw config_error("resume.retry_errors: expected true or false");
        config.resume.retry_errors = retry->get_bool();
      }
    } else {
      throw config_error("resume: expected the path of a run's JSON Lines report, or {from: PATH, retry_errors: BOOL}");
    }
    if (config.resume.from.empty()) throw config_error("resume: the report's path is empty");
  }
  if (auto it = root.find("gate"); it != root.end()) {
    if (it->value().is_bool() && !it->value().get_bool()) {
      // gate: false switches it off (handy with --set gate=false)
    } else if (it->value().is_null() || it->value().is_bool()) {
      config.gate = parse_gate_config({}, base_dir, config.name);
    } else if (it->value().is_object()) {
      config.gate = parse_gate_config(it->value().get_object(), base_dir, config.name);
    } else {
      throw config_error("gate: expected a mapping of gate options (or true for the defaults)");
    }
  }
  return config;
}

ExperimentConfig load_experiment(const std::filesystem::path& file, const std::vector<std::string>& overrides) {
  json::value document = load_config_document(file);
  normalize_experiment_document(document);
  for (const auto& assignment : overrides) apply_override(document, assignment);
  normalize_experiment_document(document);
  return parse_experiment(document, file.parent_path());
}

ExperimentConfig load_judge_settings(const std::filesystem::path& file) {
  json::value document = load_config_document(file);
  if (!document.is_object()) throw config_error(file.string() + ": expected a mapping with 'judges'");
  const json::object& root = document.get_object();
  for (const auto& [key, value] : root) {
    if (key != "judges" && key != "default_judge" && key != "judge_cache" && key != "prices")
      throw config_error(file.string() + ": unknown key '" + std::string(key) +
                         "'; known keys: judges default_judge judge_cache prices");
  }
  ExperimentConfig config;
  read_judge_settings(root, config);
  if (config.judges.empty()) throw config_error(file.string() + ": 'judges' names no judge");
  return config;
}

}  // namespace krino::core
