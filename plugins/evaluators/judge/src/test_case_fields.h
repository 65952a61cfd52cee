// Reading what a judge evaluator shows the judge out of a test case.
#ifndef KRINO_JUDGE_TEST_CASE_FIELDS_H
#define KRINO_JUDGE_TEST_CASE_FIELDS_H

#include <krino/plugin.hpp>

#include <boost/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace krino::judge {

// "actualOutputs.output": how messages name a member.
std::string member_label(Section section, std::string_view key);

// The member, which must be present and not null. Otherwise throws invalid_argument:
// "<evaluator> requires 'inputs.input' but the test case has none".
const boost::json::value& required_member(const TestCase& test_case, Section section, std::string_view key,
                                          std::string_view evaluator);

// The retrieved context under `key`: actualOutputs first, then metadata (test cases put it in
// either; docs/plugins/judge.md#faithfulness-and-hallucination). A null
// value counts as absent. Throws invalid_argument naming both places when it is in neither.
const boost::json::value& required_context(const TestCase& test_case, std::string_view key, std::string_view evaluator);

// Context as chunks: a list gives one chunk per element, anything else is one chunk; each chunk is
// rendered with render_value (strings verbatim, structured values as pretty JSON).
std::vector<std::string> context_chunks(const boost::json::value& context);

}  // namespace krino::judge

#endif  // KRINO_JUDGE_TEST_CASE_FIELDS_H
