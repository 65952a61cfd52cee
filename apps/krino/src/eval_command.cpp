// `krino eval`: a unix filter. Reads test cases as JSON lines, writes one JSON line per non-blank
// input line, in input order: the eval result, or {"line": n, "error": {...}} for that line. The
// experiment runner does the work, given the test cases directly (no dataset, no task).
#include "commands.hpp"
#include "exit_codes.hpp"
#include "exit_guard.hpp"
#include "signal_watcher.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/io_service.hpp"
#include "krino/core/experiment/experiment_config.hpp"
#include "krino/core/experiment/experiment_judges.hpp"
#include "krino/core/runner/experiment_runner.hpp"
#include "krino/core/runner/result_line_writer.hpp"

#include <krino/json_parse.hpp>
#include <boost/json.hpp>
#include <tbb/global_control.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

namespace krino::cli {
namespace json = boost::json;

int eval_command(const EvalArguments& args) {
  json::error_code ec;
  json::value options = krino::json::parse(args.config, ec);
  if (ec || !options.is_object()) throw core::usage_error("--config must be a JSON object, e.g. '{\"ignore_case\":true}'");

  std::unique_ptr<tbb::global_control> threads;
  if (args.parallelism > 0)
    threads = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, args.parallelism);

  core::Cancellation cancellation;
  SignalWatcher watcher(cancellation);
  core::HostServices host(cancellation, stderr, args.plugins.verbosity > 0 ? KRINO_LOG_INFO : KRINO_LOG_WARNING);
  // The command's one I/O service, which the judges' LLM client runs on. Declared before the judges
  // and the registry: it must outlive every plugin call, and it is stopped last.
  core::IoService io;
  std::unique_ptr<core::JudgeService> judges;
  if (!args.judges.empty())
    judges = core::make_judge_service(core::load_judge_settings(args.judges),
                                      core::JudgeSetupOptions{args.no_cache, core::process_environment(), &io});
  host.set_judge_service(judges.get());
  core::PluginRegistry registry;
  args.plugins.load(registry, host);

  std::ifstream file;
  std::istream* in = &std::cin;
  if (args.input != "-") {
    // A directory opens as a stream that reads nothing: it would score no line and exit 0.
    std::error_code status_error;
    if (std::filesystem::is_directory(args.input, status_error))
      throw core::usage_error("cannot read " + args.input + ": it is a directory; give a file of test cases, one a line");
    file.open(args.input, std::ios::binary);
    if (!file) throw core::usage_error("cannot read " + args.input);
    in = &file;
  }
  std::ios::sync_with_stdio(false);

  // One evaluator over the test cases; the seed is an experiment's default.
  core::ExperimentConfig config;
  config.name = "eval";
  config.dataset.uri = args.input;
  config.evaluators.push_back(core::ComponentUse{args.evaluator, options.get_object()});
  core::ResultLineWriter output(stdout);
  {
    const ExitGuard guard;
    core::RunnerEnvironment environment{io, in};
    environment.test_cases_idle = [&output](bool idle) { output.set_input_idle(idle); };
    core::ExperimentRunner runner(config, registry, host, cancellation, environment);
    runner.set_observer(&output);
    runner.run();
  }  // every instance is destroyed before the registry unloads the plugins
  output.finish();
  if (cancellation.requested()) return kInterrupted;
  return output.all_passed() ? kSuccess : kEvaluationFailed;
}

}  // namespace krino::cli
