// `krino gate` and `krino compare`: the regression gate and the run diff, over files.
#include "commands.hpp"
#include "exit_codes.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/gate/comparison_input.hpp"
#include "krino/core/gate/comparison_report.hpp"
#include "krino/core/gate/regression_gate.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <krino/json_text.hpp>

#include <cstdio>

namespace krino::cli {

void GateArguments::add_to(CLI::App& command) {
  command.add_option("--alpha", alpha, "Significance level of the tests (default 0.05)");
  command.add_option("--seed", seed, "Seed of the permutation and bootstrap draws (default 42)");
  command.add_option("--pairing", pairing, "How items are matched: auto, positional or id (default auto)")
      ->check(CLI::IsMember({"auto", "positional", "id"}));
  command.add_option("--permutation-iterations", permutation_iterations, "Permutation test iterations (default 10000)");
  command.add_option("--bootstrap-iterations", bootstrap_iterations, "Bootstrap iterations (default 10000)");
}

void GateArguments::apply(core::GateConfig& config) const {
  config.comparison.alpha = alpha;
  config.comparison.seed = seed;
  config.comparison.permutation_iterations = permutation_iterations;
  config.comparison.bootstrap_iterations = bootstrap_iterations;
  config.comparison.severity_margin = severity_margin;
  config.pairing = core::parse_pairing(pairing, "--pairing");
  core::validate_gate_config(config);
}

int gate_command(const GateArguments& args) {
  if (args.run.empty() || args.baseline.empty())
    throw core::usage_error("krino gate needs a run file and --baseline FILE, or --experiment ID and --run-id ID with --server URL");
  core::GateConfig config;
  config.baseline = args.baseline;
  config.verdict_dir = args.verdict_dir;
  args.apply(config);
  config.fail_on_regression = !args.no_fail_on_regression;
  config.fail_on_removed_items = args.fail_on_removed_items;
  config.fail_on_inconclusive = args.fail_on_inconclusive;
  config.on_removed_evaluator =
      args.on_removed_evaluator == "warn" ? core::RemovedEvaluatorPolicy::warn : core::RemovedEvaluatorPolicy::fail;
  config.bootstrap_passes = !args.no_bootstrap_pass;
  config.update_baseline = args.update;
  const core::RunProjection run = core::read_run_projection(args.run);
  const core::GateVerdict verdict = core::run_regression_gate(
      run, config, core::GateEnvironment::from_process(), "krino gate --update --baseline " + args.baseline + " " + args.run);
  if (args.json) std::fputs((krino::json::to_pretty_json(core::verdict_json(verdict)) + "\n").c_str(), stdout);
  else std::fputs(core::verdict_summary(verdict).c_str(), stdout);
  return verdict.fails_build ? kEvaluationFailed : kSuccess;
}

int compare_command(const CompareArguments& args) {
  core::GateConfig config;
  args.options.apply(config);
  const core::ComparisonInput a = core::load_comparison_input(args.a);
  const core::ComparisonInput b = core::load_comparison_input(args.b);
  const core::Pairing pairing = core::resolve_pairing(config.pairing, a, b);
  const core::Comparison comparison = core::compare_sides(core::to_side(a, pairing), core::to_side(b, pairing), config.comparison);
  core::ComparisonReportOptions report{args.a, args.b, core::pairing_name(pairing), config.comparison.alpha, args.max_items};
  const core::ReportFormat format = args.format == "json"       ? core::ReportFormat::json
                                    : args.format == "markdown" ? core::ReportFormat::markdown
                                                                : core::ReportFormat::text;
  std::fputs(core::render_comparison(comparison, report, format).c_str(), stdout);
  if (!args.fail_on_regression) return kSuccess;
  const bool regressed = comparison.pass_rate_regressed ||
                         std::any_of(comparison.evaluators.begin(), comparison.evaluators.end(),
                                     [](const core::EvaluatorComparison& e) { return e.status == core::ChangeStatus::regressed; });
  return regressed ? kEvaluationFailed : kSuccess;
}

}  // namespace krino::cli
