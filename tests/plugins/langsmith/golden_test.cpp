// Every golden file of the langsmith extractors (real LangSmith ingestion payloads and hand-written run trees; how each expected trace was checked by
// hand is written in its "checked") extracts to exactly its expected trace through krino-langsmith.so.
#include "trace_extractor_calls.hpp"

BOOST_AUTO_TEST_CASE(langsmith_golden_files_extract_to_their_expected_traces) {
  krino::test::check_golden_files("langsmith", 5);
}
