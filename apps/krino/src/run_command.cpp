#include "commands.hpp"
#include "exit_codes.hpp"
#include "exit_guard.hpp"
#include "signal_watcher.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/io_service.hpp"
#include "krino/core/experiment/experiment_config.hpp"
#include "krino/core/experiment/experiment_judges.hpp"
#include "krino/core/gate/regression_gate.hpp"
#include "krino/core/host/host_http.hpp"
#include "krino/core/runner/experiment_runner.hpp"

#include <cstdio>
#include <optional>

namespace krino::cli {
namespace {

// Hands the run's events to the gate's projection as the runner holds them.
class ProjectionFeed final : public core::ExperimentRunner::Observer {
 public:
  explicit ProjectionFeed(core::RunProjectionBuilder& projection) : projection_(projection) {}
  void on_run_started(const krino::event::RunStarted& started) override { projection_.add_run_started(started); }
  void on_item(const krino::event::ItemFinished& item) override { projection_.add_item(item, "run event"); }

 private:
  core::RunProjectionBuilder& projection_;
};

}  // namespace

int run_command(const RunArguments& args) {
  std::optional<core::ShardSpec> shard;
  if (!args.shard.empty()) shard = core::parse_shard_spec(args.shard);  // a bad --shard first: it is the quick fix
  core::ExperimentConfig config = core::load_experiment(args.experiment, args.overrides);
  config.shard = shard;
  if (!args.resume.empty()) config.resume.from = args.resume;
  if (args.retry_errors) {
    if (config.resume.from.empty()) throw core::usage_error("--retry-errors needs --resume REPORT (or resume: in the experiment)");
    config.resume.retry_errors = true;
  }
  core::Cancellation cancellation;
  SignalWatcher watcher(cancellation);
  core::HostServices host(cancellation, stderr, args.plugins.verbosity >= 2   ? KRINO_LOG_DEBUG
                                                : args.plugins.verbosity == 1 ? KRINO_LOG_INFO
                                                                              : KRINO_LOG_WARNING);
  // The command's one I/O service, on which the task's calls and the judges' LLM client run.
  // Declared before the judges and the registry: it must outlive every plugin call, and it is
  // stopped last.
  core::IoService io;
  // Lent to plugins that talk to a server (the server reporter): they share the command's I/O service.
  core::HostHttp http(io.context());
  host.set_http(&http);
  const std::unique_ptr<core::JudgeService> judges =
      core::make_judge_service(config, core::JudgeSetupOptions{args.no_cache, core::process_environment(), &io});
  host.set_judge_service(judges.get());
  core::PluginRegistry registry;
  args.plugins.load(registry, host);

  // The gate keeps only the item-level projection (scores and passes), never the outputs.
  std::optional<core::RunProjectionBuilder> projection;
  if (config.gate) projection.emplace();
  core::ExperimentOutcome outcome;
  {
    const ExitGuard guard;
    core::RunnerEnvironment environment{io};
    environment.inputs.push_back({"the experiment file", args.experiment});
    core::ExperimentRunner runner(config, registry, host, cancellation, environment);
    std::optional<ProjectionFeed> feed;
    if (projection) runner.set_observer(&feed.emplace(*projection));
    outcome = runner.run();
  }  // every instance is destroyed before the registry unloads the plugins
  if (outcome.cancelled) return kInterrupted;
  bool gate_fails = false;
  if (projection) {
    const core::GateVerdict verdict =
        core::run_regression_gate(projection->finish(), *config.gate, core::GateEnvironment::from_process(),
                                  "KRINO_UPDATE_BASELINE=1 krino run " + args.experiment);
    std::fputs(core::verdict_summary(verdict).c_str(), stderr);
    gate_fails = verdict.fails_build;
  }
  return outcome.passed && !gate_fails ? kSuccess : kEvaluationFailed;
}

}  // namespace krino::cli
