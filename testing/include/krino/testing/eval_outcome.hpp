#pragma once
// What one evaluator said of one test case, and the assertion's message for it.
#include "krino/testing/export.hpp"

#include <optional>
#include <string>

namespace krino::testing {

struct EvalOutcome {
  std::string name;                // the evaluator's name (its "name" option, else the component's)
  std::optional<double> score;     // empty: the evaluator could not compute one (see reason)
  bool success = false;            // the evaluator's own verdict; the assertion goes by this alone
  std::optional<double> threshold; // as the result reports it
  std::string reason;
  bool skipped = false;            // the evaluator said the check did not apply (a pass)
  std::string error;               // non-empty: no result at all (the plugin failed, a bad test case)
  std::string result_json;         // the krino.evalresult/1 document, empty on error

  bool passed() const { return error.empty() && success; }
};

// The assertion's message for a miss, as Dokimos's assertEval words it:
//   Evaluation '<name>' failed: score=0.65 (threshold=0.80)
//   Reason: <reason>
// Score and threshold with two decimals; "n/a" for a missing score, "none" for a missing
// threshold. An outcome with an error reads "Evaluation '<name>' errored: <error>".
KRINO_TESTING_API std::string failure_message(const EvalOutcome& outcome);

}  // namespace krino::testing
