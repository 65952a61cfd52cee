#include "test_case_values.h"

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

#include <cmath>

namespace krino::text {

const boost::json::value* find_actual(const TestCase& test_case, std::string_view key) {
  return test_case.find(Section::actual_outputs, key);
}

const boost::json::value& require_expected(const TestCase& test_case, std::string_view key) {
  const boost::json::value* expected = test_case.find(Section::expected_outputs, key);
  if (expected == nullptr)
    throw invalid_argument("the test case has no expected output '" + std::string(key) +
                           "' (expectedOutputs." + std::string(key) + ")");
  return *expected;
}

std::optional<std::string> find_actual_text(const TestCase& test_case, std::string_view key) {
  const boost::json::value* actual = find_actual(test_case, key);
  if (actual == nullptr || actual->is_null()) return std::nullopt;
  return json::string_form(*actual);
}

namespace {

// Whether `value` holds a double that may have been written as an integer beyond 64 bits: a whole
// number at least 2^63 in magnitude. Only then is the member's text read again (most values hold
// none, and a second parse of every output would cost more than the comparison).
bool may_hold_wide_integer(const boost::json::value& value) {
  return any_double(value, [](double d) { return std::fabs(d) >= 9223372036854775808.0 && std::isfinite(d) && std::floor(d) == d; });
}

}  // namespace

std::string exact_text_form(const TestCase& test_case, Section section, std::string_view key,
                            const boost::json::value& value) {
  if (may_hold_wide_integer(value)) {
    const std::optional<std::string_view> raw = test_case.raw_member(section, key);
    if (raw) {
      if (std::optional<std::string> exact = json::exact_compact_json(*raw)) return std::move(*exact);
    }
  }
  return json::string_form(value);
}

std::string no_actual_reason(const TestCase& test_case, std::string_view key) {
  const boost::json::value* actual = find_actual(test_case, key);
  if (actual != nullptr && actual->is_null()) return "the actual output '" + std::string(key) + "' is null";
  return "the actual output '" + std::string(key) + "' is missing (actualOutputs has no such key)";
}

}  // namespace krino::text
