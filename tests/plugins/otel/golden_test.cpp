// Every golden file of the otel extractor (the public OTLP example, the semconv examples and the
// hand-written OTLP GenAI fixtures; how each expected trace was checked by hand is written in its
// "checked") extracts to exactly its expected trace through krino-otel.so.
#include "trace_extractor_calls.hpp"

BOOST_AUTO_TEST_CASE(otel_golden_files_extract_to_their_expected_traces) {
  krino::test::check_golden_files("otel", 14);
}
