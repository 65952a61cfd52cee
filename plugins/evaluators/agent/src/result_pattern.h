// A PCRE2 regular expression searched in tool results (tool_error's error_patterns): the support
// library's Pcre2Regex, with errors that name the option it came from. Compiled once when the
// evaluator is created; one pattern may be searched from several threads at once.
#ifndef KRINO_AGENT_RESULT_PATTERN_H
#define KRINO_AGENT_RESULT_PATTERN_H

#include <krino/support/pcre2_regex.hpp>

#include <string>
#include <string_view>

namespace krino::agent {

class ResultPattern {
 public:
  // Throws krino::Error (INVALID_ARGUMENT) naming `where` when the pattern does not compile.
  ResultPattern(std::string pattern, const std::string& where);

  // True when the pattern matches anywhere in `text` (a search, not a whole-text match).
  bool found_in(std::string_view text) const;
  const std::string& pattern() const { return pattern_; }

 private:
  std::string pattern_;
  std::string where_;
  Pcre2Regex regex_;
};

}  // namespace krino::agent

#endif  // KRINO_AGENT_RESULT_PATTERN_H
