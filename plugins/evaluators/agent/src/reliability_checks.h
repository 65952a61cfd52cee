// What the two reliability evaluators (tool_name_reliability, tool_description_reliability) share:
// a per-tool table of named checks, each passed, failed or skipped; the per-tool score over the
// checks that ran; and the result that averages the tools.
//
// A check is skipped when it needs a judge and none gave a verdict. Skipped checks are listed but
// never counted, so a tool's score is over the checks that actually ran.
#ifndef KRINO_AGENT_RELIABILITY_CHECKS_H
#define KRINO_AGENT_RELIABILITY_CHECKS_H

#include <krino/evaluator_options.hpp>

#include <krino/agent/tool_definition.hpp>
#include <krino/plugin.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace krino::agent {

enum class CheckOutcome { passed, failed, skipped };

struct Check {
  std::string name;
  CheckOutcome outcome;
  std::string detail;  // why a rule check failed; empty otherwise
};

struct ToolChecks {
  std::string tool;
  std::vector<Check> checks;  // in a fixed order per evaluator

  void add(std::string name, CheckOutcome outcome, std::string detail = {});
  void add(std::string name, bool passed, std::string detail = {});
  std::size_t ran() const;
  std::size_t passed() const;
  // passed / ran. The rule checks always run, so ran() is never 0 for the two evaluators; a table
  // with nothing run scores 1.0 (nothing was found wrong).
  double score() const;
};

// The tool definitions under metadata[`key`]. A missing or null list is an INVALID_ARGUMENT naming
// the key: these evaluators have nothing else to look at.
std::vector<ToolDefinition> read_required_tools(const TestCase& test_case, const std::string& key);

// score = mean of the per-tool scores (1.0 for no tools); metadata perToolResults
// [{toolName, score, checks: {check: true|false|"skipped"}, details?: {check: text}}].
EvalResult reliability_result(const CommonOptions& common, const std::vector<ToolChecks>& tools);

}  // namespace krino::agent

#endif  // KRINO_AGENT_RELIABILITY_CHECKS_H
