// The markdown reporter's options and their JSON Schema.
#ifndef KRINO_MARKDOWN_MARKDOWN_OPTIONS_HPP
#define KRINO_MARKDOWN_MARKDOWN_OPTIONS_HPP

#include <krino/plugin.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace krino::markdown {

// The file GitHub Actions shows as the step's summary.
inline constexpr const char kStepSummaryVariable[] = "GITHUB_STEP_SUMMARY";
inline constexpr const char kDefaultPath[] = "krino-summary.md";

struct MarkdownOptions {
  std::string path = kDefaultPath;
  bool append = false;
  std::size_t max_failures = 20;    // failed items listed, and errored items listed
  std::size_t max_text_chars = 200; // per table cell

  // Reads and checks the user's options. Without `path`, the summary goes to the file named by
  // $GITHUB_STEP_SUMMARY when it is set and not empty (appended to, as GitHub expects), else to
  // krino-summary.md (replaced). `getenv` reads the environment (the process's by default).
  // Throws krino::Error (INVALID_ARGUMENT).
  static MarkdownOptions from_config(krino::Config config,
                                     const std::function<const char*(const char*)>& getenv = {});
};

inline constexpr const char kMarkdownOptionsSchema[] = R"({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "krino.markdown options",
  "description": "A GitHub-flavoured Markdown summary for $GITHUB_STEP_SUMMARY and pull-request comments: pass rate, evaluator table, judge and task cost, errored and failed items (docs/plugins/markdown.md).",
  "type": "object",
  "properties": {
    "path": {
      "description": "The file to write; missing parent directories are created; \"-\" writes to standard output. Default: the file named by $GITHUB_STEP_SUMMARY when that is set (appended to), else krino-summary.md.",
      "type": "string",
      "minLength": 1
    },
    "append": {
      "description": "Add the summary to the end of the file instead of replacing it. Default: true for $GITHUB_STEP_SUMMARY, else false.",
      "type": "boolean"
    },
    "max_failures": {
      "description": "How many failed items, and separately how many errored items, are listed; the rest are counted.",
      "type": "integer",
      "minimum": 0,
      "maximum": 1000,
      "default": 20
    },
    "max_text_chars": {
      "description": "The longest text in a table cell (input, outputs, reasons, messages), in characters; longer text is cut with an ellipsis.",
      "type": "integer",
      "minimum": 10,
      "maximum": 10000,
      "default": 200
    }
  },
  "additionalProperties": false
})";

}  // namespace krino::markdown

#endif  // KRINO_MARKDOWN_MARKDOWN_OPTIONS_HPP
