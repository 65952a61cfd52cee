// The console reporter's options and their JSON Schema.
#ifndef KRINO_CONSOLE_CONSOLE_OPTIONS_HPP
#define KRINO_CONSOLE_CONSOLE_OPTIONS_HPP

#include "terminal.hpp"

#include <krino/plugin.hpp>

#include <cstddef>

namespace krino::console {

enum class SummaryStream { standard_output, standard_error };

// Which items get a line of their own on stderr as they finish.
enum class ItemLines { failures, all };

struct ConsoleOptions {
  When progress = When::automatic;
  When color = When::automatic;
  SummaryStream stream = SummaryStream::standard_output;
  std::size_t max_failures_shown = 20;
  ItemLines items = ItemLines::failures;

  // Reads and checks the user's options (the host has validated them against the schema; this
  // checks again for callers that did not). Throws krino::Error (INVALID_ARGUMENT).
  static ConsoleOptions from_config(krino::Config config);
};

// The most failed (and errored) items kept for the summary; bounds memory whatever the user asks.
inline constexpr std::size_t kMaxFailuresShownLimit = 10000;

inline constexpr const char kConsoleOptionsSchema[] = R"({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "krino.console options",
  "description": "Progress on the terminal while the experiment runs, and a summary at the end.",
  "type": "object",
  "properties": {
    "progress": {
      "description": "Draw a one-line progress bar on stderr: auto draws it when stderr is a terminal. Without the bar, every failed or errored item and every finished run gets one plain line on stderr instead.",
      "type": "string",
      "enum": ["auto", "always", "never"],
      "default": "auto"
    },
    "color": {
      "description": "Colour with ANSI escapes: auto colours a terminal unless NO_COLOR is set to a non-empty value or TERM is dumb; always and never override both.",
      "type": "string",
      "enum": ["auto", "always", "never"],
      "default": "auto"
    },
    "stream": {
      "description": "Where the final summary goes. Progress and per-item lines always go to stderr.",
      "type": "string",
      "enum": ["stdout", "stderr"],
      "default": "stdout"
    },
    "items": {
      "description": "Which items get a line on stderr as they finish: failures (failed and errored items, only while no progress bar is drawn) or all (a PASS, FAIL or ERROR line for every item, with each evaluator's score and reason, even above a progress bar).",
      "type": "string",
      "enum": ["failures", "all"],
      "default": "failures"
    },
    "max_failures_shown": {
      "description": "How many failed items, and separately how many errored items, the summary lists; the rest are counted. Kept in memory, hence the upper bound.",
      "type": "integer",
      "minimum": 0,
      "maximum": 10000,
      "default": 20
    }
  },
  "additionalProperties": false
})";

}  // namespace krino::console

#endif  // KRINO_CONSOLE_CONSOLE_OPTIONS_HPP
