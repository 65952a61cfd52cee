// Every golden file of the openai extractors (real recordings from tests/fixtures/shared-data, and tau-bench; how each expected trace was checked by
// hand is written in its "checked") extracts to exactly its expected trace through krino-openai.so.
#include "trace_extractor_calls.hpp"

BOOST_AUTO_TEST_CASE(openai_golden_files_extract_to_their_expected_traces) {
  krino::test::check_golden_files("openai", 11);
}
