#include "files_test_support.hpp"
#include "json_resolver.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::files;
using namespace krino::files::testing;
using krino::DatasetInfo;

BOOST_AUTO_TEST_SUITE(json_resolver)

BOOST_AUTO_TEST_CASE(reads_both_shapes_with_name_and_description) {
  TempDir dir;
  const std::string path = dir.write("geo.json", R"({
  "name": "capitals",
  "description": "Capital cities",
  "examples": [
    {"input": "France?", "expectedOutput": "Paris"},
    {"id": "pe", "inputs": {"input": "Peru?"}, "expectedOutputs": {"output": "Lima"}, "metadata": {"hard": true}}
  ]
})");
  const Drained d = drain<JsonResolver>(path);
  BOOST_TEST(d.info.name == "capitals");
  BOOST_TEST(d.info.description == "Capital cities");
  BOOST_TEST(*d.info.size_hint == 2u);
  BOOST_TEST_REQUIRE(d.items.size() == 2u);
  BOOST_TEST(d.items[0].location == path + ":5");
  BOOST_TEST(boost::json::value(d.items[0].example) ==
             json(R"({"inputs":{"input":"France?"},"expectedOutputs":{"output":"Paris"},"metadata":{}})"));
  BOOST_TEST(d.items[1].location == path + ":6");
  BOOST_TEST(boost::json::value(d.items[1].example) ==
             json(R"({"id":"pe","inputs":{"input":"Peru?"},"expectedOutputs":{"output":"Lima"},"metadata":{"hard":true}})"));
}

BOOST_AUTO_TEST_CASE(defaults_come_from_the_file_name_and_options_override_the_file) {
  TempDir dir;
  const std::string array = dir.write("plain.json", R"([{"input": 1}])");
  const Drained a = drain<JsonResolver>(array);
  BOOST_TEST(a.info.name == "plain");
  BOOST_TEST(a.info.description == "");
  const std::string named = dir.write("named.json", R"({"name": "from-file", "examples": [{"input": 1}]})");
  BOOST_TEST(drain<JsonResolver>(named).info.name == "from-file");
  BOOST_TEST(drain<JsonResolver>(named, R"({"name":"from-options"})").info.name == "from-options");
}

BOOST_AUTO_TEST_CASE(name_after_the_examples_is_honoured) {
  TempDir dir;
  const std::string path = dir.write("late.json", R"({"examples": [{"input": 1}], "description": "d", "name": "late"})");
  const Drained d = drain<JsonResolver>(path);
  BOOST_TEST(d.info.name == "late");
  BOOST_TEST(d.info.description == "d");
}

BOOST_AUTO_TEST_CASE(malformed_examples_are_item_errors_with_their_lines) {
  TempDir dir;
  const std::string path = dir.write("a.json",
                                     "[\n"
                                     "  {\"input\": 1},\n"
                                     "  {\"input\": tru},\n"
                                     "  \"just a string\",\n"
                                     "  {\n"
                                     "    \"id\": {\"x\": 1}\n"
                                     "  },\n"
                                     "  {\"input\": 5}\n"
                                     "]\n");
  const Drained d = drain<JsonResolver>(path);
  BOOST_TEST_REQUIRE(d.items.size() == 5u);
  BOOST_TEST(d.items[0].ok);
  BOOST_TEST(d.items[1].location == path + ":3");
  BOOST_TEST(d.items[1].error.rfind("invalid JSON at column ", 0) == 0);
  BOOST_TEST(d.items[2].location == path + ":4");
  BOOST_TEST(d.items[2].error == "an example must be a JSON object, not a string");
  BOOST_TEST(d.items[3].location == path + ":5");
  BOOST_TEST(d.items[3].error == "'id' must be a string or an integer, not an object");
  BOOST_TEST(d.items[4].ok);
  BOOST_TEST(d.items[4].location == path + ":8");
}

BOOST_AUTO_TEST_CASE(structure_errors_fail_at_open_with_the_line) {
  TempDir dir;
  DatasetInfo info;
  const std::string truncated = dir.write("t.json", "{\"examples\": [\n{\"input\": 1},\n{\"input\": 2");
  BOOST_TEST(error_of([&] { JsonResolver r(nullptr, truncated, krino::Config(), info); }) ==
             truncated + ":3: a value starting on this line never ends (the file is truncated?)");
  const std::string garbage = dir.write("g.json", "[{\"input\": 1}]\n\n{}");
  BOOST_TEST(error_of([&] { JsonResolver r(nullptr, garbage, krino::Config(), info); }) ==
             garbage + ":3: unexpected '{' after the end of the root value");
  const std::string no_examples = dir.write("n.json", R"({"name": "x", "items": []})");
  BOOST_TEST(error_of([&] { JsonResolver r(nullptr, no_examples, krino::Config(), info); }) ==
             "'" + no_examples + "' has no \"examples\" array");
  const std::string empty_array = dir.write("e.json", R"({"name": "x", "examples": []})");
  BOOST_TEST(error_of([&] { JsonResolver r(nullptr, empty_array, krino::Config(), info); }) ==
             "'" + empty_array + "' holds no examples");
  const std::string missing = dir.path("missing.json");
  BOOST_TEST(error_of([&] { JsonResolver r(nullptr, "file:" + missing, krino::Config(), info); }) ==
             "cannot open '" + missing + "': No such file or directory");
}

BOOST_AUTO_TEST_CASE(many_examples_stream_in_order) {
  TempDir dir;
  std::string content = "{\"name\": \"many\", \"examples\": [";
  const int count = 50000;
  for (int i = 0; i < count; ++i) {
    content += (i ? ",\n" : "\n");
    content += R"({"id": )" + std::to_string(i) + R"(, "input": "q)" + std::to_string(i) + R"(", "expectedOutput": )" +
               std::to_string(i * 2) + "}";
  }
  content += "\n]}";
  const std::string path = dir.write("many.json", content);
  const Drained d = drain<JsonResolver>(path);
  BOOST_TEST(*d.info.size_hint == static_cast<uint64_t>(count));
  BOOST_TEST_REQUIRE(d.items.size() == static_cast<size_t>(count));
  for (int i = 0; i < count; i += 997) {
    const Item& item = d.items[static_cast<size_t>(i)];
    BOOST_TEST_REQUIRE(item.ok);
    BOOST_TEST(item.location == path + ":" + std::to_string(i + 2));
    BOOST_TEST(item.example.at("id").as_string() == std::to_string(i));
    BOOST_TEST(item.example.at("expectedOutputs").at("output") == i * 2);
  }
}

BOOST_AUTO_TEST_SUITE_END()
