#pragma once
// One krino run per test suite, opened when the suite reports its first item: what the GoogleTest
// environment and the Boost.Test global fixture own (gtest.hpp, boost_test.hpp). Spec'd after
// Dokimos's @DatasetReporter: a test run appears on the results server as runs, one item per
// parameter instance.
#include "krino/testing/evaluators.hpp"
#include "krino/testing/example.hpp"
#include "krino/testing/export.hpp"
#include "krino/testing/test_run.hpp"

#include <memory>
#include <string>

namespace krino::testing {

class KRINO_TESTING_API SuiteRuns {
 public:
  // `defaults` for every run (its experiment is the suite's name). Reporting is on when the reporter
  // is not `server`, or when a server URL is known: a "url" in the reporter's options or
  // KRINO_SERVER_URL. Off, record() does nothing, so the same tests run anywhere.
  explicit SuiteRuns(RunOptions defaults = {}, LoadOptions plugins = {});
  ~SuiteRuns();
  SuiteRuns(const SuiteRuns&) = delete;
  SuiteRuns& operator=(const SuiteRuns&) = delete;

  bool enabled() const;
  // Reports one item to the suite's run, opening it (and loading the plugins) on first use. Throws
  // Error when the reporter cannot be made or fails. [thread-safe]
  void record(const std::string& suite, const Example& example, const ItemRecorder& recorded, bool test_passed);
  // Finishes every run. Throws Error naming each suite whose run failed (items that did not reach
  // the server); every run is finished first.
  void finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace krino::testing
