#include "tool_call_options.h"

#include <map>
#include <string>

namespace krino::agent {

namespace {

ArgumentMatcher read_argument_matcher(const Config& options, ArgumentMatcher inherited, const std::string& where) {
  for (const auto& option : options.json()) {
    const std::string_view key = option.key();
    if (key != "arg_match_mode" && key != "trim_strings" && key != "ignore_case")
      throw invalid_argument(where + ": unknown option '" + std::string(key) +
                             "' (known options: arg_match_mode, trim_strings, ignore_case)");
  }
  ArgumentMatcher matcher = inherited;
  if (options.has("arg_match_mode")) {
    const std::string text = options.get_string("arg_match_mode");
    const auto mode = parse_arg_match_mode(text);
    if (!mode)
      throw invalid_argument(where + ": option 'arg_match_mode' must be one of exact, subset, superset, ignore, got '" +
                             text + "'");
    matcher.mode = *mode;
  }
  // What an entry leaves out it inherits, so only the options it sets are read.
  if (options.has("trim_strings")) matcher.trim = options.get_bool("trim_strings");
  if (options.has("ignore_case")) matcher.ignore_case = options.get_bool("ignore_case");
  return matcher;
}

boost::json::object matcher_json(const ArgumentMatcher& matcher) {
  return {{"arg_match_mode", to_string(matcher.mode)}, {"trim_strings", matcher.trim}, {"ignore_case", matcher.ignore_case}};
}

}  // namespace


ToolCallMatcher read_tool_call_matcher(const Config& config) {
  // The top-level options as set, else as the schema defaults them (kToolCallOptionsSchema).
  boost::json::object top;
  for (const char* key : {"arg_match_mode", "trim_strings", "ignore_case"})
    if (const auto* value = config.find_or_default(key)) top[key] = *value;
  const ArgumentMatcher default_matcher = read_argument_matcher(Config(std::move(top)), ArgumentMatcher{}, "options");

  std::map<std::string, ArgumentMatcher, std::less<>> per_tool;
  if (const auto* overrides = config.find("per_tool")) {
    if (!overrides->is_object()) throw invalid_argument("option 'per_tool' must be an object keyed by tool name");
    for (const auto& entry : overrides->get_object()) {
      const std::string where = "per_tool['" + std::string(entry.key()) + "']";
      if (!entry.value().is_object()) throw invalid_argument(where + " must be an object");
      per_tool.emplace(std::string(entry.key()),
                       read_argument_matcher(Config(entry.value().get_object()), default_matcher, where));
    }
  }
  return ToolCallMatcher(default_matcher, std::move(per_tool));
}

boost::json::object describe_matcher(const ToolCallMatcher& matcher) {
  boost::json::object out = matcher_json(matcher.default_matcher());
  if (!matcher.per_tool().empty()) {
    boost::json::object per_tool;
    for (const auto& [name, tool_matcher] : matcher.per_tool()) per_tool[name] = matcher_json(tool_matcher);
    out["per_tool"] = std::move(per_tool);
  }
  return out;
}

}  // namespace krino::agent
