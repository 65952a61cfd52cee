// Whether an actual tool call's arguments match the expected ones. Header-only, C++17.
//
// Values compare with these rules, at every depth:
//   - numbers by value: 1, 1.0 and 1.00 are equal (always; see krino/json_equality.hpp), with no
//     tolerance, and a number never equals a string or a boolean;
//   - strings exactly, unless trim (leading and trailing ASCII white space dropped on both sides)
//     or ignore_case (ASCII letters folded) is switched on;
//   - lists element by element, same length, in order; null equals only null;
//   - objects nested inside arguments need the same keys on both sides.
// The mode decides how the two top-level argument objects' key sets compare. The names describe
// the actual side: SUBSET means the expected arguments are a subset of the actual ones.
//   exact     same keys, every value matching (the default)
//   subset    every expected key present in actual with a matching value; extra actual keys allowed
//   superset  every actual key present in expected with a matching value; omitted keys allowed
//   ignore    arguments are not compared
// So under exact an expected call with no arguments is not a wildcard: it matches only a call
// with no arguments. Use subset or ignore for "any arguments".
#ifndef KRINO_AGENT_ARGUMENT_MATCHER_HPP
#define KRINO_AGENT_ARGUMENT_MATCHER_HPP

#include <krino/agent/tool_call.hpp>
#include <krino/json_equality.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace krino::agent {

enum class ArgMatchMode { exact, subset, superset, ignore };

inline const char* to_string(ArgMatchMode mode) {
  switch (mode) {
    case ArgMatchMode::exact: return "exact";
    case ArgMatchMode::subset: return "subset";
    case ArgMatchMode::superset: return "superset";
    case ArgMatchMode::ignore: return "ignore";
  }
  return "exact";
}

inline std::optional<ArgMatchMode> parse_arg_match_mode(std::string_view text) {
  for (ArgMatchMode mode : {ArgMatchMode::exact, ArgMatchMode::subset, ArgMatchMode::superset, ArgMatchMode::ignore})
    if (text == to_string(mode)) return mode;
  return std::nullopt;
}

class ArgumentMatcher {
 public:
  ArgMatchMode mode = ArgMatchMode::exact;
  bool trim = false;
  bool ignore_case = false;

  bool matches(const boost::json::object& expected, const boost::json::object& actual) const {
    switch (mode) {
      case ArgMatchMode::ignore: return true;
      case ArgMatchMode::exact: return expected.size() == actual.size() && contained(expected, actual);
      case ArgMatchMode::subset: return contained(expected, actual);
      case ArgMatchMode::superset: return contained(actual, expected);
    }
    return false;
  }

  bool values_match(const boost::json::value& expected, const boost::json::value& actual) const {
    if (json::is_number(expected) || json::is_number(actual)) return json::same_number(expected, actual);
    if (expected.kind() != actual.kind()) return false;
    switch (expected.kind()) {
      case boost::json::kind::null: return true;
      case boost::json::kind::bool_: return expected.get_bool() == actual.get_bool();
      case boost::json::kind::string: return strings_match(expected.get_string(), actual.get_string());
      case boost::json::kind::array: {
        const auto& e = expected.get_array();
        const auto& a = actual.get_array();
        if (e.size() != a.size()) return false;
        for (std::size_t i = 0; i < e.size(); ++i)
          if (!values_match(e[i], a[i])) return false;
        return true;
      }
      case boost::json::kind::object:
        return expected.get_object().size() == actual.get_object().size() &&
               contained(expected.get_object(), actual.get_object());
      default: return false;
    }
  }

  // "exact", "subset, trim, ignore case", ...: for reasons and metadata.
  std::string describe() const {
    std::string text = to_string(mode);
    if (mode == ArgMatchMode::ignore) return text;
    if (trim) text += ", trim";
    if (ignore_case) text += ", ignore case";
    return text;
  }

 private:
  // Every entry of `part` is in `whole` with a matching value (values oriented expected, actual).
  bool contained(const boost::json::object& part, const boost::json::object& whole) const {
    const bool part_is_expected = mode != ArgMatchMode::superset;
    for (const auto& entry : part) {
      const boost::json::value* other = whole.if_contains(entry.key());
      if (other == nullptr) return false;
      if (!(part_is_expected ? values_match(entry.value(), *other) : values_match(*other, entry.value()))) return false;
    }
    return true;
  }

  bool strings_match(std::string_view expected, std::string_view actual) const {
    if (trim) {
      expected = trimmed(expected);
      actual = trimmed(actual);
    }
    if (!ignore_case) return expected == actual;
    if (expected.size() != actual.size()) return false;
    for (std::size_t i = 0; i < expected.size(); ++i)
      if (fold(expected[i]) != fold(actual[i])) return false;
    return true;
  }

  static std::string_view trimmed(std::string_view text) {
    constexpr std::string_view space = " \t\r\n\f\v";
    const std::size_t first = text.find_first_not_of(space);
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(space) - first + 1);
  }

  static char fold(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
};

// Two calls match when their names are equal and their arguments match under the matcher for the
// expected call's tool: its per-tool override, or the default.
class ToolCallMatcher {
 public:
  ToolCallMatcher() = default;
  explicit ToolCallMatcher(ArgumentMatcher default_matcher,
                           std::map<std::string, ArgumentMatcher, std::less<>> per_tool = {})
      : default_(default_matcher), per_tool_(std::move(per_tool)) {}

  const ArgumentMatcher& for_tool(std::string_view expected_name) const {
    const auto it = per_tool_.find(expected_name);
    return it == per_tool_.end() ? default_ : it->second;
  }

  bool matches(const ToolCall& expected, const ToolCall& actual) const {
    return expected.name == actual.name && for_tool(expected.name).matches(expected.arguments, actual.arguments);
  }

  bool matches(const ToolCallView& expected, const ToolCallView& actual) const {
    return expected.name == actual.name && for_tool(expected.name).matches(expected.arguments(), actual.arguments());
  }

  const ArgumentMatcher& default_matcher() const { return default_; }
  const std::map<std::string, ArgumentMatcher, std::less<>>& per_tool() const { return per_tool_; }

 private:
  ArgumentMatcher default_;
  std::map<std::string, ArgumentMatcher, std::less<>> per_tool_;
};

}  // namespace krino::agent

#endif  // KRINO_AGENT_ARGUMENT_MATCHER_HPP
