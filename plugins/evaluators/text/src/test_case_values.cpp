#include "test_case_values.h"

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

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

std::string exact_text_form(const TestCase& test_case, Section section, std::string_view key,
                            const boost::json::value& value) {
  if (!value.is_string()) {
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
