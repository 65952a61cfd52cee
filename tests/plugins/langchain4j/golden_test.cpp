// Every golden file of the langchain4j extractors (LangChain4j's own serializer test JSON and a hand-written result; how each expected trace was checked by
// hand is written in its "checked") extracts to exactly its expected trace through krino-langchain4j.so.
#include "trace_extractor_calls.hpp"

BOOST_AUTO_TEST_CASE(langchain4j_golden_files_extract_to_their_expected_traces) {
  krino::test::check_golden_files("langchain4j", 5);
}
