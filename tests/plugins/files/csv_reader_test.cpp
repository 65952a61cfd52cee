#include "csv_fields.hpp"
#include "csv_reader.hpp"
#include "files_test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <iterator>
#include <vector>

using namespace krino::files;
using namespace krino::files::testing;

namespace {

struct Cut {
  CsvReader::Row kind;
  uint64_t line;
  std::string row;
};

std::vector<Cut> cut_all(const std::string& path, size_t chunk_size, char delimiter = ',') {
  CsvReader reader(BufferedFile(path, chunk_size), delimiter);
  std::vector<Cut> out;
  std::string_view row;
  uint64_t line = 0;
  for (;;) {
    const CsvReader::Row kind = reader.next(row, line);
    if (kind == CsvReader::Row::end) break;
    out.push_back({kind, line, std::string(row)});
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(csv_reader)

BOOST_AUTO_TEST_CASE(line_breaks_inside_quotes_stay_in_the_row_and_lines_are_counted) {
  TempDir dir;
  const std::string path = dir.write("a.csv",
                                     "input,expected_output\r\n"
                                     "\"two\r\nlines\",x\r\n"
                                     "\"cr\ronly\",\"lf\nonly\"\n"
                                     "plain,\"a \"\"quoted\"\" word\"\r"
                                     "last,row");
  for (size_t chunk : {size_t{1}, size_t{2}, size_t{5}, size_t{1} << 20}) {
    const auto rows = cut_all(path, chunk);
    BOOST_TEST_REQUIRE(rows.size() == 5u);
    BOOST_TEST(rows[0].row == "input,expected_output");
    BOOST_TEST(rows[0].line == 1u);
    BOOST_TEST(rows[1].row == "\"two\r\nlines\",x");
    BOOST_TEST(rows[1].line == 2u);
    BOOST_TEST(rows[2].row == "\"cr\ronly\",\"lf\nonly\"");
    BOOST_TEST(rows[2].line == 4u);
    BOOST_TEST(rows[3].row == "plain,\"a \"\"quoted\"\" word\"");
    BOOST_TEST(rows[3].line == 7u);
    BOOST_TEST(rows[4].row == "last,row");
    BOOST_TEST(rows[4].line == 8u);
  }
}

BOOST_AUTO_TEST_CASE(bom_and_blank_lines_are_skipped) {
  TempDir dir;
  const std::string path = dir.write("a.csv", "\xEF\xBB\xBFinput\n\n  \t \r\n\"\"\na\n\n");
  const auto rows = cut_all(path, 3);
  BOOST_TEST_REQUIRE(rows.size() == 3u);
  BOOST_TEST(rows[0].row == "input");
  BOOST_TEST(rows[1].row == "\"\"");  // a quoted empty field is a value, not a blank line
  BOOST_TEST(rows[1].line == 4u);
  BOOST_TEST(rows[2].row == "a");
  BOOST_TEST(rows[2].line == 5u);
}

BOOST_AUTO_TEST_CASE(a_quote_inside_an_unquoted_field_is_literal) {
  TempDir dir;
  const std::string path = dir.write("a.csv", "input\n5\" screen\nnext\n");
  const auto rows = cut_all(path, 4);
  BOOST_TEST_REQUIRE(rows.size() == 3u);
  BOOST_TEST(rows[1].row == "5\" screen");
  BOOST_TEST(rows[2].row == "next");
}

BOOST_AUTO_TEST_CASE(an_unclosed_quote_takes_the_rest_and_names_its_line) {
  TempDir dir;
  // The row starts on line 3; its second field opens a quote on line 4 that never closes.
  const std::string path = dir.write("a.csv", "input\nok\n\"a\nb\",\"never\nclosed\n");
  const auto rows = cut_all(path, 4);
  BOOST_TEST_REQUIRE(rows.size() == 3u);
  BOOST_TEST(rows[1].row == "ok");
  BOOST_TEST(static_cast<int>(rows[2].kind) == static_cast<int>(CsvReader::Row::unterminated));
  BOOST_TEST(rows[2].line == 4u);
  BOOST_TEST(rows[2].row == "\"a\nb\",\"never\nclosed\n");
}

BOOST_AUTO_TEST_CASE(tab_delimiter_is_not_a_blank) {
  TempDir dir;
  const std::string path = dir.write("a.tsv", "input\tid\n\t\n");
  const auto rows = cut_all(path, 64, '\t');
  BOOST_TEST_REQUIRE(rows.size() == 2u);
  BOOST_TEST(rows[1].row == "\t");
}

BOOST_AUTO_TEST_CASE(counting_excludes_the_header) {
  TempDir dir;
  BOOST_TEST(count_csv_records(dir.write("a.csv", "input\n\"a\nb\"\nc\n\n"), ',') == 2u);
  BOOST_TEST(count_csv_records(dir.write("b.csv", "input\n"), ',') == 0u);
  BOOST_TEST(count_csv_records(dir.write("c.csv", ""), ',') == 0u);
}

BOOST_AUTO_TEST_CASE(quoted_values_round_trip_at_every_chunk_boundary) {
  // Values full of delimiters, quotes and every kind of line break, written the RFC 4180 way.
  const std::string alphabet[] = {"a", ",", "\"", "\r\n", "\n", "\r", " ", "\t", "\xC3\xA9", "x y"};
  uint32_t state = 777;
  const auto next_random = [&state] { return (state = state * 1103515245u + 12345u) >> 16; };
  std::vector<std::vector<std::string>> table;
  std::string content = "input,other\r\n";
  uint64_t line = 2;
  std::vector<uint64_t> lines;
  for (int row = 0; row < 200; ++row) {
    std::vector<std::string> values;
    for (int column = 0; column < 2; ++column) {
      std::string value;
      const int pieces = static_cast<int>(next_random() % 12);
      for (int k = 0; k < pieces; ++k) value += alphabet[next_random() % std::size(alphabet)];
      std::string quoted = "\"";
      for (char c : value) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
      content += (column ? "," : "") + quoted + "\"";
      values.push_back(value);
    }
    content += row % 2 ? "\n" : "\r\n";
    lines.push_back(line);
    for (const std::string& v : values)
      for (size_t k = 0; k < v.size(); ++k)
        if (v[k] == '\r' || (v[k] == '\n' && (k == 0 || v[k - 1] != '\r'))) ++line;
    ++line;
    table.push_back(values);
  }
  TempDir dir;
  const std::string path = dir.write("round.csv", content);
  for (size_t chunk : {size_t{1}, size_t{3}, size_t{64}, size_t{1} << 20}) {
    const auto rows = cut_all(path, chunk);
    BOOST_TEST_REQUIRE(rows.size() == table.size() + 1);
    std::vector<std::string> fields;
    for (size_t i = 0; i < table.size(); ++i) {
      split_csv_fields(rows[i + 1].row, ',', fields);
      BOOST_TEST_REQUIRE(fields == table[i]);
      BOOST_TEST_REQUIRE(rows[i + 1].line == lines[i]);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
