// A compiled PCRE2 pattern (UTF-8 mode), shareable between threads: the regular expressions of the
// text plugin (regex, contains with ignore_case) and the agent plugin (tool_error's error_patterns).
#ifndef KRINO_SUPPORT_PCRE2_REGEX_HPP
#define KRINO_SUPPORT_PCRE2_REGEX_HPP

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace krino {

struct RegexMatch {
  std::size_t begin;  // byte offsets into the subject
  std::size_t end;
};

// What one search found: a match, no match, or PCRE2 gave up (`failure` holds PCRE2's message).
struct RegexSearch {
  std::optional<RegexMatch> match;
  std::optional<std::string> failure;
  bool resource_limit = false;  // the failure is a match, depth or heap limit
};

class Pcre2Regex {
 public:
  struct Options {
    bool ignore_case = false;  // Unicode case folding, not only ASCII
    bool literal = false;      // the pattern is plain text: no metacharacter is special
  };

  // Compiles once. A bad pattern throws krino::Error(KRINO_INVALID_ARGUMENT) with PCRE2's message
  // and the offset where compilation failed ("invalid regular expression at offset N: ...").
  // Non-literal patterns use Unicode properties for \w, \d, \s, \b and POSIX classes (PCRE2_UCP),
  // so they work on text in any script.
  Pcre2Regex(std::string_view pattern, Options options);
  ~Pcre2Regex();
  Pcre2Regex(Pcre2Regex&&) noexcept;
  Pcre2Regex& operator=(Pcre2Regex&&) noexcept;

  // The leftmost match anywhere in `subject` (search, not full match), or nullopt. With `whole`,
  // only a match spanning the entire subject counts. Safe to call from several threads at once.
  // Throws krino::Error when PCRE2 gives up (match or depth limit, invalid UTF-8 subject).
  std::optional<RegexMatch> find(std::string_view subject, bool whole = false) const;

  // find() without the exception: for callers that word the failure themselves.
  RegexSearch search(std::string_view subject, bool whole = false) const;

 private:
  struct Code;
  std::unique_ptr<Code> code_;
};

}  // namespace krino

#endif  // KRINO_SUPPORT_PCRE2_REGEX_HPP
