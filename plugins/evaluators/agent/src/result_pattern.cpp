#include "result_pattern.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <krino/plugin.hpp>

#include <new>
#include <utility>

namespace krino::agent {

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

}  // namespace

struct ResultPattern::Code {
  pcre2_code* code = nullptr;
  ~Code() { pcre2_code_free(code); }
};

ResultPattern::ResultPattern(std::string pattern, const std::string& where)
    : pattern_(std::move(pattern)), where_(where), code_(std::make_unique<Code>()) {
  // Results come from JSON text, so they are UTF-8; \C could split a character.
  const uint32_t flags = PCRE2_UTF | PCRE2_UCP | PCRE2_NEVER_BACKSLASH_C;
  int error_code = 0;
  PCRE2_SIZE error_offset = 0;
  code_->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern_.data()), pattern_.size(), flags, &error_code,
                              &error_offset, nullptr);
  if (code_->code == nullptr)
    throw invalid_argument(where_ + ": invalid regular expression at offset " + std::to_string(error_offset) + ": " +
                           pcre2_message(error_code));
}

ResultPattern::~ResultPattern() = default;
ResultPattern::ResultPattern(ResultPattern&&) noexcept = default;
ResultPattern& ResultPattern::operator=(ResultPattern&&) noexcept = default;

bool ResultPattern::found_in(std::string_view text) const {
  const std::unique_ptr<pcre2_match_data, MatchDataDeleter> data(pcre2_match_data_create(1, nullptr));
  if (!data) throw std::bad_alloc();
  const int rc = pcre2_match(code_->code, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), 0, 0, data.get(),
                             nullptr);
  if (rc >= 0) return true;
  if (rc == PCRE2_ERROR_NOMATCH) return false;
  throw invalid_argument(where_ + ": the regular expression could not be searched in a result: " + pcre2_message(rc));
}

}  // namespace krino::agent
