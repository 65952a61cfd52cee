// The junit reporter's options and their JSON Schema.
#ifndef KRINO_JUNIT_JUNIT_OPTIONS_HPP
#define KRINO_JUNIT_JUNIT_OPTIONS_HPP

#include <krino/plugin.hpp>
#include <krino/report/path_option.hpp>

#include <cstddef>
#include <string>

namespace krino::junit {

struct JunitOptions {
  std::string path = "krino-junit.xml";
  // Each test case's <system-out>: the item's location, input, expected and actual outputs, and
  // every evaluator result.
  bool system_out = true;
  // One <failure> per failed item listing every failing evaluator, for readers that take a test
  // case to have at most one (mikepenz/action-junit-report shows only the case's name otherwise).
  bool merge_failures = false;
  // The longest text (input, output, reason, message) kept in a test case, in characters.
  std::size_t max_text_chars = 4000;

  // Reads and checks the user's options (the host has validated them against the schema; this
  // checks again for callers that did not). Throws krino::Error (INVALID_ARGUMENT).
  static JunitOptions from_config(krino::Config config);
};

inline constexpr const char kJunitOptionsSchema[] = R"({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "krino.junit options",
  "description": "JUnit XML for CI: a test suite per run, a test case per item, a failure per failing evaluator, item errors as errors (docs/plugins/junit.md).",
  "type": "object",
  "properties": {
    )" KRINO_REPORT_PATH_OPTION("krino-junit.xml") R"(,
    "system_out": {
      "description": "Give every test case a <system-out> with the item's location, input, expected and actual outputs, and every evaluator's result.",
      "type": "boolean",
      "default": true
    },
    "merge_failures": {
      "description": "Give a failed item one <failure> listing every failing evaluator, instead of one <failure> per failing evaluator; for JUnit readers that expect at most one per test case.",
      "type": "boolean",
      "default": false
    },
    "max_text_chars": {
      "description": "The longest text (an input, an output, a reason, an error message) kept in a test case, in characters; longer text is cut with an ellipsis.",
      "type": "integer",
      "minimum": 20,
      "maximum": 1000000,
      "default": 4000
    }
  },
  "additionalProperties": false
})";

}  // namespace krino::junit

#endif  // KRINO_JUNIT_JUNIT_OPTIONS_HPP
