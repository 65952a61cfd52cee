#include "json_record_parser.hpp"

#include <krino/json_parse.hpp>
#include <krino/plugin.hpp>

#include <algorithm>
#include <string>

namespace krino::files {
namespace {

const char* json_kind(const boost::json::value& value) {
  switch (value.kind()) {
    case boost::json::kind::array: return "an array";
    case boost::json::kind::string: return "a string";
    case boost::json::kind::bool_: return "a boolean";
    case boost::json::kind::null: return "null";
    default: return "a number";
  }
}

// "column 17" for one-line records, "line 3, column 5 of the example" for multi-line ones.
std::string position_of(std::string_view record, size_t offset) {
  offset = std::min(offset, record.size());
  const std::string_view before = record.substr(0, offset);
  const size_t line_start = before.rfind('\n');
  const size_t column = (line_start == std::string_view::npos ? offset : offset - line_start - 1) + 1;
  if (record.find('\n') == std::string_view::npos) return "column " + std::to_string(column);
  const auto line = static_cast<size_t>(std::count(before.begin(), before.end(), '\n')) + 1;
  return "line " + std::to_string(line) + ", column " + std::to_string(column) + " of the example";
}

bool only_whitespace(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; });
}

}  // namespace

boost::json::object parse_json_record(std::string_view record) {
  // A 2 KB record parses into roughly twice its size; one block of that avoids block chaining.
  boost::json::storage_ptr arena =
      boost::json::make_shared_resource<boost::json::monotonic_resource>(record.size() * 2 + 256);
  boost::json::parse_options options;
  options.max_depth = kMaxRecordDepth;
  // Numbers read exactly; a key twice in one object is an error (which value would the row mean?).
  // The parser's working stack starts in this buffer; the value lives in the arena.
  unsigned char stack[4096];
  json::ExactParser parser(arena, options, json::ParseChecks{true, false}, stack, sizeof stack);
  boost::system::error_code ec;
  const size_t used = parser.write_some(record.data(), record.size(), ec);
  if (ec && !parser.problem().empty()) throw invalid_argument(parser.problem() + " at " + position_of(record, used));
  if (ec) throw invalid_argument("invalid JSON at " + position_of(record, used) + ": " + ec.message());
  if (!only_whitespace(record.substr(used)))
    throw invalid_argument("unexpected text after the JSON value at " + position_of(record, used));
  boost::json::value value = parser.release();
  if (!value.is_object())
    throw invalid_argument(std::string("an example must be a JSON object, not ") + json_kind(value));
  return std::move(value.get_object());
}

}  // namespace krino::files
