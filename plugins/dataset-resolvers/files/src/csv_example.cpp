#include "csv_example.hpp"

#include <krino/plugin.hpp>

namespace krino::files {

boost::json::object build_csv_example(const std::vector<CsvColumn>& columns, const std::vector<std::string>& fields) {
  if (fields.size() > columns.size()) {
    throw invalid_argument("the row has " + std::to_string(fields.size()) + " fields but the header has " +
                           std::to_string(columns.size()) + " columns");
  }
  boost::json::object inputs;
  boost::json::object expected;
  boost::json::object metadata;
  boost::json::object actual;
  bool has_actual = false;
  boost::json::object example;
  example.reserve(5);
  for (size_t i = 0; i < fields.size(); ++i) {
    const std::string& value = fields[i];
    switch (columns[i].role) {
      case CsvRole::input:
        inputs.emplace("input", value);
        break;
      case CsvRole::expected_output:
        expected.emplace("output", value);
        break;
      case CsvRole::actual_output:
        actual.emplace("output", value);
        has_actual = true;
        break;
      case CsvRole::id:
        if (!value.empty()) example.emplace("id", value);
        break;
      case CsvRole::metadata:
        metadata.emplace(columns[i].name, value);
        break;
      case CsvRole::ignored:
        break;
    }
  }
  example.emplace("inputs", std::move(inputs));
  example.emplace("expectedOutputs", std::move(expected));
  example.emplace("metadata", std::move(metadata));
  if (has_actual) example.emplace("actualOutputs", std::move(actual));
  return example;
}

}  // namespace krino::files
