// The judge call faithfulness and hallucination share: the judge splits the actual output into
// claims (statements) and gives each a verdict against the retrieved context: yes (supported), no
// (contradicted) or idk (neither). One judge call per item does both steps. Only "yes" counts as
// supported (spec §4.5); so "no" and "idk" both count as unsupported for hallucination.
#ifndef KRINO_JUDGE_CLAIM_CHECK_H
#define KRINO_JUDGE_CLAIM_CHECK_H

#include "judge_call.h"

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
  ClaimCheck(const Config& config, const char* schema, std::string evaluator, double default_threshold,
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

}  // namespace krino::judge

#endif  // KRINO_JUDGE_CLAIM_CHECK_H
