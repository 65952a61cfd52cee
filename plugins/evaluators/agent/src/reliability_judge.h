// The LLM checks of tool_name_reliability and tool_description_reliability: with
// `llm_checks: true`, one judge call per tool through the host's judge service (CallContext::judge),
// asking for a JSON object of 0|1 (or boolean) verdicts. A key missing from the reply, or holding
// anything but 1 / true / "yes" / "true" / "1", fails that check. A reply with no JSON object
// at all, or a judge that cannot answer, is an item error (never a silent 0, as in the judge plugin).
// See docs/plugins/agent.md#llm-checks-of-the-reliability-evaluators.
//
// Options: `llm_checks` (boolean, default false), `judge` (a judge named in the experiment file;
// absent: the default judge) and `prompt` (a template replacing the built-in prompt of
// reliability_prompts.h). `judge` and `prompt` without `llm_checks` are configuration errors.
//
// The reply is read leniently by the SDK's reader (krino/json_extract.hpp), as the judge plugin does.
#ifndef KRINO_AGENT_RELIABILITY_JUDGE_H
#define KRINO_AGENT_RELIABILITY_JUDGE_H

#include <krino/plugin.hpp>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace krino {
class PromptTemplate;  // krino/support/prompt_template.hpp
}  // namespace krino

namespace krino::agent {

class ReliabilityJudge {
 public:
  using Variables = std::set<std::string, std::less<>>;
  using Values = std::map<std::string, std::string, std::less<>>;  // PromptTemplate::Values

  // Reads llm_checks, judge and prompt. `builtin_prompt` is the template used without `prompt`; both
  // may use only `variables`. `evaluator` names it in errors.
  ReliabilityJudge(const Config& config, std::string_view evaluator, std::string_view builtin_prompt,
                   const Variables& variables);

  bool enabled() const { return enabled_; }
  std::string prompt(const Values& values) const;

  // Asks the judge with `prompt` and returns one verdict per key, in the order of `keys`.
  std::vector<bool> ask(const CallContext& ctx, const std::string& prompt, const std::vector<std::string_view>& keys,
                        std::string_view tool) const;

 private:
  std::string evaluator_;
  bool enabled_ = false;
  std::optional<std::string> judge_;
  std::shared_ptr<const PromptTemplate> prompt_;
};

}  // namespace krino::agent

#endif  // KRINO_AGENT_RELIABILITY_JUDGE_H
