#include "files_test_support.hpp"
#include "jsonl_resolver.hpp"

#include <boost/test/unit_test.hpp>

#include <thread>
#include <vector>

using namespace krino::files;
using namespace krino::files::testing;
using krino::DatasetInfo;

BOOST_AUTO_TEST_SUITE(jsonl_resolver)

BOOST_AUTO_TEST_CASE(reads_both_shapes_with_locations_and_a_size_hint) {
  TempDir dir;
  const std::string path = dir.write("capitals.jsonl",
                                     "\xEF\xBB\xBF{\"id\":1,\"input\":\"France?\",\"expectedOutput\":\"Paris\"}\n"
                                     "\n"
                                     "{\"id\":\"b\",\"inputs\":{\"input\":\"Peru?\"},\"expectedOutputs\":{\"output\":\"Lima\"},"
                                     "\"metadata\":{\"continent\":\"SA\"}}\r\n");
  const Drained d = drain<JsonlResolver>(path);
  BOOST_TEST(d.info.name == "capitals");
  BOOST_TEST(d.info.description == "");
  BOOST_TEST_REQUIRE(d.info.size_hint.has_value());
  BOOST_TEST(*d.info.size_hint == 2u);
  BOOST_TEST_REQUIRE(d.items.size() == 2u);
  BOOST_TEST(d.items[0].location == path + ":1");
  BOOST_TEST(boost::json::value(d.items[0].example) ==
             json(R"({"id":"1","inputs":{"input":"France?"},"expectedOutputs":{"output":"Paris"},"metadata":{}})"));
  BOOST_TEST(d.items[1].location == path + ":3");
  BOOST_TEST(d.items[1].example.at("metadata").at("continent") == "SA");
}

BOOST_AUTO_TEST_CASE(a_malformed_line_in_the_middle_is_an_item_error_and_the_stream_goes_on) {
  TempDir dir;
  const std::string path = dir.write("a.jsonl",
                                     "{\"input\":\"1\"}\n"
                                     "{\"input\":\"2\",}\n"
                                     "[1,2]\n"
                                     "\n"
                                     "{\"input\":\"4\",\"id\":2.5}\n"
                                     "{\"inputs\":\"5\"}\n"
                                     "{\"input\":\"6\"}\n");
  const Drained d = drain<JsonlResolver>(path);
  BOOST_TEST(*d.info.size_hint == 6u);
  BOOST_TEST_REQUIRE(d.items.size() == 6u);
  BOOST_TEST(d.items[0].ok);
  BOOST_TEST(!d.items[1].ok);
  BOOST_TEST(d.items[1].location == path + ":2");
  BOOST_TEST(d.items[1].error.rfind("invalid JSON at column 14: ", 0) == 0);
  BOOST_TEST(d.items[2].location == path + ":3");
  BOOST_TEST(d.items[2].error == "an example must be a JSON object, not an array");
  BOOST_TEST(d.items[3].location == path + ":5");
  BOOST_TEST(d.items[3].error == "'id' must be a string or an integer, not a floating-point number");
  BOOST_TEST(d.items[4].location == path + ":6");
  BOOST_TEST(d.items[4].error == "'inputs' must be an object, not a string");
  BOOST_TEST(d.items[5].ok);
  BOOST_TEST(d.items[5].location == path + ":7");
  BOOST_TEST(d.items[5].example.at("inputs").at("input") == "6");
}

BOOST_AUTO_TEST_CASE(file_uris_and_name_options) {
  TempDir dir;
  const std::string path = dir.write("qa.ndjson", "{\"input\":\"x\"}\n");
  const Drained d = drain<JsonlResolver>("file://" + path, R"({"name":"renamed","description":"about"})");
  BOOST_TEST(d.info.name == "renamed");
  BOOST_TEST(d.info.description == "about");
  BOOST_TEST_REQUIRE(d.items.size() == 1u);
  BOOST_TEST(d.items[0].location == path + ":1");  // the path, not the URI
  BOOST_TEST(drain<JsonlResolver>("file:" + path).info.name == "qa");
}

BOOST_AUTO_TEST_CASE(open_errors) {
  TempDir dir;
  const std::string missing = dir.path("missing.jsonl");
  DatasetInfo info;
  BOOST_TEST(error_of([&] { JsonlResolver r(nullptr, missing, krino::Config(), info); }) ==
             "cannot open '" + missing + "': No such file or directory");
  BOOST_TEST(status_of([&] { JsonlResolver r(nullptr, "file:" + missing, krino::Config(), info); }) == KRINO_NOT_FOUND);

  const std::string blank = dir.write("blank.jsonl", "\n  \n");
  BOOST_TEST(error_of([&] { JsonlResolver r(nullptr, blank, krino::Config(), info); }) ==
             "'" + blank + "' holds no examples");

  const std::string ok = dir.write("ok.jsonl", "{}\n");
  BOOST_TEST(error_of([&] { drain<JsonlResolver>(ok, R"({"delimiter":";"})"); }) == "unknown dataset option 'delimiter'");
}

BOOST_AUTO_TEST_CASE(decode_is_safe_to_call_from_many_threads) {
  TempDir dir;
  std::string content;
  for (int i = 0; i < 2000; ++i) content += R"({"id":)" + std::to_string(i) + R"(,"input":"q","extra":[1,2,3]})" "\n";
  const std::string path = dir.write("a.jsonl", content);
  DatasetInfo info;
  JsonlResolver resolver(nullptr, path, krino::Config(), info);
  std::vector<std::string> records;
  std::string record, location, error;
  while (resolver.next(record, location, error) == krino::Next::record) records.push_back(record);
  std::vector<std::string> ids(records.size());
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t) {
    workers.emplace_back([&, t] {
      for (size_t i = static_cast<size_t>(t); i < records.size(); i += 4)
        ids[i] = std::string(boost::json::parse(resolver.decode(records[i])).at("id").as_string());
    });
  }
  for (auto& w : workers) w.join();
  for (size_t i = 0; i < ids.size(); ++i) BOOST_TEST_REQUIRE(ids[i] == std::to_string(i));
}

BOOST_AUTO_TEST_SUITE_END()
