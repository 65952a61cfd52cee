// A JSON parser for values that must mean exactly one thing. Header-only; needs Boost.JSON.
//
// boost::json::parse accepts {"a": 1, "a": 2} and silently keeps the last "a", and turns a number
// literal too large for a double (1e400) into infinity. Both hide a malformed value from an
// evaluator that is about to compare it, so parse_strict_json rejects them, naming the offset.
// Numbers are read as krino::json::parse reads them (json_parse.hpp): exactly.
#ifndef KRINO_STRICT_JSON_HPP
#define KRINO_STRICT_JSON_HPP

#include <krino/plugin.hpp>

#include <krino/json_parse.hpp>

#include <boost/json/value.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace krino::json {

// Nesting deeper than this is refused rather than recursed into.
inline constexpr std::size_t kStrictJsonMaxDepth = 64;

// Parses standard JSON (no comments, no trailing commas, valid UTF-8) into a value. Throws
// krino::Error(KRINO_INVALID_ARGUMENT) on a syntax error, a duplicate key in any object, a
// number that overflows a double, or nesting deeper than kStrictJsonMaxDepth; the message says
// what and at which byte offset.
inline boost::json::value parse_strict_json(std::string_view text, boost::json::storage_ptr sp = {}) {
  boost::json::parse_options options;
  options.max_depth = kStrictJsonMaxDepth;
  ExactParser parser(std::move(sp), options, ParseChecks{true, true});
  boost::json::error_code ec;
  const std::size_t used = parser.write_some(text.data(), text.size(), ec);
  if (!ec && used < text.size()) ec = boost::json::error::extra_data;
  if (ec) {
    const std::string& problem = parser.problem();
    const std::string what = problem.empty() ? ec.message() : problem;
    throw Error(KRINO_INVALID_ARGUMENT, what + " at offset " + std::to_string(used));
  }
  return parser.release();
}

}  // namespace krino::json

#endif  // KRINO_STRICT_JSON_HPP
