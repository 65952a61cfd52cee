// The html reporter's options and their JSON Schema.
#ifndef KRINO_HTML_HTML_OPTIONS_HPP
#define KRINO_HTML_HTML_OPTIONS_HPP

#include <krino/plugin.hpp>
#include <krino/report/path_option.hpp>

#include <cstddef>
#include <string>

namespace krino::html {

struct HtmlOptions {
  std::string path = "krino-report.html";
  // Items in the table: every failed and errored item first, then the others in dataset order,
  // up to this many; 0 keeps every item.
  std::size_t max_items = 10000;
  std::size_t max_text_chars = 2000;  // per input, output, reason or message in the table
  std::size_t histogram_bins = 10;

  // Reads and checks the user's options (the host has validated them against the schema; this
  // checks again for callers that did not). Throws krino::Error (INVALID_ARGUMENT).
  static HtmlOptions from_config(krino::Config config);
};

inline constexpr const char kHtmlOptionsSchema[] = R"({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "krino.html options",
  "description": "One self-contained HTML file that works offline: summary cards, evaluator statistics, score histograms, and a filterable, sortable table of items with their reasons (docs/plugins/html.md).",
  "type": "object",
  "properties": {
    )" KRINO_REPORT_PATH_OPTION("krino-report.html") R"(,
    "max_items": {
      "description": "How many items the table holds: every failed and errored item first, then the passing and skipped ones in dataset order, up to this many (the page says how many were left out). 0 keeps every item, which makes a very large page for a very large run.",
      "type": "integer",
      "minimum": 0,
      "maximum": 10000000,
      "default": 10000
    },
    "max_text_chars": {
      "description": "The longest input, output, reason or message kept for an item, in characters; longer text is cut with an ellipsis.",
      "type": "integer",
      "minimum": 20,
      "maximum": 1000000,
      "default": 2000
    },
    "histogram_bins": {
      "description": "How many equal bins each evaluator's score histogram has over 0..1.",
      "type": "integer",
      "minimum": 2,
      "maximum": 100,
      "default": 10
    }
  },
  "additionalProperties": false
})";

}  // namespace krino::html

#endif  // KRINO_HTML_HTML_OPTIONS_HPP
