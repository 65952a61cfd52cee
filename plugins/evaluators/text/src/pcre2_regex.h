// A compiled PCRE2 pattern (UTF-8 mode), shareable between threads.
#ifndef KRINO_TEXT_PCRE2_REGEX_H
#define KRINO_TEXT_PCRE2_REGEX_H

#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>

namespace krino::text {

struct RegexMatch {
  std::size_t begin;  // byte offsets into the subject
  std::size_t end;
};

class Pcre2Regex {
 public:
  struct Options {
    bool ignore_case = false;  // Unicode case folding, not only ASCII
    bool literal = false;      // the pattern is plain text: no metacharacter is special
  };

  // Compiles once. A bad pattern throws krino::Error(KRINO_INVALID_ARGUMENT) with PCRE2's message
  // and the offset where compilation failed. Non-literal patterns use Unicode properties for \w,
  // \d, \s, \b and POSIX classes (PCRE2_UCP), so they work on text in any script.
  Pcre2Regex(std::string_view pattern, Options options);
  ~Pcre2Regex();
  Pcre2Regex(Pcre2Regex&&) noexcept;
  Pcre2Regex& operator=(Pcre2Regex&&) noexcept;

  // The leftmost match anywhere in `subject` (search, not full match), or nullopt. With `whole`,
  // only a match spanning the entire subject counts. Safe to call from several threads at once.
  // Throws krino::Error when PCRE2 gives up (match or depth limit, invalid UTF-8 subject).
  std::optional<RegexMatch> find(std::string_view subject, bool whole = false) const;

 private:
  struct Code;
  std::unique_ptr<Code> code_;
};

}  // namespace krino::text

#endif  // KRINO_TEXT_PCRE2_REGEX_H
