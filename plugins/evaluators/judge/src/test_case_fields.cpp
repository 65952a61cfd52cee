#include "test_case_fields.h"

#include "value_rendering.h"

namespace krino::judge {
namespace {

const char* section_name(Section section) {
  switch (section) {
    case Section::inputs:
      return "inputs";
    case Section::actual_outputs:
      return "actualOutputs";
    case Section::expected_outputs:
      return "expectedOutputs";
    case Section::metadata:
      break;
  }
  return "metadata";
}

}  // namespace

std::string member_label(Section section, std::string_view key) {
  return std::string(section_name(section)) + "." + std::string(key);
}

const boost::json::value& required_member(const TestCase& test_case, Section section, std::string_view key,
                                          std::string_view evaluator) {
  const boost::json::value* value = test_case.find(section, key);
  if (value == nullptr || value->is_null())
    throw invalid_argument(std::string(evaluator) + " requires '" + member_label(section, key) +
                           "' but the test case has none");
  return *value;
}

const boost::json::value& required_context(const TestCase& test_case, std::string_view key, std::string_view evaluator) {
  for (Section section : {Section::actual_outputs, Section::metadata}) {
    const boost::json::value* value = test_case.find(section, key);
    if (value != nullptr && !value->is_null()) return *value;
  }
  throw invalid_argument(std::string(evaluator) + " requires a context under '" +
                         member_label(Section::actual_outputs, key) + "' or '" + member_label(Section::metadata, key) +
                         "' but the test case has neither");
}

std::vector<std::string> context_chunks(const boost::json::value& context) {
  std::vector<std::string> chunks;
  if (const boost::json::array* list = context.if_array()) {
    for (const boost::json::value& element : *list) chunks.push_back(render_value(element));
  } else {
    chunks.push_back(render_value(context));
  }
  return chunks;
}

}  // namespace krino::judge
