#pragma once
// The assertion behind EXPECT_EVAL (gtest.hpp) and KRINO_CHECK_EVAL (boost_test.hpp), free of any
// test framework: score one test case with one or more evaluators; it passes when every one passes,
// and its message names every miss.
#include "krino/testing/eval_outcome.hpp"
#include "krino/testing/evaluators.hpp"
#include "krino/testing/export.hpp"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace krino::testing {

struct EvalCheck {
  std::vector<EvalOutcome> outcomes;  // one per evaluator, in the order given

  bool passed() const {
    for (const auto& outcome : outcomes)
      if (!outcome.passed()) return false;
    return true;
  }
  // failure_message() of each miss, in order, one after the other (each ends with a line break but the last); empty when it passed.
  KRINO_TESTING_API std::string message() const;
};

KRINO_TESTING_API EvalCheck check_eval(std::string_view test_case_json, const std::vector<const Evaluator*>& evaluators);

// A check already made (to record its outcomes first), as it is: what EXPECT_EVAL(check) asserts.
inline const EvalCheck& check_eval(const EvalCheck& check) { return check; }

template <typename... More>
EvalCheck check_eval(std::string_view test_case_json, const Evaluator& first, const More&... more) {
  return check_eval(test_case_json, std::vector<const Evaluator*>{&first, &more...});
}
inline EvalCheck check_eval(std::string_view test_case_json, const std::vector<Evaluator>& evaluators) {
  std::vector<const Evaluator*> pointers;
  pointers.reserve(evaluators.size());
  for (const auto& evaluator : evaluators) pointers.push_back(&evaluator);
  return check_eval(test_case_json, pointers);
}

}  // namespace krino::testing
