// Parses one record (a JSONL line or one element of a JSON examples array) into a JSON object
// that owns its memory through a per-record arena: one block sized from the record instead of a
// heap allocation per string, array and object, and moves between values of the same record cost
// nothing.
#ifndef KRINO_FILES_JSON_RECORD_PARSER_HPP
#define KRINO_FILES_JSON_RECORD_PARSER_HPP

#include <boost/json.hpp>

#include <string_view>

namespace krino::files {

// Deepest nesting accepted in a record. Boost.JSON's default (32) is too shallow for recorded
// agent traces; the parser keeps its own stack, so a larger limit costs nothing until it is used.
inline constexpr size_t kMaxRecordDepth = 512;

// Throws krino::Error (INVALID_ARGUMENT) saying where the record stops being valid JSON
// ("invalid JSON at column 17: expected comma"; line and column for multi-line records), or that
// it is valid JSON but not an object.
boost::json::object parse_json_record(std::string_view record);

}  // namespace krino::files

#endif  // KRINO_FILES_JSON_RECORD_PARSER_HPP
