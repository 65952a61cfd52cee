#include "files_test_support.hpp"
#include "json_array_scanner.hpp"

#include <boost/test/unit_test.hpp>

#include <iterator>
#include <utility>
#include <vector>

using namespace krino::files;
using namespace krino::files::testing;

namespace {

struct Scan {
  JsonDatasetFields fields;
  std::vector<std::pair<uint64_t, std::string>> elements;
};

// Every chunk size must give the same cut: 1 and 3 byte reads put every token across a refill.
Scan scan(const std::string& path, size_t chunk_size) {
  JsonArrayScanner scanner(BufferedFile(path, chunk_size));
  Scan out;
  std::string element;
  uint64_t line = 0;
  while (scanner.next_element(&element, line)) out.elements.emplace_back(line, element);
  scanner.finish();
  out.fields = scanner.fields();
  return out;
}

std::string scan_error(const std::string& path) {
  return error_of([&] { scan(path, 5); });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(json_array_scanner)

BOOST_AUTO_TEST_CASE(cuts_each_example_with_its_start_line) {
  TempDir dir;
  const std::string path = dir.write("a.json",
                                     "{\n"
                                     "  \"name\": \"qa\",\n"
                                     "  \"description\": \"caf\\u00e9 \\\"quoted\\\"\",\n"
                                     "  \"examples\": [\n"
                                     "    {\"input\": \"a ] } [ {\", \"expectedOutput\": \"b\\\\\"},\n"
                                     "    {\n"
                                     "      \"inputs\": {\"q\": [1, {\"x\": \"\\\"\"}]}\n"
                                     "    }, 7, \"s\", null\n"
                                     "  ]\n"
                                     "}\n");
  for (size_t chunk : {size_t{1}, size_t{3}, size_t{1} << 20}) {
    const Scan result = scan(path, chunk);
    BOOST_TEST(!result.fields.root_is_array);
    BOOST_TEST(*result.fields.name == "qa");
    BOOST_TEST(*result.fields.description == "caf\xC3\xA9 \"quoted\"");
    BOOST_TEST_REQUIRE(result.elements.size() == 5u);
    BOOST_TEST(result.elements[0].first == 5u);
    BOOST_TEST(result.elements[0].second == R"({"input": "a ] } [ {", "expectedOutput": "b\\"})");
    BOOST_TEST(result.elements[1].first == 6u);
    BOOST_TEST(result.elements[1].second == "{\n      \"inputs\": {\"q\": [1, {\"x\": \"\\\"\"}]}\n    }");
    BOOST_TEST(result.elements[2].first == 8u);
    BOOST_TEST(result.elements[2].second == "7");
    BOOST_TEST(result.elements[3].second == "\"s\"");
    BOOST_TEST(result.elements[4].second == "null");
  }
}

BOOST_AUTO_TEST_CASE(a_root_array_is_the_list_of_examples) {
  TempDir dir;
  const std::string path = dir.write("a.json", "\xEF\xBB\xBF [ {\"input\":1} ,\r\n{\"input\":2} ] \n");
  const Scan result = scan(path, 2);
  BOOST_TEST(result.fields.root_is_array);
  BOOST_TEST(!result.fields.name.has_value());
  BOOST_TEST_REQUIRE(result.elements.size() == 2u);
  BOOST_TEST(result.elements[1].first == 2u);
  BOOST_TEST(result.elements[1].second == "{\"input\":2}");
}

BOOST_AUTO_TEST_CASE(name_and_description_after_the_examples_are_found_by_finish) {
  TempDir dir;
  const std::string path =
      dir.write("a.json", R"({"version": {"major": [1, "}"]}, "examples": [{}], "name": "late", "description": null})");
  JsonArrayScanner scanner(BufferedFile(path, 4));
  BOOST_TEST(!scanner.fields().name.has_value());
  std::string element;
  uint64_t line = 0;
  while (scanner.next_element(&element, line)) {
  }
  scanner.finish();
  BOOST_TEST(*scanner.fields().name == "late");
  BOOST_TEST(!scanner.fields().description.has_value());
}

BOOST_AUTO_TEST_CASE(an_empty_examples_array_has_no_elements) {
  TempDir dir;
  BOOST_TEST(scan(dir.write("a.json", R"({"examples": [ ]})"), 3).elements.empty());
  BOOST_TEST(scan(dir.write("b.json", "[]"), 3).elements.empty());
}

BOOST_AUTO_TEST_CASE(root_errors_are_clear) {
  TempDir dir;
  BOOST_TEST(scan_error(dir.write("a.json", "")) == "'" + dir.path("a.json") + "' is empty");
  BOOST_TEST(scan_error(dir.write("b.json", R"({"name": "x"})")) == "'" + dir.path("b.json") + "' has no \"examples\" array");
  BOOST_TEST(scan_error(dir.write("c.json", "{}")) == "'" + dir.path("c.json") + "' has no \"examples\" array");
  BOOST_TEST(scan_error(dir.write("d.json", "\n\"x\"")) ==
             dir.path("d.json") + ":2: the root must be an object with an \"examples\" array, or an array of examples; "
                                  "found '\"'");
  BOOST_TEST(scan_error(dir.write("e.json", "{\n\"examples\": {}}")) ==
             dir.path("e.json") + ":2: \"examples\" must be an array, found '{'");
  BOOST_TEST(scan_error(dir.write("f.json", R"({"name": 3, "examples": []})")) ==
             dir.path("f.json") + ":1: \"name\" must be a string");
  BOOST_TEST(scan_error(dir.write("h.json", R"({"name": "bad \q escape", "examples": []})")) ==
             dir.path("h.json") + ":1: \"name\" is not a valid JSON string");
  BOOST_TEST(scan_error(dir.write("g.json", R"({"name": "a" "examples": []})")) ==
             dir.path("g.json") + ":1: expected ',' or '}' after a member of the root object, found '\"'");
}

BOOST_AUTO_TEST_CASE(structural_errors_name_the_line) {
  TempDir dir;
  BOOST_TEST(scan_error(dir.write("a.json", "[\n{\"a\":1}\n{\"a\":2}]")) ==
             dir.path("a.json") + ":3: expected ',' or ']' after an example, found '{'");
  BOOST_TEST(scan_error(dir.write("b.json", "[\n{\"a\":1},\n]")) ==
             dir.path("b.json") + ":3: a comma after the last example is not valid JSON");
  BOOST_TEST(scan_error(dir.write("c.json", "[\n{\"a\":[1}\n]")) ==
             dir.path("c.json") + ":2: '}' closes a bracket that needs ']'");
  BOOST_TEST(scan_error(dir.write("d.json", "{\"examples\": [\n{\"a\":1},\n{\"a\": \"unterminated}]}")) ==
             dir.path("d.json") + ":3: a string starting on this line never ends (the file is truncated?)");
  BOOST_TEST(scan_error(dir.write("e.json", "{\"examples\": [\n{\"a\":1},\n{\"a\": [1,\n2")) ==
             dir.path("e.json") + ":3: a value starting on this line never ends (the file is truncated?)");
  BOOST_TEST(scan_error(dir.write("f.json", "{\"examples\": [\n{\"a\":1},\n")) ==
             dir.path("f.json") + ":3: the file ends inside the examples array (truncated?)");
  BOOST_TEST(scan_error(dir.write("f2.json", "[{\"a\":1},\n{\"a\":2}")) ==
             dir.path("f2.json") + ":2: the file ends inside the examples array (truncated?)");
  BOOST_TEST(scan_error(dir.write("g.json", "{\"examples\": [{\"a\":1}]")) ==
             dir.path("g.json") + ":1: expected ',' or '}' after the examples array, found the end of the file");
}

BOOST_AUTO_TEST_CASE(trailing_garbage_and_duplicate_examples_are_errors) {
  TempDir dir;
  BOOST_TEST(scan_error(dir.write("a.json", "[{}]\n\n]")) == dir.path("a.json") + ":3: unexpected ']' after the end of the root value");
  BOOST_TEST(scan_error(dir.write("b.json", "{\"examples\": [{}]}\nx")) ==
             dir.path("b.json") + ":2: unexpected 'x' after the end of the root value");
  BOOST_TEST(scan_error(dir.write("c.json", "{\"examples\": [{}],\n\"examples\": []}")) ==
             dir.path("c.json") + ":2: \"examples\" appears twice in the root object");
}

BOOST_AUTO_TEST_CASE(many_examples_stream_with_their_start_lines) {
  TempDir dir;
  std::string content = "{\"name\": \"big\", \"examples\": [\n";
  const int count = 20000;
  for (int i = 0; i < count; ++i)
    content += std::string(i ? ",\n" : "") + R"(  {"id": )" + std::to_string(i) + R"(, "input": "question )" +
               std::to_string(i) + R"(", "expectedOutput": "answer"})";
  content += "\n]}\n";
  const std::string path = dir.write("big.json", content);
  JsonArrayScanner scanner(BufferedFile(path, 4096));
  std::string element;
  uint64_t line = 0;
  int seen = 0;
  while (scanner.next_element(&element, line)) {
    BOOST_TEST_REQUIRE(line == static_cast<uint64_t>(seen + 2));
    ++seen;
  }
  scanner.finish();
  BOOST_TEST(seen == count);
  BOOST_TEST(element.find("\"id\": 19999,") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(escapes_and_brackets_inside_strings_at_every_chunk_boundary) {
  // Deterministic pseudo-random strings full of the bytes the scanner must not misread.
  const std::string alphabet[] = {"a", "\\\"", "\\\\", "\\n", "]", "}", "[", "{", ",", " ", "\\u00e9", "\xC3\xA9"};
  uint32_t state = 12345;
  const auto next_random = [&state] { return (state = state * 1103515245u + 12345u) >> 16; };
  std::vector<std::string> elements;
  std::string content = "{\"examples\": [";
  for (int i = 0; i < 300; ++i) {
    std::string text;
    const int pieces = static_cast<int>(next_random() % 40);
    for (int k = 0; k < pieces; ++k) text += alphabet[next_random() % std::size(alphabet)];
    elements.push_back(R"({"input": ")" + text + R"(", "n": [)" + std::to_string(i) + "]}");
    content += (i ? "," : "") + elements.back();
  }
  content += "]}";
  TempDir dir;
  const std::string path = dir.write("escapes.json", content);
  for (size_t chunk : {size_t{1}, size_t{2}, size_t{7}, size_t{64}, size_t{1} << 20}) {
    const Scan result = scan(path, chunk);
    BOOST_TEST_REQUIRE(result.elements.size() == elements.size());
    for (size_t i = 0; i < elements.size(); ++i) BOOST_TEST_REQUIRE(result.elements[i].second == elements[i]);
  }
}

BOOST_AUTO_TEST_SUITE_END()
