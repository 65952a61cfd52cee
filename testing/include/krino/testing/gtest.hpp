#pragma once
// GoogleTest adapters (header-only over libkrino-testing; include after <gtest/gtest.h> or alone).
//
//   EXPECT_EVAL(test_case, exact_match);            // non-fatal: the test goes on
//   ASSERT_EVAL(test_case, exact_match, judge);     // fatal: returns from the test on a miss
//   EXPECT_EVAL(check);                             // a check_eval() made before (to record it)
//   EXPECT_TRUE(krino::testing::gtest::eval_passes(test_case, exact_match));
//
// A miss is recorded with exactly failure_message()'s text (no "Failed" line before it), so it reads
// the same on the console and in --gtest_output=xml:... .
//
// Dataset-parameterised tests, one test per example, named after the example's id:
//
//   class Capitals : public krino::testing::gtest::ExampleTest {};
//   TEST_P(Capitals, answers) { const auto& example = GetParam(); ... }
//   INSTANTIATE_TEST_SUITE_P(Dataset, Capitals, krino::testing::gtest::dataset("capitals.jsonl"),
//                            krino::testing::gtest::example_name);
//
// Reporting to a krino results server (optional): register the environment once, and every
// ExampleTest instance becomes an item of its suite's run, with what the test put in recorder():
//
//   ::testing::AddGlobalTestEnvironment(new krino::testing::gtest::ReportingEnvironment());
//   // KRINO_SERVER_URL, KRINO_PROJECT, KRINO_API_KEY; without a URL nothing is reported
#include "krino/testing/eval_check.hpp"
#include "krino/testing/evaluators.hpp"
#include "krino/testing/example.hpp"
#include "krino/testing/suite_runs.hpp"
#include "krino/testing/test_run.hpp"

#include <gtest/gtest.h>

#include <string>

namespace krino::testing::gtest {

template <typename... Evaluators>
::testing::AssertionResult eval_passes(std::string_view test_case_json, const Evaluators&... evaluators) {
  const EvalCheck check = check_eval(test_case_json, evaluators...);
  if (check.passed()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << check.message();
}

// The examples of a dataset as test parameters. Read when GoogleTest registers the tests (in
// InitGoogleTest); a dataset that cannot be read yields one parameter that fails its test with
// the reason (see read_dataset).
inline ::testing::internal::ParamGenerator<Example> dataset(const std::string& uri, const LoadOptions& options = {}) {
  return ::testing::ValuesIn(read_dataset(uri, options));
}

// The parameter's name: the example's test name (its id, made an identifier).
inline std::string example_name(const ::testing::TestParamInfo<Example>& info) { return info.param.test_name(); }

// Owns the runs tests are reported to (SuiteRuns), one per test suite, finished when the tests end;
// a run that failed (items that did not reach the server) fails the test program.
class ReportingEnvironment : public ::testing::Environment {
 public:
  explicit ReportingEnvironment(RunOptions defaults = {}, LoadOptions plugins = {})
      : runs_(std::move(defaults), std::move(plugins)) {}

  void SetUp() override { current() = &runs_; }
  void TearDown() override {
    current() = nullptr;
    try {
      runs_.finish();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "krino: reporting the test runs failed: " << e.what();
    }
  }

  // The runs of the environment set up now, or null.
  static SuiteRuns*& current() {
    static SuiteRuns* runs = nullptr;
    return runs;
  }

 private:
  SuiteRuns runs_;
};

// A value-parameterised fixture over examples. It fails (before the test body runs) when the
// dataset could not be read, with the reason; with a ReportingEnvironment, its teardown reports the
// example as an item, with what the test recorded and whether it passed.
class ExampleTest : public ::testing::TestWithParam<Example> {
 protected:
  void SetUp() override {
    if (!GetParam().error().empty()) GTEST_FATAL_FAILURE_(GetParam().error().c_str());
  }
  void TearDown() override {
    SuiteRuns* runs = ReportingEnvironment::current();
    if (runs == nullptr || !GetParam().error().empty()) return;
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    try {
      runs->record(test->test_suite_name(), GetParam(), recorder_, !HasFailure());
    } catch (const std::exception& e) {
      ADD_FAILURE() << "krino: reporting " << GetParam().test_name() << " failed: " << e.what();
    }
  }

  // What this test reports of its example besides its verdict: actual outputs, eval results.
  ItemRecorder& recorder() { return recorder_; }

 private:
  ItemRecorder recorder_;
};

}  // namespace krino::testing::gtest

// GTEST_NONFATAL_FAILURE_/GTEST_FATAL_FAILURE_ are what ADD_FAILURE()/FAIL() expand to, without the
// "Failed" line those put before the message.
#define KRINO_GTEST_EVAL_(on_failure, ...)                                                                \
  GTEST_AMBIGUOUS_ELSE_BLOCKER_                                                                           \
  if (const ::krino::testing::EvalCheck krino_eval_check_ = ::krino::testing::check_eval(__VA_ARGS__);    \
      krino_eval_check_.passed())                                                                         \
    ;                                                                                                     \
  else                                                                                                    \
    on_failure(krino_eval_check_.message().c_str())

#define EXPECT_EVAL(...) KRINO_GTEST_EVAL_(GTEST_NONFATAL_FAILURE_, __VA_ARGS__)
#define ASSERT_EVAL(...) KRINO_GTEST_EVAL_(GTEST_FATAL_FAILURE_, __VA_ARGS__)
