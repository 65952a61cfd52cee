#pragma once
// An experiment, as written in an experiment file (docs/experiment-file.md), checked and typed.
#include "krino/core/gate/gate_config.hpp"
#include "krino/core/shard/shard_spec.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace krino::core {

// One use of a component: which one ("use": id or short name) and its options.
struct ComponentUse {
  std::string component;
  boost::json::object options;
};

struct DatasetConfig {
  std::string uri;       // as written, with a relative path resolved against the experiment file
  std::string resolver;  // id or short name; empty = chosen by scheme and extension
  boost::json::object options;
};

struct TaskConfig {
  std::string kind = "replay";
  boost::json::object options;
  // The experiment file's directory: tasks resolve relative paths in their options (exec's cwd)
  // against it, as the dataset path is. Empty: the current directory.
  std::filesystem::path base_dir;
};

// `krino run --resume` / `resume:`: continue an interrupted run from its JSON Lines report
// (docs/resume.md).
struct ResumeConfig {
  std::string from;           // the report; empty: a fresh run
  bool retry_errors = false;  // run items that ended in an error again
};

struct ExperimentConfig {
  std::string name = "unnamed";
  std::string description;
  boost::json::object metadata;
  DatasetConfig dataset;
  TaskConfig task;
  std::vector<ComponentUse> evaluators;
  // Where plugin evaluators run unless an entry says otherwise: "none" (in this process) or
  // "process" (krino-plugin-host workers). docs/experiment-file.md.
  std::string isolation = "none";
  std::vector<ComponentUse> reporters;
  uint32_t runs = 1;
  uint32_t parallelism = 1;
  double min_pass_rate = 1.0;  // below it, `krino run` exits with "evaluation failed"
  uint64_t seed = 0;
  // LLM judges (docs/judges.md): name -> judge options, in file order; read into LlmConfigs
  // (and their API keys from the environment) only when the run starts.
  boost::json::object judges;
  std::string default_judge;      // empty: the judge named "default", else the first
  boost::json::value judge_cache = true;  // true, false, or a directory
  boost::json::object prices;     // model -> {input_per_million, output_per_million}
  // Set by `krino run --shard K/N`, never by the file: only this share of the dataset is evaluated.
  std::optional<ShardSpec> shard;
  // The regression gate (docs/gate.md): present when the file has a `gate:` section (`gate: {}`
  // takes every default).
  std::optional<GateConfig> gate;
  ResumeConfig resume;
};

// Rewrites the shorthands of the evaluators/reporters/task/dataset entries into their explicit
// object form, so overrides like evaluators.0.threshold=0.5 address a stable shape:
//   "exact_match"                     -> {"use": "exact_match"}
//   {"regex": {"pattern": "x"}}       -> {"use": "regex", "pattern": "x"}
//   dataset: "data.jsonl"             -> {"uri": "data.jsonl"}
//   task: "replay"                    -> {"kind": "replay"}
void normalize_experiment_document(boost::json::value& document);

// Checks and types a normalized document. `base_dir` resolves a relative dataset path. Throws a
// configuration error that names the offending key.
ExperimentConfig parse_experiment(const boost::json::value& document, const std::filesystem::path& base_dir);

// A file holding only judge settings (judges, default_judge, judge_cache, prices), as in an experiment
// file: for `krino eval --judges FILE`. Only the judge members of the result are set.
ExperimentConfig load_judge_settings(const std::filesystem::path& file);

// load + normalize + overrides + parse, for the CLI.
ExperimentConfig load_experiment(const std::filesystem::path& file, const std::vector<std::string>& overrides);

}  // namespace krino::core
