// The csv reporter's options and their JSON Schema.
#ifndef KRINO_CSV_CSV_OPTIONS_HPP
#define KRINO_CSV_CSV_OPTIONS_HPP

#include <krino/plugin.hpp>
#include <krino/report/path_option.hpp>

#include <cstddef>
#include <string>

namespace krino::csv {

struct CsvOptions {
  std::string path = "krino-results.csv";
  bool append = false;
  std::string line_ending = "\r\n";  // "crlf" (RFC 4180) or "lf"
  // Text cells that a spreadsheet would run as a formula (starting with = + - @, a tab or a
  // carriage return) get a leading apostrophe.
  bool formula_escape = true;
  // A UTF-8 byte-order mark first, for spreadsheet programs that otherwise guess the encoding.
  bool bom = false;
  std::size_t max_text_chars = 0;  // 0: whole text

  // Reads and checks the user's options (the host has validated them against the schema; this
  // checks again for callers that did not). Throws krino::Error (INVALID_ARGUMENT).
  static CsvOptions from_config(krino::Config config);
};

inline constexpr const char kCsvOptionsSchema[] = R"({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "krino.csv options",
  "description": "One CSV row per item per run (RFC 4180): verdict, error, input and outputs, each evaluator's score, pass and reason, durations and metrics (docs/plugins/csv.md).",
  "type": "object",
  "properties": {
    )" KRINO_REPORT_PATH_OPTION("krino-results.csv") R"(,
    "append": {
      "description": "Add the rows to the end of an existing file instead of replacing it. The header is written only when the file is empty; an existing file must have the same columns.",
      "type": "boolean",
      "default": false
    },
    "line_ending": {
      "description": "Record separator: crlf, as RFC 4180 specifies, or lf.",
      "type": "string",
      "enum": ["crlf", "lf"],
      "default": "crlf"
    },
    "formula_escape": {
      "description": "Put an apostrophe before text cells that start with =, +, -, @, a tab or a carriage return, so a spreadsheet shows them instead of running them as formulas (CSV injection).",
      "type": "boolean",
      "default": true
    },
    "bom": {
      "description": "Start the file with a UTF-8 byte-order mark, for spreadsheet programs that otherwise misread non-ASCII text.",
      "type": "boolean",
      "default": false
    },
    "max_text_chars": {
      "description": "Cut text cells (input, outputs, reasons, errors) to this many characters with an ellipsis; 0 keeps them whole. Excel holds at most 32767 characters in a cell.",
      "type": "integer",
      "minimum": 0,
      "maximum": 100000000,
      "default": 0
    }
  },
  "additionalProperties": false
})";

}  // namespace krino::csv

#endif  // KRINO_CSV_CSV_OPTIONS_HPP
