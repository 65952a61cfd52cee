#include "krino/core/mcp/run_tools.hpp"

#include "krino/core/mcp/in_process_run.hpp"
#include "krino/core/mcp/stored_run_recorder.hpp"
#include "krino/core/mcp/tool_arguments.hpp"
#include "krino/core/runner/result_line_writer.hpp"

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

#include <boost/json/array.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace krino::core::mcp {
namespace json = boost::json;

namespace {

// The evaluator uses a tool call asked for: `evaluators` ([{name, options}]) or the reference's
// `evaluator` with its `criteria` and `threshold`.
std::vector<ComponentUse> evaluator_uses(const json::object& arguments) {
  std::vector<ComponentUse> uses;
  if (const json::value* list = arguments.if_contains("evaluators"); list != nullptr) {
    for (const json::value& entry : list->as_array()) {
      ComponentUse use;
      use.component = std::string(entry.at("name").as_string());
      if (const json::value* options = entry.as_object().if_contains("options")) use.options = options->as_object();
      uses.push_back(std::move(use));
    }
    return uses;
  }
  ComponentUse use;
  use.component = string_argument(arguments, "evaluator").value_or("exact_match");
  if (auto criteria = string_argument(arguments, "criteria")) use.options["criteria"] = *criteria;
  // Only when asked for: each evaluator's own default otherwise (exact_match 1.0, llm_judge 0.5).
  if (auto threshold = number_argument(arguments, "threshold")) use.options["threshold"] = *threshold;
  uses.push_back(std::move(use));
  return uses;
}

// A judge evaluator with no judge configured would answer UNAVAILABLE on every item: say so first.
void require_judges(const ExperimentConfig& config, const PluginRegistry& plugins) {
  if (!config.judges.empty()) return;
  for (const ComponentUse& use : config.evaluators) {
    const Component* component = plugins.try_find(ComponentKind::evaluator, use.component);
    if (component != nullptr && (component->capabilities & KRINO_CAP_NEEDS_JUDGE) != 0)
      throw ToolError("evaluator '" + use.component + "' asks an LLM judge: give judges (as an experiment file's judges: section) or model");
  }
}

constexpr std::string_view kDatasetOnly[] = {"model", "temperature", "evaluator", "criteria", "threshold", "evaluators", "judges"};

ExperimentConfig dataset_experiment(const json::object& arguments, const std::string& dataset_path, const PluginRegistry& plugins) {
  if (arguments.contains("overrides")) throw ToolError("overrides: applies to experiment_path only");
  ExperimentConfig config;
  config.name = string_argument(arguments, "experiment_name").value_or("mcp-evaluation");
  config.dataset.uri = dataset_path;
  if (auto model = string_argument(arguments, "model")) {
    // The reference's run: each example answered by an OpenAI model, then scored.
    config.task.kind = "openai";
    config.task.options["model"] = *model;
    if (auto temperature = number_argument(arguments, "temperature")) config.task.options["temperature"] = *temperature;
  } else {
    if (arguments.contains("temperature")) throw ToolError("temperature: applies only with model");
    config.task.kind = "replay";  // the dataset's recorded outputs
  }
  config.evaluators = evaluator_uses(arguments);
  if (const json::object* judges = object_argument(arguments, "judges")) {
    config.judges = *judges;
  } else if (auto model = string_argument(arguments, "model")) {
    json::object judge;
    judge["provider"] = "openai";
    judge["model"] = *model;
    config.judges["default"] = std::move(judge);
  }
  require_judges(config, plugins);
  if (auto parallelism = integer_argument(arguments, "parallelism")) config.parallelism = static_cast<uint32_t>(*parallelism);
  if (auto rate = number_argument(arguments, "min_pass_rate")) config.min_pass_rate = *rate;
  return config;
}

ExperimentConfig file_experiment(const json::object& arguments, const std::string& experiment_path) {
  for (std::string_view name : kDatasetOnly) {
    if (arguments.contains(name))
      throw ToolError(std::string(name) + ": applies to dataset_path only; with experiment_path, set it in the file or with overrides");
  }
  std::vector<std::string> overrides;
  if (const json::value* list = arguments.if_contains("overrides")) {
    for (const json::value& o : list->as_array()) overrides.emplace_back(o.as_string());
  }
  ExperimentConfig config = load_experiment(experiment_path, overrides);
  // Standard output is the protocol's: the file's reporters (console among them) are not run; the
  // store keeps the results. The gate is the gate tool's; a resume is a command-line matter.
  config.reporters.clear();
  config.gate.reset();
  config.resume = {};
  if (auto parallelism = integer_argument(arguments, "parallelism")) config.parallelism = static_cast<uint32_t>(*parallelism);
  if (auto rate = number_argument(arguments, "min_pass_rate")) config.min_pass_rate = *rate;
  return config;
}

constexpr std::string_view kRunSummarySchema = R"json({"type":"object","description":"The experiment's summary, as krino run's report ends with it",
  "properties":{"runCount":{"type":"integer"},"totalCount":{"type":"integer"},"passCount":{"type":"number"},"failCount":{"type":"number"},
  "errorCount":{"type":"number"},"passRate":{"type":"number"},
  "evaluators":{"type":"object","description":"Per evaluator: averageScore, stdDev, passRate, itemStdDev",
    "additionalProperties":{"type":"object","properties":{"averageScore":{"type":"number"},"stdDev":{"type":"number"},
      "passRate":{"type":"number"},"itemStdDev":{"type":"number"}}}}},
  "required":["totalCount","passCount","failCount","errorCount","passRate","evaluators"]})json";

McpTool run_evaluation_tool(ToolServices& services) {
  McpTool tool;
  tool.name = "run_evaluation";
  tool.title = "Run an evaluation";
  tool.description =
      "Runs a dataset file (.jsonl, .json, .csv...) or an experiment file (YAML, as krino run takes) through krino's "
      "runner, stores the run in the results store (krino serve shows it) and returns its run id and summary: pass "
      "rate, counts and each evaluator's mean score. A dataset's recorded outputs are scored as they are, unless "
      "model names an OpenAI model to answer each example. Sends progress notifications when asked for.";
  tool.input_schema = schema_object(R"json({"type":"object","properties":{
    "dataset_path":{"type":"string","minLength":1,"description":"A dataset file to run (give this or experiment_path)"},
    "experiment_path":{"type":"string","minLength":1,"description":"An experiment file (YAML) to run, as krino run takes it"},
    "overrides":{"type":"array","items":{"type":"string","minLength":1},"description":"key=value settings, as krino run --set (experiment_path only)"},
    "model":{"type":"string","minLength":1,"description":"dataset_path only: an OpenAI model answers each example's input (the openai task) and is the default judge"},
    "temperature":{"type":"number","minimum":0,"maximum":2,"description":"The model's temperature; the task's default (0) when absent"},
    "evaluator":{"type":"string","minLength":1,"default":"exact_match","description":"dataset_path only: the evaluator, by id or short name (list_evaluators)"},
    "criteria":{"type":"string","minLength":1,"description":"The evaluator's criteria option (llm_judge)"},
    "threshold":{"type":"number","minimum":0,"maximum":1,"description":"The evaluator's pass threshold; its own default when absent"},
    "evaluators":{"type":"array","minItems":1,"description":"dataset_path only: several evaluators with their options, instead of evaluator",
      "items":{"type":"object","properties":{"name":{"type":"string","minLength":1},"options":{"type":"object"}},"required":["name"],"additionalProperties":false}},
    "judges":{"type":"object","description":"dataset_path only: LLM judges, as an experiment file's judges: section"},
    "experiment_name":{"type":"string","minLength":1,"description":"The experiment the run is stored under (default mcp-evaluation, or the file's name)"},
    "project":{"type":"string","minLength":1,"default":"mcp","description":"The project the run is stored under"},
    "parallelism":{"type":"integer","minimum":1,"maximum":1024,"description":"Items in flight (default: the experiment's, 1)"},
    "min_pass_rate":{"type":"number","minimum":0,"maximum":1,"description":"Below it, passed is false (default: the experiment's, 1)"},
    "progress_every":{"type":"integer","minimum":1,"default":10,"description":"Items between progress notifications"}},
    "additionalProperties":false})json");
  json::object output = schema_object(R"json({"type":"object","properties":{
    "run_id":{"type":"string","description":"The stored run (the last one when the experiment has several runs)"},
    "run_ids":{"type":"array","items":{"type":"string"}},
    "project":{"type":"string"},"experiment":{"type":"string"},
    "passed":{"type":"boolean","description":"The pass rate reached min_pass_rate"}},
    "required":["run_id","run_ids","project","experiment","passed","summary"]})json");
  output["properties"].as_object()["summary"] = schema_object(kRunSummarySchema);
  tool.output_schema = std::move(output);
  tool.handler = [&services](const json::object& arguments, const ToolContext& context) {
    const auto dataset_path = string_argument(arguments, "dataset_path");
    const auto experiment_path = string_argument(arguments, "experiment_path");
    if (dataset_path.has_value() == experiment_path.has_value())
      throw ToolError("give exactly one of dataset_path (a dataset file) and experiment_path (an experiment file)");
    ExperimentConfig config;
    std::vector<NamedFile> inputs;
    if (dataset_path) {
      require_readable_file("dataset_path", *dataset_path);
      config = dataset_experiment(arguments, *dataset_path, services.plugins());
    } else {
      require_readable_file("experiment_path", *experiment_path);
      config = file_experiment(arguments, *experiment_path);
      inputs.push_back({"the experiment file", *experiment_path});
    }
    const std::string project = string_argument(arguments, "project").value_or("mcp");
    const std::string experiment = string_argument(arguments, "experiment_name").value_or(config.name);
    const std::uint64_t every = static_cast<std::uint64_t>(integer_argument(arguments, "progress_every").value_or(10));

    // Progress over every run of the experiment: one count that only grows.
    std::uint64_t done_before = 0, done = 0;
    const std::uint32_t runs = config.runs;
    StoredRunRecorder recorder(services.store(), context.scope(), project, experiment,
                               [&](std::uint64_t in_run, std::optional<std::uint64_t> run_total) {
                                 if (in_run == 1 && done > 0) done_before = done;
                                 done = done_before + in_run;
                                 if (done % every != 0 && !(run_total && in_run == *run_total)) return;
                                 std::optional<double> total;
                                 if (run_total) total = static_cast<double>(*run_total) * runs;
                                 std::string message = std::to_string(done).append(" items scored");
                                 context.report_progress(static_cast<double>(done), total, message);
                               });
    const ExperimentOutcome outcome = run_in_process(services, InProcessRun{config, context.cancellation(), &recorder, nullptr, inputs});
    recorder.finish(outcome.cancelled);
    if (recorder.run_ids().empty()) throw ToolError("the experiment ran no run (nothing was stored)");

    ToolResult result;
    result.structured["run_id"] = recorder.run_ids().back();
    json::array ids;
    for (const std::string& id : recorder.run_ids()) ids.emplace_back(id);
    result.structured["run_ids"] = std::move(ids);
    result.structured["project"] = project;
    result.structured["experiment"] = experiment;
    result.structured["passed"] = outcome.passed;
    result.structured["summary"] = outcome.summary;
    return result;
  };
  return tool;
}

// Reads everything written to a memory stream, for the line writer `krino eval` prints with.
class MemoryFile {
 public:
  MemoryFile() : file_(open_memstream(&data_, &size_)) {
    if (file_ == nullptr) throw std::runtime_error("cannot open a memory stream");
  }
  ~MemoryFile() {
    if (file_ != nullptr) std::fclose(file_);
    std::free(data_);
  }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;
  std::FILE* file() const { return file_; }
  std::string text() {
    std::fflush(file_);
    return std::string(data_ != nullptr ? data_ : "", size_);
  }

 private:
  char* data_ = nullptr;
  std::size_t size_ = 0;
  std::FILE* file_;
};

McpTool evaluate_tool(ToolServices& services) {
  McpTool tool;
  tool.name = "evaluate";
  tool.title = "Score test cases";
  tool.description =
      "Scores the given test cases with one evaluator and its options, with no task and nothing stored, as krino eval "
      "does. Each test case has inputs, actualOutputs, expectedOutputs and metadata (missing sections are empty). "
      "Returns one result per case, in order: the evaluator's result, or the case's error.";
  tool.input_schema = schema_object(R"json({"type":"object","properties":{
    "test_cases":{"type":"array","minItems":1,"maxItems":100000,"items":{"type":"object"},"description":"krino.testcase/1 objects"},
    "evaluator":{"type":"string","minLength":1,"description":"The evaluator, by id or short name (list_evaluators)"},
    "options":{"type":"object","description":"The evaluator's options (describe_evaluator)"},
    "judges":{"type":"object","description":"LLM judges for a judge evaluator, as an experiment file's judges: section"}},
    "required":["test_cases","evaluator"],"additionalProperties":false})json");
  tool.output_schema = schema_object(R"json({"type":"object","properties":{
    "results":{"type":"array","items":{"type":"object"},"description":"Per case: its krino.evalresult/1, or {line, error} (line: the case's 1-based position)"},
    "passed":{"type":"integer"},"failed":{"type":"integer"},"all_passed":{"type":"boolean"}},
    "required":["results","passed","failed","all_passed"]})json");
  tool.handler = [&services](const json::object& arguments, const ToolContext& context) {
    ExperimentConfig config;
    config.name = "eval";
    config.dataset.uri = "-";
    config.evaluators.push_back(ComponentUse{*string_argument(arguments, "evaluator"), {}});
    if (const json::object* options = object_argument(arguments, "options")) config.evaluators.back().options = *options;
    if (const json::object* judges = object_argument(arguments, "judges")) config.judges = *judges;
    require_judges(config, services.plugins());
    // The cases as `krino eval` reads them: one a line.
    std::string lines;
    for (const json::value& test_case : arguments.at("test_cases").as_array()) lines.append(krino::json::to_compact_json(test_case)).push_back('\n');
    std::istringstream in(lines);
    MemoryFile out;
    ResultLineWriter writer(out.file());
    run_in_process(services, InProcessRun{config, context.cancellation(), &writer, &in});
    writer.finish();

    json::array results;
    std::int64_t passed = 0;
    std::istringstream written(out.text());
    std::string line;
    while (std::getline(written, line)) {
      json::value result = krino::json::parse(line);
      if (const json::value* success = result.as_object().if_contains("success"); success != nullptr && success->is_bool() && success->get_bool())
        ++passed;
      results.push_back(std::move(result));
    }
    ToolResult result;
    result.structured["passed"] = passed;
    result.structured["failed"] = static_cast<std::int64_t>(results.size()) - passed;
    result.structured["all_passed"] = writer.all_passed();
    result.structured["results"] = std::move(results);
    return result;
  };
  return tool;
}

}  // namespace

void add_run_tools(ToolRegistry& tools, ToolServices& services) {
  tools.add(run_evaluation_tool(services));
  tools.add(evaluate_tool(services));
}

}  // namespace krino::core::mcp
