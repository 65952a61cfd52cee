#include "reliability_checks.h"

#include <boost/json.hpp>

#include <algorithm>
#include <utility>

namespace krino::agent {

void ToolChecks::add(std::string name, CheckOutcome outcome, std::string detail) {
  checks.push_back(Check{std::move(name), outcome, std::move(detail)});
}

void ToolChecks::add(std::string name, bool passed, std::string detail) {
  add(std::move(name), passed ? CheckOutcome::passed : CheckOutcome::failed, passed ? std::string() : std::move(detail));
}

std::size_t ToolChecks::ran() const {
  return static_cast<std::size_t>(
      std::count_if(checks.begin(), checks.end(), [](const Check& c) { return c.outcome != CheckOutcome::skipped; }));
}

std::size_t ToolChecks::passed() const {
  return static_cast<std::size_t>(
      std::count_if(checks.begin(), checks.end(), [](const Check& c) { return c.outcome == CheckOutcome::passed; }));
}

double ToolChecks::score() const {
  const std::size_t run = ran();
  return run == 0 ? 1.0 : static_cast<double>(passed()) / static_cast<double>(run);
}

std::vector<ToolDefinition> read_required_tools(const TestCase& test_case, const std::string& key) {
  const boost::json::value* list = test_case.find(Section::metadata, key);
  if (list == nullptr)
    throw invalid_argument("metadata has no '" + key + "': give the definitions of the tools to check");
  if (list->is_null())
    throw invalid_argument("metadata['" + key + "'] is null: give the definitions of the tools to check");
  return read_tool_definitions(*list, "metadata." + key);
}

namespace {

boost::json::value outcome_json(CheckOutcome outcome) {
  switch (outcome) {
    case CheckOutcome::passed: return true;
    case CheckOutcome::failed: return false;
    case CheckOutcome::skipped: break;
  }
  return "skipped";
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) {
    if (!out.empty()) out += ", ";
    out += word;
  }
  return out;
}

}  // namespace

EvalResult reliability_result(const CommonOptions& common, const std::vector<ToolChecks>& tools) {
  double sum = 0.0;
  std::size_t perfect = 0;
  std::vector<std::string> shortfalls;  // "<tool> passed k of n (failed: ...)"
  std::vector<std::string> skipped;     // check names skipped for some tool, first-seen order
  boost::json::array per_tool;
  for (const ToolChecks& tool : tools) {
    const double score = tool.score();
    sum += score;
    boost::json::object checks;
    boost::json::object details;
    std::vector<std::string> failed;
    for (const Check& check : tool.checks) {
      checks[check.name] = outcome_json(check.outcome);
      if (!check.detail.empty()) details[check.name] = check.detail;
      if (check.outcome == CheckOutcome::failed) failed.push_back(check.name);
      if (check.outcome == CheckOutcome::skipped &&
          std::find(skipped.begin(), skipped.end(), check.name) == skipped.end())
        skipped.push_back(check.name);
    }
    if (failed.empty()) ++perfect;
    else
      shortfalls.push_back(tool.tool + " passed " + std::to_string(tool.passed()) + " of " + std::to_string(tool.ran()) +
                           " (failed: " + join(failed) + ")");
    boost::json::object entry;
    entry["toolName"] = tool.tool;
    entry["score"] = score;
    entry["checks"] = std::move(checks);
    if (!details.empty()) entry["details"] = std::move(details);
    per_tool.emplace_back(std::move(entry));
  }

  const double score = tools.empty() ? 1.0 : sum / static_cast<double>(tools.size());
  std::string reason;
  if (tools.empty()) {
    reason = "no tool definitions to check";
  } else {
    reason = std::to_string(perfect) + " of " + std::to_string(tools.size()) + " tools passed every check that ran";
    for (const std::string& shortfall : shortfalls) reason += "; " + shortfall;
    if (!skipped.empty()) reason += "; skipped (need a judge): " + join(skipped);
  }
  EvalResult result = EvalResult::scored(common.name, score, common.threshold, std::move(reason));
  result.metadata["perToolResults"] = std::move(per_tool);
  return result;
}

}  // namespace krino::agent
