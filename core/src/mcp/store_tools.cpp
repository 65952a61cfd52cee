#include "krino/core/mcp/store_tools.hpp"

#include "krino/core/gate/comparison_input.hpp"
#include "krino/core/gate/comparison_report.hpp"
#include "krino/core/gate/regression_gate.hpp"
#include "krino/core/mcp/stored_run_projection.hpp"
#include "krino/core/mcp/tool_arguments.hpp"
#include "krino/core/server_api/run_comparison.hpp"

#include <krino/json_parse.hpp>

#include <boost/json/array.hpp>

#include <algorithm>

namespace krino::core::mcp {
namespace json = boost::json;

namespace {

// The run a parameter names, or a tool error naming the parameter.
store::RunDetails stored_run(store::Store& store, const store::Scope& scope, std::string_view parameter,
                             const std::string& run_id) {
  std::optional<store::RunDetails> run = store.run(scope, run_id);
  if (!run) {
    std::string message(parameter);
    message.append(": no run '").append(run_id).append("' in the results store (list_experiments lists the runs)");
    throw ToolError(message);
  }
  return std::move(*run);
}

json::value optional_text(const std::optional<std::string>& text) { return text ? json::value(*text) : json::value(nullptr); }

json::object parse_object(std::string_view text) {
  json::error_code ec;
  json::value value = krino::json::parse(text, ec);
  return !ec && value.is_object() ? std::move(value.get_object()) : json::object();
}

// ------------------------------------------------------------------ list_experiments

McpTool list_experiments_tool(ToolServices& services) {
  McpTool tool;
  tool.name = "list_experiments";
  tool.title = "List stored runs";
  tool.description =
      "The runs in krino's results store (what run_evaluation and the server reporter stored), newest first: run id, "
      "project, experiment, dataset, status, start and end times, item and pass counts and pass rate.";
  tool.input_schema = schema_object(R"json({"type":"object","properties":{
    "limit":{"type":"integer","minimum":1,"maximum":1000,"default":20,"description":"Most runs returned"},
    "dataset_name":{"type":"string","minLength":1,"description":"Only runs of this dataset (its name, as the run's metadata records it)"},
    "project":{"type":"string","minLength":1,"description":"Only this project's runs"},
    "experiment":{"type":"string","minLength":1,"description":"Only this experiment's runs (its name)"}},
    "additionalProperties":false})json");
  tool.output_schema = schema_object(R"json({"type":"object","properties":{
    "runs":{"type":"array","items":{"type":"object","properties":{
      "run_id":{"type":"string"},"project":{"type":"string"},"experiment":{"type":"string"},"experiment_id":{"type":"string"},
      "dataset":{"type":["string","null"]},"status":{"type":"string"},"started_at":{"type":"string"},"completed_at":{"type":["string","null"]},
      "item_count":{"type":"integer"},"passed_count":{"type":"integer"},"pass_rate":{"type":["number","null"]},"metadata":{"type":"object"}},
      "required":["run_id","project","experiment","status","started_at","item_count","passed_count","pass_rate"]}}},
    "required":["runs"]})json");
  tool.handler = [&services](const json::object& arguments, const ToolContext& context) {
    store::Store& store = services.store();
    const std::size_t limit = static_cast<std::size_t>(integer_argument(arguments, "limit").value_or(20));
    const auto dataset = string_argument(arguments, "dataset_name");
    const auto project_filter = string_argument(arguments, "project");
    const auto experiment_filter = string_argument(arguments, "experiment");
    struct Listed {
      std::string started_at;
      json::object row;
    };
    std::vector<Listed> listed;
    for (const store::ProjectSummary& project : store.projects(context.scope())) {
      if (project_filter && project.name != *project_filter) continue;
      const auto experiments = store.experiments(context.scope(), project.name);
      if (!experiments) continue;
      for (const store::ExperimentSummary& experiment : *experiments) {
        if (experiment_filter && experiment.name != *experiment_filter) continue;
        for (const store::RunSummary& run : store.runs(context.scope(), experiment.id, limit)) {
          json::object metadata = parse_object(run.metadata);
          const json::value* d = metadata.if_contains("dataset");
          const std::optional<std::string> dataset_name = d != nullptr && d->is_string() ? std::optional<std::string>(d->get_string()) : std::nullopt;
          if (dataset && dataset_name != dataset) continue;
          json::object row;
          row["run_id"] = run.id;
          row["project"] = project.name;
          row["experiment"] = experiment.name;
          row["experiment_id"] = experiment.id;
          row["dataset"] = optional_text(dataset_name);
          row["status"] = store::status_name(run.status);
          row["started_at"] = run.started_at;
          row["completed_at"] = optional_text(run.completed_at);
          row["item_count"] = run.item_count;
          row["passed_count"] = run.passed_count;
          row["pass_rate"] = run.item_count > 0 ? json::value(static_cast<double>(run.passed_count) / static_cast<double>(run.item_count))
                                                : json::value(nullptr);
          row["metadata"] = std::move(metadata);
          listed.push_back({run.started_at, std::move(row)});
        }
      }
    }
    // Newest first; run ids are UUIDv7, so the id breaks a tie in start time the same way.
    std::sort(listed.begin(), listed.end(), [](const Listed& a, const Listed& b) {
      if (a.started_at != b.started_at) return a.started_at > b.started_at;
      return a.row.at("run_id").as_string() > b.row.at("run_id").as_string();
    });
    json::array runs;
    for (std::size_t i = 0; i < listed.size() && i < limit; ++i) runs.push_back(std::move(listed[i].row));
    ToolResult result;
    result.structured["runs"] = std::move(runs);
    return result;
  };
  return tool;
}

// ------------------------------------------------------------------ compare_runs

ComparisonOptions comparison_options(const json::object& arguments) {
  ComparisonOptions options;
  if (auto alpha = number_argument(arguments, "alpha")) options.alpha = *alpha;
  return options;
}

json::object verdict_brief(const GateVerdict& verdict) {
  json::object full = verdict_json(verdict);
  json::object brief;
  for (std::string_view key : {"status", "passed", "message", "reasons", "warnings"}) {
    if (const json::value* v = full.if_contains(key)) brief[key] = *v;
  }
  return brief;
}

McpTool compare_runs_tool(ToolServices& services) {
  McpTool tool;
  tool.name = "compare_runs";
  tool.title = "Compare two runs";
  tool.description =
      "Compares two stored runs of one experiment, run_id_a the baseline and run_id_b the new run, with krino's "
      "significance tests (McNemar on the pass rate, a paired permutation test and bootstrap interval per "
      "evaluator): metric deltas, p-values, the items that flipped, and the gate's verdict (regressions flagged).";
  tool.input_schema = schema_object(R"json({"type":"object","properties":{
    "run_id_a":{"type":"string","minLength":1,"description":"The baseline run"},
    "run_id_b":{"type":"string","minLength":1,"description":"The new run"},
    "alpha":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1,"default":0.05,"description":"Significance level"},
    "max_items":{"type":"integer","minimum":0,"maximum":1000,"default":20,"description":"Flipped items listed"}},
    "required":["run_id_a","run_id_b"],"additionalProperties":false})json");
  tool.output_schema = schema_object(R"json({"type":"object","properties":{
    "baseline_run_id":{"type":"string"},"candidate_run_id":{"type":"string"},"experiment":{"type":"string"},
    "regressed":{"type":"boolean","description":"The pass rate or an evaluator got significantly worse"},
    "comparison":{"type":"object","description":"As krino compare --format json: passRate, evaluators, flippedItems, warnings"},
    "verdict":{"type":"object","description":"The gate's decision on this pair: status, passed, message, reasons, warnings"}},
    "required":["baseline_run_id","candidate_run_id","experiment","regressed","comparison","verdict"]})json");
  tool.handler = [&services](const json::object& arguments, const ToolContext& context) {
    store::Store& store = services.store();
    const std::string a = *string_argument(arguments, "run_id_a");
    const std::string b = *string_argument(arguments, "run_id_b");
    const store::RunDetails baseline = stored_run(store, context.scope(), "run_id_a", a);
    const store::RunDetails candidate = stored_run(store, context.scope(), "run_id_b", b);
    if (baseline.experiment_id != candidate.experiment_id)
      throw ToolError("run_id_a is a run of experiment '" + baseline.experiment_name + "' and run_id_b of '" + candidate.experiment_name +
                      "'; krino compares runs of one experiment");
    const ComparisonOptions options = comparison_options(arguments);
    server_api::RunComparisons comparisons(store, options, 1);
    std::shared_ptr<const server_api::RunComparison> compared;
    try {
      compared = comparisons.compare(context.scope(), candidate.experiment_id, a, b);
    } catch (const store::StoreError& e) {
      throw ToolError(e.what());  // a run still RUNNING, say
    }
    ComparisonReportOptions report{a, b, pairing_name(compared->pairing), options.alpha,
                                   static_cast<std::size_t>(integer_argument(arguments, "max_items").value_or(20))};
    GateConfig gate;
    gate.comparison = options;
    gate.baseline_label = "run " + a;
    const std::shared_ptr<const Comparison> comparison(compared, &compared->comparison);
    const GateVerdict verdict = decide_verdict(comparison, gate, pairing_name(compared->pairing), "take run_id_b as the new baseline");
    const bool regressed = compared->comparison.pass_rate_regressed ||
                           std::any_of(compared->comparison.evaluators.begin(), compared->comparison.evaluators.end(),
                                       [](const EvaluatorComparison& e) { return e.status == ChangeStatus::regressed; });
    ToolResult result;
    result.structured["baseline_run_id"] = a;
    result.structured["candidate_run_id"] = b;
    result.structured["experiment"] = candidate.experiment_name;
    result.structured["regressed"] = regressed;
    result.structured["comparison"] = comparison_json(compared->comparison, report);
    result.structured["verdict"] = verdict_brief(verdict);
    return result;
  };
  return tool;
}

// ------------------------------------------------------------------ get_failing_queries

// Whether a stored item fails: by krino's verdict, or with `threshold`, by a score below it.
bool item_fails(const json::object& item, std::optional<double> threshold) {
  if (item.contains("error")) return true;
  if (!threshold) {
    const json::value* success = item.if_contains("success");
    return success == nullptr || !success->is_bool() || !success->get_bool();
  }
  const json::value* results = item.if_contains("evalResults");
  if (results == nullptr || !results->is_array()) return true;
  for (const json::value& r : results->get_array()) {
    const json::value* score = r.is_object() ? r.get_object().if_contains("score") : nullptr;
    if (score == nullptr || !score->is_number() || score->to_number<double>() < *threshold) return true;
  }
  return false;
}

json::object failing_entry(const store::StoredItem& stored, json::object& item) {
  json::object out;
  out["seq"] = stored.seq;
  for (auto [from, to] : {std::pair{"itemId", "item_id"}, std::pair{"datasetItemId", "dataset_item_id"}, std::pair{"inputs", "input"},
                          std::pair{"expectedOutputs", "expected_output"}, std::pair{"actualOutputs", "actual_output"},
                          std::pair{"error", "error"}}) {
    const json::value* v = item.if_contains(from);
    out[to] = v != nullptr ? *v : json::value(nullptr);
  }
  // Each evaluator's verdict, with its reason: what the agent needs to see why the item failed.
  json::array evaluators;
  if (const json::value* results = item.if_contains("evalResults"); results != nullptr && results->is_array()) {
    for (const json::value& r : results->get_array()) {
      if (!r.is_object()) continue;
      json::object e;
      for (std::string_view key : {"name", "score", "success", "threshold", "reason"}) {
        const json::value* v = r.get_object().if_contains(key);
        e[key] = v != nullptr ? *v : json::value(nullptr);
      }
      evaluators.push_back(std::move(e));
    }
  }
  out["evaluators"] = std::move(evaluators);
  return out;
}

McpTool get_failing_queries_tool(ToolServices& services) {
  McpTool tool;
  tool.name = "get_failing_queries";
  tool.title = "Failing items of a run";
  tool.description =
      "The items of a stored run that failed, in run order, a page at a time: input, expected and actual output, the "
      "error if any, and each evaluator's score, verdict, threshold and reason. Without threshold an item fails by "
      "krino's verdict (an evaluator failed, or it errored); with it, when some evaluator scored below it.";
  tool.input_schema = schema_object(R"json({"type":"object","properties":{
    "run_id":{"type":"string","minLength":1},
    "threshold":{"type":"number","minimum":0,"maximum":1,"description":"Fail items with a score below this instead of by their verdict"},
    "limit":{"type":"integer","minimum":1,"maximum":500,"default":20,"description":"Items in this page"},
    "offset":{"type":"integer","minimum":0,"default":0,"description":"Failing items to skip (next_offset of the previous page)"}},
    "required":["run_id"],"additionalProperties":false})json");
  tool.output_schema = schema_object(R"json({"type":"object","properties":{
    "run_id":{"type":"string"},"experiment":{"type":"string"},"total_items":{"type":"integer"},
    "failing_count":{"type":"integer","description":"Failing items in the whole run"},
    "items":{"type":"array","items":{"type":"object","properties":{"seq":{"type":"integer"},"input":{},"expected_output":{},
      "actual_output":{},"error":{},"evaluators":{"type":"array"}},"required":["seq","evaluators"]}},
    "next_offset":{"type":["integer","null"],"description":"Pass as offset for the next page; null on the last"}},
    "required":["run_id","experiment","total_items","failing_count","items","next_offset"]})json");
  tool.handler = [&services](const json::object& arguments, const ToolContext& context) {
    store::Store& store = services.store();
    const std::string run_id = *string_argument(arguments, "run_id");
    const store::RunDetails run = stored_run(store, context.scope(), "run_id", run_id);
    const auto threshold = number_argument(arguments, "threshold");
    const std::int64_t limit = integer_argument(arguments, "limit").value_or(20);
    const std::int64_t offset = integer_argument(arguments, "offset").value_or(0);
    json::array page;
    std::int64_t failing = 0;
    std::int64_t total = 0;
    std::int64_t after = -1;
    while (!context.cancelled()) {
      store::ItemPage items = store.items(context.scope(), run_id, after, 500);
      for (const store::StoredItem& stored : items.items) {
        ++total;
        json::object item = parse_object(stored.document);
        if (!item_fails(item, threshold)) continue;
        if (failing >= offset && failing < offset + limit) page.push_back(failing_entry(stored, item));
        ++failing;
      }
      if (!items.next_after) break;
      after = *items.next_after;
    }
    ToolResult result;
    result.structured["run_id"] = run_id;
    result.structured["experiment"] = run.experiment_name;
    result.structured["total_items"] = total;
    result.structured["failing_count"] = failing;
    result.structured["items"] = std::move(page);
    result.structured["next_offset"] = offset + limit < failing ? json::value(offset + limit) : json::value(nullptr);
    return result;
  };
  return tool;
}

// ------------------------------------------------------------------ gate

McpTool gate_tool(ToolServices& services) {
  McpTool tool;
  tool.name = "gate";
  tool.title = "Regression gate";
  tool.description =
      "krino's regression gate on a run: a stored run (run_id) or a run file (run_file, a JSON Lines report), against "
      "a baseline file (baseline_file, as krino gate; written from the run when absent, outside CI) or, for a stored "
      "run, against another stored run (baseline_run_id) or by default the experiment's last successful run before it. "
      "Returns the verdict: PASS, FAIL, NO_BASELINE or INCONCLUSIVE, with reasons.";
  tool.input_schema = schema_object(R"json({"type":"object","properties":{
    "run_id":{"type":"string","minLength":1,"description":"The stored run to gate (give this or run_file)"},
    "run_file":{"type":"string","minLength":1,"description":"A JSON Lines report of a run, as krino gate takes"},
    "baseline_file":{"type":"string","minLength":1,"description":"A baseline file (docs/gate.md)"},
    "baseline_run_id":{"type":"string","minLength":1,"description":"A stored run to gate against (run_id only)"},
    "update":{"type":"boolean","default":false,"description":"Overwrite baseline_file from the run and pass"},
    "alpha":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1,"default":0.05}},
    "additionalProperties":false})json");
  tool.output_schema = schema_object(R"json({"type":"object","properties":{
    "status":{"type":"string","enum":["PASS","FAIL","NO_BASELINE","INCONCLUSIVE","UPDATED"]},
    "passed":{"type":"boolean"},"fails_build":{"type":"boolean"},
    "verdict":{"type":"object","description":"The verdict document (docs/gate.md#the-verdict-file)"}},
    "required":["status","passed","fails_build","verdict"]})json");
  tool.handler = [&services](const json::object& arguments, const ToolContext& context) {
    const auto run_id = string_argument(arguments, "run_id");
    const auto run_file = string_argument(arguments, "run_file");
    const auto baseline_file = string_argument(arguments, "baseline_file");
    const auto baseline_run = string_argument(arguments, "baseline_run_id");
    if (run_id.has_value() == run_file.has_value()) throw ToolError("give exactly one of run_id (a stored run) and run_file (a report file)");
    if (baseline_file && baseline_run) throw ToolError("give baseline_file or baseline_run_id, not both");
    if (run_file && !baseline_file) throw ToolError("baseline_file: a run_file is gated against a baseline file");
    const ComparisonOptions options = comparison_options(arguments);
    GateVerdict verdict;
    json::object document;
    if (baseline_file) {
      // As `krino gate` does, on the run's projection: from the report, or from the stored items.
      RunProjection projection;
      if (run_file) {
        require_readable_file("run_file", *run_file);
        projection = read_run_projection(*run_file);
      } else {
        stored_run(services.store(), context.scope(), "run_id", *run_id);
        projection = stored_run_projection(services.store(), context.scope(), *run_id);
      }
      GateConfig config;
      config.baseline = *baseline_file;
      config.comparison = options;
      config.update_baseline = bool_argument(arguments, "update").value_or(false);
      // The verdict file goes beside the baseline, not into the server's working directory.
      config.verdict_dir = std::filesystem::path(*baseline_file).parent_path() / "krino-gate";
      verdict = run_regression_gate(projection, config, GateEnvironment::from_process(), "the gate tool with update: true");
      document = verdict_json(verdict);
    } else {
      if (arguments.contains("update")) throw ToolError("update: applies to baseline_file only");
      store::Store& store = services.store();
      const store::RunDetails run = stored_run(store, context.scope(), "run_id", *run_id);
      if (baseline_run) stored_run(store, context.scope(), "baseline_run_id", *baseline_run);
      server_api::RunComparisons comparisons(store, options, 1);
      server_api::GateOutcome outcome;
      try {
        outcome = comparisons.gate(context.scope(), server_api::GateRequest{run.experiment_id, run.id, baseline_run, std::nullopt});
      } catch (const store::StoreError& e) {
        throw ToolError(e.what());
      }
      verdict = outcome.verdict;
      document = parse_object(server_api::gate_outcome_json(outcome));
    }
    ToolResult result;
    result.structured["status"] = gate_status_name(verdict.status);
    result.structured["passed"] = verdict.passed;
    result.structured["fails_build"] = verdict.fails_build;
    result.structured["verdict"] = std::move(document);
    return result;
  };
  return tool;
}

}  // namespace

void add_store_tools(ToolRegistry& tools, ToolServices& services) {
  tools.add(list_experiments_tool(services));
  tools.add(compare_runs_tool(services));
  tools.add(get_failing_queries_tool(services));
  tools.add(gate_tool(services));
}

}  // namespace krino::core::mcp
