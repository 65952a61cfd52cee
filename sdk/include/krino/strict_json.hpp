// A JSON parser for values that must mean exactly one thing. Header-only; needs Boost.JSON.
//
// boost::json::parse accepts {"a": 1, "a": 2} and silently keeps the last "a", and turns a number
// literal too large for a double (1e400) into infinity. Both hide a malformed value from an
// evaluator that is about to compare it, so parse_strict_json rejects them, naming the offset.
#ifndef KRINO_STRICT_JSON_HPP
#define KRINO_STRICT_JSON_HPP

#include <krino/plugin.hpp>

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_stack.hpp>

#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace krino::json {

namespace detail {

// basic_parser handler: builds the value like boost::json::parser does, and fails on a duplicate
// key or a non-finite number, leaving the reason in `problem`.
struct StrictJsonHandler {
  static constexpr std::size_t max_object_size = boost::json::object::max_size();
  static constexpr std::size_t max_array_size = boost::json::array::max_size();
  static constexpr std::size_t max_key_size = boost::json::string::max_size();
  static constexpr std::size_t max_string_size = boost::json::string::max_size();

  boost::json::value_stack stack;
  std::vector<std::unordered_set<std::string>> open_object_keys;
  std::string key;
  std::string problem;

  explicit StrictJsonHandler(boost::json::storage_ptr sp) { stack.reset(std::move(sp)); }

  bool fail(boost::json::error_code& ec, std::string message) {
    problem = std::move(message);
    // Any error code stops the parser; the message above is what gets reported.
    ec = boost::json::error::syntax;
    return false;
  }

  bool on_document_begin(boost::json::error_code&) { return true; }
  bool on_document_end(boost::json::error_code&) { return true; }
  bool on_object_begin(boost::json::error_code&) {
    open_object_keys.emplace_back();
    return true;
  }
  bool on_object_end(std::size_t n, boost::json::error_code&) {
    open_object_keys.pop_back();
    stack.push_object(n);
    return true;
  }
  bool on_array_begin(boost::json::error_code&) { return true; }
  bool on_array_end(std::size_t n, boost::json::error_code&) {
    stack.push_array(n);
    return true;
  }
  bool on_key_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    key.append(s.data(), s.size());
    stack.push_chars(s);
    return true;
  }
  bool on_key(boost::json::string_view s, std::size_t, boost::json::error_code& ec) {
    key.append(s.data(), s.size());
    if (!open_object_keys.back().insert(key).second)
      return fail(ec, "duplicate object key " + boost::json::serialize(boost::json::string_view(key)));
    key.clear();
    stack.push_key(s);
    return true;
  }
  bool on_string_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    stack.push_chars(s);
    return true;
  }
  bool on_string(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    stack.push_string(s);
    return true;
  }
  bool on_number_part(boost::json::string_view, boost::json::error_code&) { return true; }
  bool on_int64(std::int64_t i, boost::json::string_view, boost::json::error_code&) {
    stack.push_int64(i);
    return true;
  }
  bool on_uint64(std::uint64_t u, boost::json::string_view, boost::json::error_code&) {
    stack.push_uint64(u);
    return true;
  }
  bool on_double(double d, boost::json::string_view, boost::json::error_code& ec) {
    if (!std::isfinite(d)) return fail(ec, "number out of the range of a double");
    stack.push_double(d);
    return true;
  }
  bool on_bool(bool b, boost::json::error_code&) {
    stack.push_bool(b);
    return true;
  }
  bool on_null(boost::json::error_code&) {
    stack.push_null();
    return true;
  }
  bool on_comment_part(boost::json::string_view, boost::json::error_code&) { return true; }
  bool on_comment(boost::json::string_view, boost::json::error_code&) { return true; }
};

}  // namespace detail

// Nesting deeper than this is refused rather than recursed into.
inline constexpr std::size_t kStrictJsonMaxDepth = 64;

// Parses standard JSON (no comments, no trailing commas, valid UTF-8) into a value. Throws
// krino::Error(KRINO_INVALID_ARGUMENT) on a syntax error, a duplicate key in any object, a
// number that overflows a double, or nesting deeper than kStrictJsonMaxDepth; the message says
// what and at which byte offset.
inline boost::json::value parse_strict_json(std::string_view text, boost::json::storage_ptr sp = {}) {
  boost::json::parse_options options;
  options.max_depth = kStrictJsonMaxDepth;
  boost::json::basic_parser<detail::StrictJsonHandler> parser(options, std::move(sp));
  boost::json::error_code ec;
  const std::size_t used = parser.write_some(false, text.data(), text.size(), ec);
  if (!ec && used < text.size()) ec = boost::json::error::extra_data;
  if (ec) {
    const std::string& problem = parser.handler().problem;
    const std::string what = problem.empty() ? ec.message() : problem;
    throw Error(KRINO_INVALID_ARGUMENT, what + " at offset " + std::to_string(used));
  }
  return parser.handler().stack.release();
}

}  // namespace krino::json

#endif  // KRINO_STRICT_JSON_HPP
