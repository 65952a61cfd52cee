#include "example_normalizer.hpp"
#include "files_test_support.hpp"
#include "json_record_parser.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::files;
using namespace krino::files::testing;

namespace {

boost::json::value normalized(const char* row) {
  parse_json_record(row);
  return boost::json::parse(normalize_example(row));
}

std::string error_for(const char* row) {
  return error_of([&] {
    parse_json_record(row);
    normalize_example(row);
  });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(example_normalizer)

BOOST_AUTO_TEST_CASE(simple_shape_renames_expected_output_to_output) {
  BOOST_TEST(normalized(R"({"input":"2+2?","expectedOutput":"4"})") ==
             json(R"({"inputs":{"input":"2+2?"},"expectedOutputs":{"output":"4"},"metadata":{}})"));
}

BOOST_AUTO_TEST_CASE(simple_shape_values_may_be_any_json) {
  BOOST_TEST(normalized(R"({"input":{"a":[1,2.5]},"expectedOutput":[true,null]})") ==
             json(R"({"inputs":{"input":{"a":[1,2.5]}},"expectedOutputs":{"output":[true,null]},"metadata":{}})"));
}

BOOST_AUTO_TEST_CASE(complex_shape_is_kept) {
  const char* row =
      R"({"id":"q1","inputs":{"query":"x","context":["a"]},"expectedOutputs":{"toolCalls":[]},"metadata":{"tools":[]}})";
  BOOST_TEST(normalized(row) == json(row));
}

BOOST_AUTO_TEST_CASE(missing_maps_are_written_empty) {
  BOOST_TEST(normalized(R"({"inputs":{"q":1}})") == json(R"({"inputs":{"q":1},"expectedOutputs":{},"metadata":{}})"));
  BOOST_TEST(normalized("{}") == json(R"({"inputs":{},"expectedOutputs":{},"metadata":{}})"));
}

BOOST_AUTO_TEST_CASE(recorded_outputs_and_trace_are_carried) {
  BOOST_TEST(normalized(R"({"input":"a","actualOutput":"b","trace":{"toolCalls":[]}})") ==
             json(R"({"inputs":{"input":"a"},"expectedOutputs":{},"metadata":{},"actualOutputs":{"output":"b"},
                      "trace":{"toolCalls":[]}})"));
  BOOST_TEST(normalized(R"({"actualOutputs":{"output":"b","toolCalls":[]}})") ==
             json(R"({"inputs":{},"expectedOutputs":{},"metadata":{},"actualOutputs":{"output":"b","toolCalls":[]}})"));
}

BOOST_AUTO_TEST_CASE(singular_and_plural_merge_and_the_map_wins_a_clash) {
  BOOST_TEST(normalized(R"({"input":"a","inputs":{"query":"q"}})") ==
             json(R"({"inputs":{"query":"q","input":"a"},"expectedOutputs":{},"metadata":{}})"));
  BOOST_TEST(normalized(R"({"input":"loses","inputs":{"input":"wins"},"expectedOutput":"loses",
                            "expectedOutputs":{"output":"wins"},"actualOutput":"loses","actualOutputs":{"output":"wins"}})") ==
             json(R"({"inputs":{"input":"wins"},"expectedOutputs":{"output":"wins"},"metadata":{},
                      "actualOutputs":{"output":"wins"}})"));
}

BOOST_AUTO_TEST_CASE(unknown_top_level_keys_go_to_metadata_without_overriding_it) {
  BOOST_TEST(normalized(R"({"input":"a","category":"geo","level":3,"metadata":{"level":1}})") ==
             json(R"({"inputs":{"input":"a"},"expectedOutputs":{},"metadata":{"level":1,"category":"geo"}})"));
  // A snake_case spelling is not an alias in JSON: it lands in metadata, visibly.
  BOOST_TEST(normalized(R"({"input":"a","expected_output":"b"})") ==
             json(R"({"inputs":{"input":"a"},"expectedOutputs":{},"metadata":{"expected_output":"b"}})"));
}

BOOST_AUTO_TEST_CASE(top_level_null_counts_as_absent) {
  BOOST_TEST(normalized(R"({"id":null,"input":null,"inputs":null,"expectedOutput":null,"metadata":null,
                            "actualOutput":null,"trace":null})") ==
             json(R"({"inputs":{},"expectedOutputs":{},"metadata":{}})"));
}

BOOST_AUTO_TEST_CASE(ids_are_strings_and_integers_become_strings) {
  BOOST_TEST(normalized(R"({"id":"a-1"})").at("id") == "a-1");
  BOOST_TEST(normalized(R"({"id":42})").at("id") == "42");
  BOOST_TEST(normalized(R"({"id":-7})").at("id") == "-7");
  BOOST_TEST(normalized(R"({"id":18446744073709551615})").at("id") == "18446744073709551615");
  BOOST_TEST(!normalized(R"({"id":""})").as_object().contains("id"));
}

BOOST_AUTO_TEST_CASE(bad_ids_and_maps_are_bad_rows_naming_the_key) {
  BOOST_TEST(error_for(R"({"id":1.5})") == "'id' must be a string or an integer, not a floating-point number");
  BOOST_TEST(error_for(R"({"id":[1]})") == "'id' must be a string or an integer, not an array");
  BOOST_TEST(error_for(R"({"id":true})") == "'id' must be a string or an integer, not a boolean");
  BOOST_TEST(error_for(R"({"inputs":"x"})") == "'inputs' must be an object, not a string");
  BOOST_TEST(error_for(R"({"expectedOutputs":[1]})") == "'expectedOutputs' must be an object, not an array");
  BOOST_TEST(error_for(R"({"metadata":1})") == "'metadata' must be an object, not an integer");
  BOOST_TEST(error_for(R"({"actualOutputs":true})") == "'actualOutputs' must be an object, not a boolean");
}

BOOST_AUTO_TEST_CASE(values_are_copied_as_written) {
  // Numbers no parse-and-write could keep: beyond 64 bits, more digits than a double holds, -0.
  const char* row = R"({"id":123456789012345678901234567890,"input":{"n":[123456789012345678901234567890, 0.1000000000000000055511, -0, 1E+2]},
                        "expectedOutput":3e+34,"extra":-937738.1598100325})";
  parse_json_record(row);
  BOOST_TEST(normalize_example(row) ==
             R"({"id":"123456789012345678901234567890","inputs":{"input":{"n":[123456789012345678901234567890, 0.1000000000000000055511, -0, 1E+2]}},)"
             R"("expectedOutputs":{"output":3e+34},"metadata":{"extra":-937738.1598100325}})");
}

BOOST_AUTO_TEST_CASE(a_key_twice_in_a_row_is_an_error_naming_it) {
  BOOST_TEST(error_of([] { parse_json_record(R"({"input":"a","input":"b"})"); }) ==
             "duplicate object key \"input\" at column 20");
  BOOST_TEST(error_of([] { parse_json_record(R"({"inputs":{"q":{"x":1,"x":1}}})"); }) ==
             "duplicate object key \"x\" at column 25");
}

BOOST_AUTO_TEST_SUITE_END()
