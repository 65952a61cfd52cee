// Rows already in canonical shape are recognised without building them, and nothing else is.
#include "canonical_record.hpp"

#include <boost/test/unit_test.hpp>

using krino::files::is_canonical_record;

BOOST_AUTO_TEST_SUITE(canonical_record)

BOOST_AUTO_TEST_CASE(canonical_rows_are_recognised) {
  BOOST_TEST(is_canonical_record(R"({"inputs":{},"expectedOutputs":{},"metadata":{}})"));
  BOOST_TEST(is_canonical_record(
      R"({"id":"a","inputs":{"input":[1,{"x":null}]},"expectedOutputs":{"output":"y"},"metadata":{"k":{"inputs":3}},)"
      R"("actualOutputs":{"output":1.5},"trace":[1,2]})"));
  BOOST_TEST(is_canonical_record(R"(  {"metadata":{},"inp\u0075ts":{},"expectedOutputs":{}}  )"));  // escaped key
  BOOST_TEST(is_canonical_record(R"({"inputs":{},"expectedOutputs":{},"metadata":{},"trace":"text"})"));
}

BOOST_AUTO_TEST_CASE(everything_else_takes_the_normalising_path) {
  BOOST_TEST(!is_canonical_record(R"({"input":"q","expectedOutput":"a"})"));                       // simple shape
  BOOST_TEST(!is_canonical_record(R"({"inputs":{},"expectedOutputs":{}})"));                       // a map missing
  BOOST_TEST(!is_canonical_record(R"({"inputs":{},"expectedOutputs":{},"metadata":{},"x":1})"));    // extra key
  BOOST_TEST(!is_canonical_record(R"({"inputs":{},"inputs":{},"expectedOutputs":{},"metadata":{}})"));  // duplicate
  BOOST_TEST(!is_canonical_record(R"({"id":"","inputs":{},"expectedOutputs":{},"metadata":{}})"));  // empty id
  BOOST_TEST(!is_canonical_record(R"({"id":7,"inputs":{},"expectedOutputs":{},"metadata":{}})"));   // integer id
  BOOST_TEST(!is_canonical_record(R"({"inputs":[],"expectedOutputs":{},"metadata":{}})"));          // wrong type
  BOOST_TEST(!is_canonical_record(R"({"inputs":{},"expectedOutputs":{},"metadata":{},"trace":null})"));
  BOOST_TEST(!is_canonical_record(R"({"inputs":{},"expectedOutputs":{},"metadata":{})"));           // truncated
  BOOST_TEST(!is_canonical_record(R"({"inputs":{},"expectedOutputs":{},"metadata":{}} x)"));        // trailing
  BOOST_TEST(!is_canonical_record(R"([{"inputs":{}}])"));
  BOOST_TEST(!is_canonical_record(""));
}

// The check reads keys, not syntax: a canonical-looking record with a syntax error inside a
// section passes through, and the host's own validation reports it (see the runner tests).
BOOST_AUTO_TEST_CASE(syntax_inside_sections_is_left_to_the_host) {
  BOOST_TEST(is_canonical_record(R"({"inputs":{"a":tru},"expectedOutputs":{},"metadata":{}})"));
}

BOOST_AUTO_TEST_SUITE_END()
