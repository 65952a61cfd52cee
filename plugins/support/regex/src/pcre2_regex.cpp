#include <krino/support/pcre2_regex.hpp>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <krino/plugin.hpp>

#include <string>

namespace krino {

namespace {

std::string pcre2_message(int error_code) {
  PCRE2_UCHAR buffer[256];
  const int length = pcre2_get_error_message(error_code, buffer, sizeof(buffer));
  if (length < 0) return "PCRE2 error " + std::to_string(error_code);
  return std::string(reinterpret_cast<const char*>(buffer), static_cast<std::size_t>(length));
}

struct MatchDataDeleter {
  void operator()(pcre2_match_data* data) const { pcre2_match_data_free(data); }
};

// One match-data block per thread, shared by every pattern: a single offset pair is all find()
// reads (PCRE2 fills what fits and reports the overall match even when groups do not fit).
pcre2_match_data* thread_match_data() {
  thread_local std::unique_ptr<pcre2_match_data, MatchDataDeleter> data(pcre2_match_data_create(1, nullptr));
  if (!data) throw std::bad_alloc();
  return data.get();
}

}  // namespace

struct Pcre2Regex::Code {
  pcre2_code* code = nullptr;
  ~Code() { pcre2_code_free(code); }
};

Pcre2Regex::Pcre2Regex(std::string_view pattern, Options options) : code_(std::make_unique<Code>()) {
  uint32_t flags = PCRE2_UTF;
  if (options.literal) {
    flags |= PCRE2_LITERAL;  // PCRE2 refuses UCP and the like alongside LITERAL; none are needed
  } else {
    flags |= PCRE2_UCP | PCRE2_NEVER_BACKSLASH_C;  // \C could split a UTF-8 character
  }
  if (options.ignore_case) flags |= PCRE2_CASELESS;
  int error_code = 0;
  PCRE2_SIZE error_offset = 0;
  code_->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), flags, &error_code,
                              &error_offset, nullptr);
  if (code_->code == nullptr) {
    throw invalid_argument("invalid regular expression at offset " + std::to_string(error_offset) + ": " +
                           pcre2_message(error_code));
  }
}

Pcre2Regex::~Pcre2Regex() = default;
Pcre2Regex::Pcre2Regex(Pcre2Regex&&) noexcept = default;
Pcre2Regex& Pcre2Regex::operator=(Pcre2Regex&&) noexcept = default;

RegexSearch Pcre2Regex::search(std::string_view subject, bool whole) const {
  pcre2_match_data* data = thread_match_data();
  const uint32_t flags = whole ? (PCRE2_ANCHORED | PCRE2_ENDANCHORED) : 0;
  const int rc =
      pcre2_match(code_->code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), 0, flags, data, nullptr);
  RegexSearch result;
  if (rc == PCRE2_ERROR_NOMATCH) return result;
  if (rc < 0) {
    result.failure = pcre2_message(rc);
    result.resource_limit = rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT;
    return result;
  }
  const PCRE2_SIZE* offsets = pcre2_get_ovector_pointer(data);
  result.match = RegexMatch{offsets[0], offsets[1]};
  return result;
}

std::optional<RegexMatch> Pcre2Regex::find(std::string_view subject, bool whole) const {
  RegexSearch result = search(subject, whole);
  if (result.failure) {
    if (result.resource_limit) throw Error(KRINO_RESOURCE_EXHAUSTED, "regular expression gave up: " + *result.failure);
    throw invalid_argument("regular expression match failed: " + *result.failure);
  }
  return result.match;
}

}  // namespace krino
