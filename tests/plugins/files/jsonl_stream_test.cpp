#include "files_test_support.hpp"
#include "jsonl_stream.hpp"

#include <boost/test/unit_test.hpp>

#include <utility>
#include <vector>

using namespace krino::files;
using namespace krino::files::testing;

namespace {

std::vector<std::pair<uint64_t, std::string>> read_all(const std::string& path, size_t chunk_size) {
  JsonlStream stream{BufferedFile(path, chunk_size)};
  std::vector<std::pair<uint64_t, std::string>> lines;
  std::string_view line;
  uint64_t number = 0;
  while (stream.next(line, number)) lines.emplace_back(number, std::string(line));
  return lines;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(jsonl_stream)

BOOST_AUTO_TEST_CASE(skips_blank_lines_and_keeps_true_line_numbers) {
  TempDir dir;
  const std::string path = dir.write("a.jsonl", "{\"a\":1}\n\n   \n\t\r\n{\"b\":2}\r\n\n{\"c\":3}");
  for (size_t chunk : {size_t{1}, size_t{3}, size_t{1} << 20}) {
    const auto lines = read_all(path, chunk);
    BOOST_TEST_REQUIRE(lines.size() == 3u);
    BOOST_TEST(lines[0].first == 1u);
    BOOST_TEST(lines[0].second == "{\"a\":1}");
    BOOST_TEST(lines[1].first == 5u);
    BOOST_TEST(lines[1].second == "{\"b\":2}");  // CR of CRLF dropped
    BOOST_TEST(lines[2].first == 7u);
    BOOST_TEST(lines[2].second == "{\"c\":3}");  // no final line break
  }
}

BOOST_AUTO_TEST_CASE(strips_a_byte_order_mark_on_line_one_only) {
  TempDir dir;
  const std::string path = dir.write("a.jsonl", "\xEF\xBB\xBF{\"a\":1}\n\xEF\xBB\xBF{\"b\":2}\n");
  const auto lines = read_all(path, 2);
  BOOST_TEST_REQUIRE(lines.size() == 2u);
  BOOST_TEST(lines[0].second == "{\"a\":1}");
  BOOST_TEST(lines[1].second == "\xEF\xBB\xBF{\"b\":2}");  // later BOMs are data, and decode rejects them
}

BOOST_AUTO_TEST_CASE(a_line_longer_than_the_buffer_is_kept_whole) {
  TempDir dir;
  const std::string long_line = "{\"input\":\"" + std::string(100000, 'x') + "\"}";
  const std::string path = dir.write("a.jsonl", long_line + "\n{}\n");
  const auto lines = read_all(path, 4096);
  BOOST_TEST_REQUIRE(lines.size() == 2u);
  BOOST_TEST(lines[0].second == long_line);
  BOOST_TEST(lines[1].first == 2u);
}

BOOST_AUTO_TEST_CASE(an_empty_or_blank_file_has_no_lines) {
  TempDir dir;
  BOOST_TEST(read_all(dir.write("empty.jsonl", ""), 8).empty());
  BOOST_TEST(read_all(dir.write("blank.jsonl", "\n \n\r\n"), 8).empty());
  BOOST_TEST(count_jsonl_records(dir.path("blank.jsonl")) == 0u);
}

BOOST_AUTO_TEST_CASE(counting_agrees_with_reading) {
  TempDir dir;
  std::string content;
  for (int i = 0; i < 5000; ++i) content += (i % 7 == 0 ? "\n" : "{\"i\":" + std::to_string(i) + "}\n");
  const std::string path = dir.write("a.jsonl", content);
  BOOST_TEST(count_jsonl_records(path) == read_all(path, 1 << 20).size());
  BOOST_TEST(count_jsonl_records(path) == 4285u);
}

BOOST_AUTO_TEST_SUITE_END()
