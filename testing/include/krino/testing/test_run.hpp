#pragma once
// Tests reported as the items of a krino run, through any reporter plugin: by default `server`, so
// a test run appears on a krino results server (krino serve) as a run, one item per parameter
// instance, as Dokimos's @DatasetReporter does. The GoogleTest and Boost.Test adapters open one
// TestRun per test suite, lazily (gtest.hpp: ReportingEnvironment; boost_test.hpp: Reporting).
//
//   krino::testing::TestRun run(plugins, {.experiment = "capitals"});   // server: KRINO_SERVER_URL ...
//   krino::testing::ItemRecorder item;
//   item.actual_output("output", answer).eval_results(check);
//   run.record(example, item, /*test_passed=*/true);
//   run.finish();
#include "krino/testing/error.hpp"
#include "krino/testing/eval_check.hpp"
#include "krino/testing/eval_outcome.hpp"
#include "krino/testing/evaluators.hpp"
#include "krino/testing/example.hpp"
#include "krino/testing/export.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace krino::testing {

struct RunOptions {
  std::string experiment = "tests";  // the run's experiment name
  std::string reporter = "server";   // a reporter component by name: server, json, junit, ...
  // Its options, as in an experiment file. The server reporter takes its url, project and api_key
  // from KRINO_SERVER_URL, KRINO_PROJECT and KRINO_API_KEY when they are not given here.
  std::string reporter_options_json = "{}";
  std::string metadata_json = "{}";  // the run's metadata, e.g. {"model":"gpt-4o","temperature":"0"}
};

// What one test reports of its example: the actual outputs and the eval results. An item carries
// only what was recorded (Dokimos's DatasetItemRecorder); the assertion does not record.
class KRINO_TESTING_API ItemRecorder {
 public:
  ItemRecorder& actual_output(std::string_view key, std::string_view value);
  // Members of a JSON object, added to the actual outputs. Throws Error when it is not one.
  ItemRecorder& actual_outputs(std::string_view json_object);
  ItemRecorder& eval_result(const EvalOutcome& outcome);
  ItemRecorder& eval_results(const EvalCheck& check);

  const std::string& actual_outputs_json() const { return actual_outputs_; }
  const std::vector<EvalOutcome>& results() const { return results_; }

 private:
  std::string actual_outputs_ = "{}";
  std::vector<EvalOutcome> results_;
};

class KRINO_TESTING_API TestRun {
 public:
  // Makes the reporter from its options now, so a misconfiguration (no server URL, an unknown
  // reporter) throws Error before any test runs. The run itself is opened with the first item.
  TestRun(const Evaluators& plugins, RunOptions options);
  // Finishes the run when it was opened and not finished; a failure is printed to stderr.
  ~TestRun();
  TestRun(const TestRun&) = delete;
  TestRun& operator=(const TestRun&) = delete;

  // Reports one item: the example's sections, what was recorded, and whether the test passed (the
  // item passes when the test did and every recorded result did). [thread-safe]
  void record(const Example& example, const ItemRecorder& recorded, bool test_passed);
  // Ends the run (run_finished with its summary) and waits for the reporter. Throws Error when the
  // reporter failed, e.g. items that did not reach the server. Nothing happens without any item.
  void finish();
  // Items recorded so far.
  std::uint64_t items() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace krino::testing
