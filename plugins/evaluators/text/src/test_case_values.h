// Where the evaluators of this plugin find their operands in a test case, and what happens when
// one is not there: a missing actual output is a failed evaluation (score 0, with the reason),
// a missing expected output is a broken test case (an error naming the key).
#ifndef KRINO_TEXT_TEST_CASE_VALUES_H
#define KRINO_TEXT_TEST_CASE_VALUES_H

#include <krino/plugin.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace krino::text {

// actualOutputs[key], or nullptr when the key is absent.
const boost::json::value* find_actual(const TestCase& test_case, std::string_view key);

// expectedOutputs[key]; throws krino::Error(KRINO_INVALID_ARGUMENT) naming the key when absent.
const boost::json::value& require_expected(const TestCase& test_case, std::string_view key);

// The text of actualOutputs[key] for the text checks (regex, contains, length): its string form
// (see krino/json_text.hpp), or nullopt when the key is absent or null.
std::optional<std::string> find_actual_text(const TestCase& test_case, std::string_view key);

// The text exact_match compares for `value`, which is member `key` of `section`: its string form
// (see krino/json_text.hpp), except that integers keep every digit (read from the member's bytes
// when the test case has them), so two 20-digit integers that share a nearest double still differ.
std::string exact_text_form(const TestCase& test_case, Section section, std::string_view key,
                            const boost::json::value& value);

// Whether any double in `value`, at any depth, satisfies `predicate`.
template <typename Predicate>
bool any_double(const boost::json::value& value, const Predicate& predicate) {
  switch (value.kind()) {
    case boost::json::kind::double_:
      return predicate(value.get_double());
    case boost::json::kind::array:
      for (const boost::json::value& item : value.get_array())
        if (any_double(item, predicate)) return true;
      return false;
    case boost::json::kind::object:
      for (const auto& member : value.get_object())
        if (any_double(member.value(), predicate)) return true;
      return false;
    default:
      return false;
  }
}

// "actualOutputs has no 'output'" / "actualOutputs['output'] is null".
std::string no_actual_reason(const TestCase& test_case, std::string_view key);

}  // namespace krino::text

#endif  // KRINO_TEXT_TEST_CASE_VALUES_H
