// The judge call faithfulness and hallucination share: the judge splits the actual output into
// claims (statements) and gives each a verdict against the retrieved context: yes (supported), no
// (contradicted) or idk (neither). One judge call per item does both steps. Only "yes" counts as
// supported; so "no" and "idk" both count as unsupported for hallucination.
#ifndef KRINO_JUDGE_CLAIM_CHECK_H
#define KRINO_JUDGE_CLAIM_CHECK_H

#include "judge_call.h"
#include "voting.h"

#include <krino/plugin.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <string>

namespace krino::judge {

struct ClaimVerdicts {
  boost::json::array claims;  // [{<item_key>, verdict: "yes"|"no"|"idk", reason}], in the judge's order
  std::size_t supported = 0;
  std::size_t total = 0;
};

class ClaimCheck {
 public:
  // `evaluator` names it in errors; `list_key` and `item_key` are the reply's fields ("claims" and
  // "claim", or "statements" and "statement").
  ClaimCheck(Config config, const char* schema, std::string evaluator,
             std::string list_key, std::string item_key);

  ClaimVerdicts run(const TestCase& test_case, const JudgeCall& call) const;
  std::string prompt(const TestCase& test_case) const;
  const CommonOptions& common() const { return settings_.common; }
  const VotingOptions& voting() const { return settings_.voting; }

 private:
  std::string evaluator_;
  JudgeSettings settings_;
  std::string list_key_;
  std::string item_key_;
  std::string output_key_;
  std::string context_key_;
  std::string input_key_;
};

// faithfulness and hallucination: the same options, the same judge call and the same votes; only
// how the verdicts become a result (and which way is better) differs, which each passes in.
class ClaimEvaluator {
 public:
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;
  std::string prompt(const TestCase& test_case) const { return check_.prompt(test_case); }

 protected:
  using ResultOf = EvalResult (*)(ClaimVerdicts verdicts, const CommonOptions& common);
  ClaimEvaluator(Config config, const char* schema, std::string evaluator,
                 std::string list_key, std::string item_key, Better better, ResultOf result_of);

 private:
  ClaimCheck check_;
  Better better_;
  ResultOf result_of_;
};

// The options after threshold and the voting ones that both claim evaluators' schemas end with.
#define KRINO_JUDGE_CLAIM_OPTIONS \
  R"json("judge": {"type": "string", "minLength": 1, "description": "Name of a judge configured in the experiment file; the default judge when absent."},)json" "\n" \
  R"json(    "prompt": {"type": "string", "minLength": 1, "description": "A prompt template replacing the built-in one. Placeholders: {{actual_output}}, {{context}} (the context passages, numbered), {{input}} (empty when the test case has no input)."},)json" "\n" \
  R"json(    "output_key": {"type": "string", "minLength": 1, "default": "output", "description": "Key of the text to check in actualOutputs."},)json" "\n" \
  R"json(    "context_key": {"type": "string", "minLength": 1, "default": "context", "description": "Key of the retrieved context: actualOutputs first, then metadata. A list is one passage per element."},)json" "\n" \
  R"json(    "input_key": {"type": "string", "minLength": 1, "default": "input", "description": "Key of the input in inputs, for prompts that use {{input}}."})json" "\n" \
  R"json(  },)json" "\n" \
  R"json(  "additionalProperties": false)json" "\n" \
  R"json(})json"

}  // namespace krino::judge

#endif  // KRINO_JUDGE_CLAIM_CHECK_H
