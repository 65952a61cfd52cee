// The json reporter's options and their JSON Schema.
#ifndef KRINO_JSONL_JSON_OPTIONS_HPP
#define KRINO_JSONL_JSON_OPTIONS_HPP

#include <krino/plugin.hpp>

#include <string>

namespace krino::jsonl {

struct JsonOptions {
  std::string path = "krino-results.jsonl";
  bool append = false;

  // Reads and checks the user's options (the host has validated them against the schema; this
  // checks again for callers that did not). Throws krino::Error (INVALID_ARGUMENT).
  static JsonOptions from_config(krino::Config config);
};

inline constexpr const char kJsonOptionsSchema[] = R"({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "krino.json options",
  "description": "Every event of the experiment as one line of JSON Lines (docs/json-output.md).",
  "type": "object",
  "properties": {
    "path": {
      "description": "The file to write; missing parent directories are created. \"-\" writes to standard output.",
      "type": "string",
      "minLength": 1,
      "default": "krino-results.jsonl"
    },
    "append": {
      "description": "Add to the end of an existing file instead of replacing it.",
      "type": "boolean",
      "default": false
    }
  },
  "additionalProperties": false
})";

}  // namespace krino::jsonl

#endif  // KRINO_JSONL_JSON_OPTIONS_HPP
