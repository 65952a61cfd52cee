#include "file_uri.hpp"
#include "files_test_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::files;
using krino::files::testing::error_of;

BOOST_AUTO_TEST_SUITE(file_uri)

BOOST_AUTO_TEST_CASE(plain_paths_are_taken_as_written) {
  BOOST_TEST(path_from_file_uri("data/qa.jsonl") == "data/qa.jsonl");
  BOOST_TEST(path_from_file_uri("/srv/qa.jsonl") == "/srv/qa.jsonl");
  BOOST_TEST(path_from_file_uri("data/100%.csv") == "data/100%.csv");
}

BOOST_AUTO_TEST_CASE(file_prefix_forms) {
  BOOST_TEST(path_from_file_uri("file:data/qa.jsonl") == "data/qa.jsonl");
  BOOST_TEST(path_from_file_uri("file:/srv/qa.jsonl") == "/srv/qa.jsonl");
  BOOST_TEST(path_from_file_uri("file:///srv/qa.jsonl") == "/srv/qa.jsonl");
  BOOST_TEST(path_from_file_uri("file://localhost/srv/qa.jsonl") == "/srv/qa.jsonl");
  BOOST_TEST(path_from_file_uri("FILE:///srv/qa.jsonl") == "/srv/qa.jsonl");
}

BOOST_AUTO_TEST_CASE(a_host_in_a_file_uri_is_refused_with_a_hint) {
  const std::string message = error_of([] { path_from_file_uri("file://data/qa.jsonl"); });
  BOOST_TEST(message.find("host 'data'") != std::string::npos);
  BOOST_TEST(message.find("file:data/qa.jsonl") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_empty_path_is_refused) {
  BOOST_TEST(!error_of([] { path_from_file_uri("file:"); }).empty());
  BOOST_TEST(!error_of([] { path_from_file_uri(""); }).empty());
}

BOOST_AUTO_TEST_CASE(stem_drops_the_last_extension_only) {
  BOOST_TEST(file_stem("data/qa.jsonl") == "qa");
  BOOST_TEST(file_stem("/x/qa.v2.csv") == "qa.v2");
  BOOST_TEST(file_stem("noext") == "noext");
}

BOOST_AUTO_TEST_SUITE_END()
