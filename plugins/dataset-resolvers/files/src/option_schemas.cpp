#include "option_schemas.hpp"

namespace krino::files {

// The JSON and JSON Lines resolvers' `fields` option (field_mapping.hpp), spliced into both schemas.
#define KRINO_FILES_FIELDS_OPTION \
  "    \"fields\": {\n" \
  "      \"type\": \"object\",\n" \
  "      \"minProperties\": 1,\n" \
  "      \"propertyNames\": {\"pattern\": \"^(id|trace|(inputs|expectedOutputs|actualOutputs|metadata)(\\\\..+)?)$\"},\n" \
  "      \"additionalProperties\": {\"type\": \"string\"},\n" \
  "      \"description\": \"Builds each example from parts of the record: target (id, trace, inputs, expectedOutputs, actualOutputs, metadata, or SECTION.KEY) to a JSON pointer into the record (\\\"\\\" for all of it) or a template such as \\\"{/task_id}-{/trial}\\\". Only mapped fields are kept; a pointer that finds nothing is an item error.\"\n" \
  "    },\n"

const char* const kJsonlOptionsSchema = R"({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "jsonl dataset options",
  "description": "A JSON Lines file: one example object per line, blank lines skipped.",
  "type": "object",
  "properties": {
)" KRINO_FILES_FIELDS_OPTION R"(    "name": {
      "type": "string",
      "minLength": 1,
      "description": "Dataset name shown in reports. Default: the file name without its extension."
    },
    "description": {
      "type": "string",
      "default": "",
      "description": "Dataset description shown in reports."
    }
  },
  "additionalProperties": false
})";

const char* const kJsonOptionsSchema = R"({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "json dataset options",
  "description": "A JSON file: {\"name\", \"description\", \"examples\": [...]} or a bare array of examples, read as a stream.",
  "type": "object",
  "properties": {
)" KRINO_FILES_FIELDS_OPTION R"(    "name": {
      "type": "string",
      "minLength": 1,
      "description": "Dataset name shown in reports. Default: the file's \"name\", else the file name without its extension."
    },
    "description": {
      "type": "string",
      "default": "",
      "description": "Dataset description shown in reports. Default: the file's \"description\", else empty."
    }
  },
  "additionalProperties": false
})";

const char* const kCsvOptionsSchema = R"({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "csv dataset options",
  "description": "An RFC 4180 CSV file with a header row that has an 'input' column.",
  "type": "object",
  "properties": {
    "delimiter": {
      "type": "string",
      "minLength": 1,
      "maxLength": 1,
      "not": {"enum": ["\"", "\r", "\n"]},
      "default": ",",
      "description": "The one ASCII character between fields, e.g. \";\" or a tab (\"\\t\")."
    },
    "name": {
      "type": "string",
      "minLength": 1,
      "description": "Dataset name shown in reports. Default: the file name without its extension."
    },
    "description": {
      "type": "string",
      "default": "",
      "description": "Dataset description shown in reports."
    }
  },
  "additionalProperties": false
})";

}  // namespace krino::files
