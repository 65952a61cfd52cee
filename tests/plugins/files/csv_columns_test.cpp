#include "csv_columns.hpp"
#include "csv_example.hpp"
#include "files_test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <ostream>

namespace krino::files {
// How Boost.Test prints a role when a check fails.
std::ostream& boost_test_print_type(std::ostream& out, CsvRole role) {
  static const char* const names[] = {"input", "expected_output", "actual_output", "id", "metadata", "ignored"};
  return out << names[static_cast<int>(role)];
}
}  // namespace krino::files

using namespace krino::files;
using namespace krino::files::testing;

namespace {

std::vector<CsvRole> roles(const std::vector<std::string>& header) {
  std::vector<CsvRole> out;
  for (const CsvColumn& c : read_csv_columns(header, "t.csv")) out.push_back(c.role);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(csv_columns)

BOOST_AUTO_TEST_CASE(names_are_trimmed_and_matched_ignoring_case) {
  const auto columns = read_csv_columns({" Input ", "EXPECTED_OUTPUT", "Id", " Topic "}, "t.csv");
  BOOST_TEST(columns[0].role == CsvRole::input);
  BOOST_TEST(columns[1].role == CsvRole::expected_output);
  BOOST_TEST(columns[2].role == CsvRole::id);
  BOOST_TEST(columns[3].role == CsvRole::metadata);
  BOOST_TEST(columns[3].name == "Topic");
}

BOOST_AUTO_TEST_CASE(the_first_expected_output_alias_wins_and_the_others_are_metadata) {
  BOOST_TEST(roles({"output", "input", "expectedOutput", "expected_output"}) ==
             (std::vector<CsvRole>{CsvRole::expected_output, CsvRole::input, CsvRole::metadata, CsvRole::metadata}));
  BOOST_TEST(roles({"input", "actual_output", "ActualOutput"}) ==
             (std::vector<CsvRole>{CsvRole::input, CsvRole::actual_output, CsvRole::metadata}));
}

BOOST_AUTO_TEST_CASE(unnamed_columns_are_ignored) {
  BOOST_TEST(roles({"", "input", " "}) == (std::vector<CsvRole>{CsvRole::ignored, CsvRole::input, CsvRole::ignored}));
}

BOOST_AUTO_TEST_CASE(header_errors) {
  BOOST_TEST(error_of([] { read_csv_columns({"question", "answer"}, "t.csv"); }) ==
             "'t.csv' has no 'input' column (header: question, answer)");
  BOOST_TEST(error_of([] { read_csv_columns({"input", "topic", "Topic"}, "t.csv"); }) ==
             "'t.csv': columns 2 and 3 are both named 'Topic'");
}

BOOST_AUTO_TEST_CASE(rows_become_examples_with_string_values) {
  const auto columns = read_csv_columns({"id", "input", "expectedOutput", "actualOutput", "topic", "output", ""}, "t.csv");
  BOOST_TEST(boost::json::value(build_csv_example(columns, {"7", "q", "a", "b", "geo", "other", "dropped"})) ==
             json(R"({"id":"7","inputs":{"input":"q"},"expectedOutputs":{"output":"a"},
                      "metadata":{"topic":"geo","output":"other"},"actualOutputs":{"output":"b"}})"));
}

BOOST_AUTO_TEST_CASE(short_rows_lack_trailing_columns_and_empty_ids_are_no_ids) {
  const auto columns = read_csv_columns({"input", "id", "expected_output", "actual_output", "topic"}, "t.csv");
  BOOST_TEST(boost::json::value(build_csv_example(columns, {"q", ""})) ==
             json(R"({"inputs":{"input":"q"},"expectedOutputs":{},"metadata":{}})"));
  BOOST_TEST(boost::json::value(build_csv_example(columns, {"", "", ""})) ==
             json(R"({"inputs":{"input":""},"expectedOutputs":{"output":""},"metadata":{}})"));
}

BOOST_AUTO_TEST_CASE(a_row_longer_than_the_header_is_an_error) {
  const auto columns = read_csv_columns({"input", "topic"}, "t.csv");
  BOOST_TEST(error_of([&] { build_csv_example(columns, {"q", "geo", "extra"}); }) ==
             "the row has 3 fields but the header has 2 columns");
}

BOOST_AUTO_TEST_SUITE_END()
