// krino: evaluate LLM applications and agents. See `krino --help` and docs/cli.md.
#include "commands.hpp"
#include "exit_codes.hpp"
#include "signal_watcher.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/version.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  using namespace krino::cli;
  // Before any thread exists, so every thread inherits the mask and only the watcher sees signals.
  SignalWatcher::block_signals();

  CLI::App app{"krino: evaluate LLM applications and agents"};
  app.set_version_flag("--version", std::string("krino ") + krino::core::kVersion);
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 success; 1 evaluation failed (pass rate under min_pass_rate, a gate regression, or a line\n"
      "failed in eval);\n"
      "2 usage or configuration error; 3 runtime failure; 130 interrupted (reports flushed).\n"
      "Documentation: docs/cli.md, docs/experiment-file.md");

  RunArguments run;
  auto* run_cmd = app.add_subcommand("run", "Run an experiment file (YAML or JSON)");
  run_cmd->add_option("experiment", run.experiment, "The experiment file")->required()->type_name("FILE");
  run_cmd->add_option("--set", run.overrides, "Override a setting: key=value, dotted for nesting (repeatable)")
      ->type_name("KEY=VALUE")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  run_cmd->add_flag("--no-cache", run.no_cache, "Ask the LLM judges again instead of reusing cached replies");
  run_cmd->add_option("--shard", run.shard, "Evaluate only shard K of N (1-based; docs/sharding.md)")->type_name("K/N");
  run_cmd->add_option("--resume", run.resume,
                      "Continue an interrupted run from its JSON Lines report: keep its finished items, run the rest "
                      "(docs/resume.md)")
      ->type_name("REPORT");
  run_cmd->add_flag("--retry-errors", run.retry_errors, "With --resume, run the items that ended in an error again");
  run.plugins.add_to(*run_cmd);

  EvalArguments eval;
  auto* eval_cmd = app.add_subcommand(
      "eval", "Score test cases given as JSON lines (krino.testcase/1): one result line per input line");
  eval_cmd->add_option("--evaluator,-e", eval.evaluator, "Evaluator id or short name")->required()->type_name("NAME");
  eval_cmd->add_option("--config,-c", eval.config, "The evaluator's options as a JSON object")->type_name("JSON");
  eval_cmd->add_option("--parallelism,-j", eval.parallelism, "Worker threads (default: every core)");
  eval_cmd->add_option("input", eval.input, "JSON Lines file, or - for standard input")->type_name("FILE");
  eval_cmd->add_option("--judges", eval.judges, "LLM judges for judge evaluators: a YAML/JSON file with 'judges' (and "
                                                "optionally default_judge, judge_cache, prices), as in an experiment")
      ->type_name("FILE");
  eval_cmd->add_flag("--no-cache", eval.no_cache, "Ask the LLM judges again instead of reusing cached replies");
  eval.plugins.add_to(*eval_cmd);

  ExtractArguments extract;
  auto* extract_cmd = app.add_subcommand("extract", "Print the canonical trace (krino.trace/1) a trace extractor reads from a file");
  extract_cmd->add_option("input", extract.input, "A raw trace: JSON file, or - for standard input")->type_name("FILE");
  extract_cmd->add_option("--extractor,-x", extract.extractor, "Trace extractor id or short name (default: auto, by detection)")
      ->type_name("NAME");
  extract_cmd->add_flag("--detect", extract.detect, "Print every extractor's confidence for the input instead");
  extract_cmd->add_flag("--compact", extract.compact, "Print the trace on one line");
  extract.plugins.add_to(*extract_cmd);

  GateArguments gate;
  auto* gate_cmd = app.add_subcommand("gate", "Compare a run's JSON Lines output with a baseline file (the regression gate)");
  gate_cmd->add_option("run", gate.run, "The run: JSON Lines output of `krino run` (json reporter)")->type_name("RUN.jsonl");
  gate_cmd->add_option("--baseline,-b", gate.baseline, "The baseline file (written when missing, locally)")->type_name("FILE");
  gate_cmd->add_option("--server", gate.server, "Ask a results server's gate instead (default $KRINO_SERVER_URL with --experiment)")
      ->type_name("URL");
  gate_cmd->add_option("--experiment", gate.experiment_id, "With --server: the experiment's id")->type_name("ID");
  gate_cmd->add_option("--run-id", gate.run_id, "With --server: the candidate run's id (the server reporter prints it)")->type_name("ID");
  gate_cmd->add_option("--baseline-run", gate.baseline_run_id, "With --server: compare with this run, not the newest successful one")
      ->type_name("ID");
  gate_cmd->add_option("--baseline-branch", gate.baseline_branch, "With --server: look for the baseline on this git branch only");
  gate_cmd->add_option("--api-key", gate.api_key, "With --server: an EDITOR key (default $KRINO_API_KEY)")->type_name("KEY");
  gate_cmd->add_option("--severity-margin", gate.severity_margin, "Fail when one item drops by more than this (default 0.15)");
  gate_cmd->add_option("--verdict-dir", gate.verdict_dir, "Where the verdict JSON goes (default krino-gate)")->type_name("DIR");
  gate_cmd->add_option("--on-removed-evaluator", gate.on_removed_evaluator, "fail or warn (default fail)")
      ->check(CLI::IsMember({"fail", "warn"}));
  gate_cmd->add_flag("--update", gate.update, "Overwrite the baseline from this run and pass (also KRINO_UPDATE_BASELINE=1)");
  gate_cmd->add_flag("--no-fail-on-regression", gate.no_fail_on_regression, "Record a regression without failing");
  gate_cmd->add_flag("--fail-on-removed-items", gate.fail_on_removed_items, "Fail when baseline items are missing");
  gate_cmd->add_flag("--fail-on-inconclusive", gate.fail_on_inconclusive, "Fail when there are too few items to decide");
  gate_cmd->add_flag("--no-bootstrap-pass", gate.no_bootstrap_pass, "Fail once when the baseline had to be created");
  gate_cmd->add_flag("--json", gate.json, "Print the verdict JSON instead of the summary");
  gate.add_to(*gate_cmd);

  CompareArguments compare;
  auto* compare_cmd = app.add_subcommand("compare", "Diff two runs (JSON Lines outputs or baseline files): A is before, B after");
  compare_cmd->add_option("a", compare.a, "Before: a run's JSON Lines output or a baseline")->required()->type_name("A");
  compare_cmd->add_option("b", compare.b, "After: a run's JSON Lines output or a baseline")->required()->type_name("B");
  compare_cmd->add_option("--format,-f", compare.format, "text (default), json or markdown")
      ->check(CLI::IsMember({"text", "json", "markdown"}));
  compare_cmd->add_option("--max-items", compare.max_items, "Flipped items listed (default 20; the rest are counted)");
  compare_cmd->add_flag("--fail-on-regression", compare.fail_on_regression, "Exit 1 when B regressed significantly");
  compare.options.add_to(*compare_cmd);

  MergeArguments merge;
  auto* merge_cmd = app.add_subcommand("merge", "Merge the JSON Lines outputs of `run --shard` into the file one run would write");
  merge_cmd->add_option("shards", merge.inputs, "Every shard's krino.event/1 file")->required()->type_name("FILE...");
  merge_cmd->add_option("-o,--output", merge.output, "The merged file (- for standard output)")->required()->type_name("FILE");
  merge_cmd->add_flag("--allow-missing", merge.allow_missing, "Merge even when some shards' files are absent (marked in the output)");

  UploadArguments upload;
  auto* upload_cmd = app.add_subcommand("upload", "Send a run's json report, or the server reporter's spool, to a results server");
  upload_cmd->add_option("file", upload.file, "A json report (krino.event/1 lines) or a spool (krino.spool/1 lines)")->required()->type_name("FILE");
  upload_cmd->add_option("--server", upload.server, "The server's URL (default $KRINO_SERVER_URL)")->type_name("URL");
  upload_cmd->add_option("--project", upload.project, "The project (default $KRINO_PROJECT)")->type_name("NAME");
  upload_cmd->add_option("--experiment", upload.experiment, "The experiment's name on the server (default: the report's)")->type_name("NAME");
  upload_cmd->add_option("--api-key", upload.api_key, "An EDITOR or ADMIN key (default $KRINO_API_KEY)")->type_name("KEY");
  upload_cmd->add_flag("--allow-loss", upload.allow_loss, "Exit 0 even when some items did not reach the server");
  upload.plugins.add_to(*upload_cmd);

  DatasetArguments dataset;
  auto* dataset_cmd = app.add_subcommand("dataset", "Server datasets: push a file as a new version, pull a version, diff two");
  dataset_cmd->require_subcommand(1);
  auto* push_cmd = dataset_cmd->add_subcommand("push", "Send a local dataset as the next version of a server dataset");
  push_cmd->add_option("file", dataset.file, "The dataset (JSON Lines, JSON, CSV: whatever `krino run` reads)")->required()->type_name("FILE");
  push_cmd->add_option("--name", dataset.name, "The server dataset (created when missing)")->required()->type_name("NAME");
  push_cmd->add_option("--description", dataset.description, "The version's description")->type_name("TEXT");
  dataset.plugins.add_to(*push_cmd);
  auto* pull_cmd = dataset_cmd->add_subcommand("pull", "Write a version as JSON Lines (krino.example/1, with item ids)");
  pull_cmd->add_option("version", dataset.refs, "name@N or name@latest")->required()->expected(1)->type_name("NAME@VERSION");
  pull_cmd->add_option("-o,--output", dataset.output, "The file (default standard output); never overwritten without --force")->type_name("FILE");
  pull_cmd->add_flag("--force", dataset.force, "Overwrite the output file");
  auto* diff_cmd = dataset_cmd->add_subcommand("diff", "Items added, removed and with changed expected outputs, by dataset item id");
  diff_cmd->add_option("versions", dataset.refs, "name@A name@B (before, after)")->required()->expected(2)->type_name("NAME@VERSION");
  diff_cmd->add_flag("--json", dataset.json, "Print the changes as JSON");
  for (CLI::App* command : {push_cmd, pull_cmd, diff_cmd}) {
    command->add_option("--server", dataset.server, "The server's URL (default $KRINO_SERVER_URL)")->type_name("URL");
    command->add_option("--api-key", dataset.api_key, "The key (EDITOR to push; default $KRINO_API_KEY)")->type_name("KEY");
  }

  ServeArguments serve;
  auto* serve_cmd = app.add_subcommand("serve", "Run the results server: REST API and storage for runs (docs/server.md)");
  serve_cmd->add_option("--listen", serve.listen, "Address and port to listen on (default 127.0.0.1:8080)")->type_name("HOST:PORT");
  serve_cmd->add_option("--data-dir", serve.data_dir, "Where the server keeps its files (default $XDG_DATA_HOME/krino)")->type_name("DIR");
  serve_cmd->add_option("--database", serve.database, "A SQLite file (default krino.db in the data directory) or a postgresql:// URI")->type_name("FILE");
  serve_cmd->add_option("--max-body-bytes", serve.max_body_bytes, "Largest request body accepted (default 64 MiB)")->type_name("N");
  serve_cmd->add_flag("--require-read-key", serve.require_read_key, "Once keys are in use, reads need a key too (writes always do)");
  serve.add_alert_options(*serve_cmd);
  serve.add_job_options(*serve_cmd);
  serve_cmd->add_option("--mcp-allowed-origin", serve.mcp_allowed_origins,
                        "A browser Origin allowed to use /mcp besides localhost's, e.g. https://agent.example.com (repeatable)")
      ->type_name("ORIGIN");
  serve_cmd->add_option("--trace-retention-days", serve.trace_retention_days,
                        "Delete production traces this many days after their last span arrived (default 0: keep them)")
      ->type_name("DAYS")
      ->check(CLI::Range(0u, 36500u));
  serve.plugins.add_to(*serve_cmd);

  McpArguments mcp;
  auto* mcp_cmd = app.add_subcommand("mcp", "Serve MCP (Model Context Protocol) over stdio, for coding agents (docs/mcp.md)");
  mcp.plugins.add_to(*mcp_cmd);
  mcp_cmd->add_option("--data-dir", mcp.data_dir, "Where runs are stored, as krino serve's (default $XDG_DATA_HOME/krino)")->type_name("DIR");
  mcp_cmd->add_option("--database", mcp.database, "A SQLite file (default krino.db in the data directory) or a postgresql:// URI")->type_name("FILE");

  auto* plugins_cmd = app.add_subcommand("plugins", "Inspect the plugins krino finds");
  plugins_cmd->require_subcommand(1);
  PluginsArguments list;
  auto* list_cmd = plugins_cmd->add_subcommand("list", "Every component of every plugin, and plugins that failed to load");
  list_cmd->add_flag("--names", list.names, "Print only the components' short names, one a line (for scripts)");
  list_cmd->add_flag("--plugin-names", list.plugin_names, "Print only the plugin names --plugins accepts, one a line");
  list_cmd->add_option("--kind", list.kind, "Only components of this kind")
      ->check(CLI::IsMember({"evaluator", "dataset-resolver", "trace-extractor", "reporter"}))
      ->type_name("KIND");
  list.plugins.add_to(*list_cmd);
  PluginsArguments info;
  auto* info_cmd = plugins_cmd->add_subcommand("info", "A component's description and options");
  info_cmd->add_option("name", info.name, "Component id or short name")->required();
  info_cmd->add_flag("--json", info.json, "Print the options' JSON Schema instead");
  info.plugins.add_to(*info_cmd);
  PluginsCheckArguments check;
  auto* check_cmd = plugins_cmd->add_subcommand(
      "check", "Call every component of a plugin library on sample inputs, in worker processes, and report what to fix");
  check_cmd->add_option("library", check.library, "The plugin library (.so)")->required()->type_name("LIB");
  check_cmd->add_option("--timeout-ms", check.timeout_ms, "Time each component's checks may take (default 10000)")
      ->check(CLI::PositiveNumber)
      ->type_name("MS");
  check_cmd->add_option("--memory-mb", check.memory_mb, "Address space of each worker, 0 for no limit (default 2048)")
      ->check(CLI::NonNegativeNumber)
      ->type_name("MB");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kSuccess : kUsageError;
  }

  try {
    if (*run_cmd) return run_command(run);
    if (*eval_cmd) return eval_command(eval);
    if (*merge_cmd) return merge_command(merge);
    if (*serve_cmd) return serve_command(serve);
    if (*mcp_cmd) return mcp_command(mcp);
    if (*upload_cmd) return upload_command(upload);
    if (*dataset_cmd) return dataset_command(dataset, *push_cmd ? "push" : *pull_cmd ? "pull" : "diff");
    if (*extract_cmd) return extract_command(extract);
    if (*gate_cmd) return gate.experiment_id.empty() && gate.run_id.empty() && gate.server.empty() ? gate_command(gate) : server_gate_command(gate);
    if (*compare_cmd) return compare_command(compare);
    if (*list_cmd) return plugins_list_command(list);
    if (*info_cmd) return plugins_info_command(info);
    if (*check_cmd) return plugins_check_command(check);
  } catch (const krino::core::KrinoError& e) {
    std::fprintf(stderr, "krino: error: %s\n", e.what());
    return e.kind() == krino::core::ErrorKind::runtime ? kRuntimeError : kUsageError;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "krino: error: %s\n", e.what());
    return kRuntimeError;
  }
  return kUsageError;
}
