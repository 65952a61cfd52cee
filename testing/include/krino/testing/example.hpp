#pragma once
// One example of a dataset (krino.example/1) as a test gets it: plain data, with the test case for
// an actual output built from it.
#include "krino/testing/error.hpp"
#include "krino/testing/export.hpp"

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace krino::testing {

class KRINO_TESTING_API Example {
 public:
  Example() = default;
  // An example read from a dataset: `json` is its krino.example/1 document.
  Example(std::string json, std::string id, std::size_t index, std::string location);
  // The stand-in for a dataset that could not be read: every accessor but error() and test_name()
  // throws Error with `error`, so the test that uses it fails saying why.
  static Example unreadable(std::string error);

  const std::string& json() const;      // the krino.example/1 document
  const std::string& id() const;        // the example's "id", empty when it has none
  std::size_t index() const;            // its zero-based place in the dataset
  const std::string& location() const;  // where it was read ("file:line"), may be empty
  // A test name for it: the id (else "example_<index>") with every character but [A-Za-z0-9_]
  // replaced by '_'. read_dataset makes them unique within a dataset.
  const std::string& test_name() const { return test_name_; }
  const std::string& error() const { return error_; }

  // A section of the example as JSON ("inputs", "expectedOutputs", "metadata"); "{}" when absent.
  std::string section(std::string_view key) const;
  // A string member of "inputs" / "expectedOutputs" ("input" and "output" by default). Throws Error
  // when it is absent or not a string.
  std::string input(std::string_view key = "input") const;
  std::string expected_output(std::string_view key = "output") const;

  // The krino.testcase/1 document for this example with `actual_outputs_json` (a JSON object) as
  // what the system under test produced; or with {"output": actual_output}.
  std::string test_case(std::string_view actual_outputs_json) const;
  std::string test_case_with_output(std::string_view actual_output) const;

 private:
  friend class Evaluators;
  void require_readable() const;

  std::string json_ = "{}";
  std::string id_;
  std::size_t index_ = 0;
  std::string location_;
  std::string test_name_;
  std::string error_;
};

// Test frameworks print a parameter with this: the test name and where the example came from.
KRINO_TESTING_API std::ostream& operator<<(std::ostream& out, const Example& example);

// A test case written by hand: {"inputs":{"input":...},"actualOutputs":{"output":...},
// "expectedOutputs":{"output":...}}, a section without a value left empty.
KRINO_TESTING_API std::string make_test_case(std::string_view actual_output,
                                             std::optional<std::string_view> expected_output = std::nullopt,
                                             std::optional<std::string_view> input = std::nullopt);

}  // namespace krino::testing
