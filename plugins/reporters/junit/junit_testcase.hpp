// One item as a JUnit <testcase>.
#ifndef KRINO_JUNIT_JUNIT_TESTCASE_HPP
#define KRINO_JUNIT_JUNIT_TESTCASE_HPP

#include <krino/report/events.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace krino::junit {

// What every test case of a suite shares.
struct CaseContext {
  std::string classname;  // the experiment's name
  uint32_t runs = 1;      // runs planned; with more than one, names carry "[run k/n]"
  std::size_t max_text_chars = 4000;
  bool system_out = true;
  // One <failure> per test case listing every failing evaluator, instead of one per evaluator.
  bool merge_failures = false;
};

// The test case's name: the item's id (or #index), then the start of its input, then the run
// when the experiment has several: "cap-03: What is the capital of Australia? [run 2/3]".
std::string testcase_name(const report::ItemFinished& item, const CaseContext& context);

// Appends the <testcase> of `item`: a <failure> per failing evaluator, an <error> for an item
// error, <skipped> when no evaluator checked it. Returns how the item counts.
report::ItemStatus append_testcase(std::string& out, const report::ItemFinished& item, const CaseContext& context);

// Appends a test case that stands for something other than an item (a cancelled or interrupted
// run) and carries one <error>.
void append_error_case(std::string& out, std::string_view classname, std::string_view name, std::string_view type,
                       std::string_view message);

// Seconds with millisecond precision, as JUnit's `time` attributes read: "0.412".
std::string seconds(double milliseconds);

}  // namespace krino::junit

#endif  // KRINO_JUNIT_JUNIT_TESTCASE_HPP
