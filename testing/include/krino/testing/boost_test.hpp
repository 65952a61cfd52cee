#pragma once
// Boost.Test adapters (header-only over libkrino-testing; include after <boost/test/unit_test.hpp>).
//
//   KRINO_CHECK_EVAL(test_case, exact_match);          // an error, the test goes on
//   KRINO_REQUIRE_EVAL(test_case, exact_match, judge); // a fatal error, the test stops
//   KRINO_CHECK_EVAL(check);                           // a check_eval() made before (to record it)
//
// A miss is logged with exactly failure_message()'s text.
//
// Data-driven test cases, one per example:
//
//   BOOST_DATA_TEST_CASE(answers, krino::testing::boost_test::dataset("capitals.jsonl"), example) { ... }
//
// Boost.Test builds the samples while it registers tests, before main runs; a dataset that cannot be
// read yields one sample whose accessors throw the reason, which fails that test case.
//
// Reporting to a krino results server (optional): a global fixture owns one run per data-driven
// test case, and a ReportedItem in the body reports the sample when the body ends:
//
//   using Reporting = krino::testing::boost_test::Reporting;  // the macro wants a plain name
//   BOOST_TEST_GLOBAL_FIXTURE(Reporting);                      // KRINO_SERVER_URL, ...
//   BOOST_DATA_TEST_CASE(answers, krino::testing::boost_test::dataset("capitals.jsonl"), example) {
//     krino::testing::boost_test::ReportedItem item(example);
//     item.recorder().actual_output("output", answer);
//     ...
//   }
#include "krino/testing/eval_check.hpp"
#include "krino/testing/evaluators.hpp"
#include "krino/testing/example.hpp"
#include "krino/testing/suite_runs.hpp"
#include "krino/testing/test_run.hpp"

#include <boost/test/data/monomorphic.hpp>
#include <boost/test/results_collector.hpp>
#include <boost/test/unit_test.hpp>

#include <exception>
#include <string>
#include <vector>

namespace krino::testing::boost_test {

inline std::vector<Example> dataset(const std::string& uri, const LoadOptions& options = {}) {
  return read_dataset(uri, options);
}

// The global fixture owning the runs (SuiteRuns, default options: the server reporter, configured
// from the environment). Its teardown finishes them; a run that failed is an error of the module.
class Reporting {
 public:
  Reporting() : runs_(RunOptions{}, LoadOptions{}) {}
  void setup() { current() = &runs_; }
  void teardown() {
    current() = nullptr;
    try {
      runs_.finish();
    } catch (const std::exception& e) {
      BOOST_ERROR(std::string("krino: reporting the test runs failed: ") + e.what());
    }
  }
  static SuiteRuns*& current() {
    static SuiteRuns* runs = nullptr;
    return runs;
  }

 private:
  SuiteRuns runs_;
};

// Reports one sample when it goes out of scope, to the run of the data-driven test case it is in:
// the example, what was recorded, and whether the test case has had no failed check so far.
class ReportedItem {
 public:
  explicit ReportedItem(const Example& example) : example_(example) {}
  ReportedItem(const ReportedItem&) = delete;
  ReportedItem& operator=(const ReportedItem&) = delete;
  ~ReportedItem() {
    SuiteRuns* runs = Reporting::current();
    if (runs == nullptr || !example_.error().empty()) return;
    namespace utf = boost::unit_test;
    const utf::test_case& test = utf::framework::current_test_case();
    const bool passed = utf::results_collector.results(test.p_id).p_assertions_failed == 0 && std::uncaught_exceptions() == 0;
    const std::string suite = utf::framework::get<utf::test_suite>(test.p_parent_id).p_name;
    try {
      runs->record(suite, example_, recorder_, passed);
    } catch (const std::exception& e) {
      BOOST_ERROR(std::string("krino: reporting ") + example_.test_name() + " failed: " + e.what());
    }
  }

  ItemRecorder& recorder() { return recorder_; }

 private:
  const Example& example_;
  ItemRecorder recorder_;
};

}  // namespace krino::testing::boost_test

#define KRINO_BOOST_EVAL_(message_tool, ...)                                                     \
  do {                                                                                             \
    const ::krino::testing::EvalCheck krino_eval_check_ = ::krino::testing::check_eval(__VA_ARGS__); \
    message_tool(krino_eval_check_.passed(), krino_eval_check_.message());                         \
  } while (false)

#define KRINO_CHECK_EVAL(...) KRINO_BOOST_EVAL_(BOOST_CHECK_MESSAGE, __VA_ARGS__)
#define KRINO_REQUIRE_EVAL(...) KRINO_BOOST_EVAL_(BOOST_REQUIRE_MESSAGE, __VA_ARGS__)
