// Every golden file of the openai extractors (real recordings from tests/fixtures/shared-data; how
// each expected trace was checked by hand is written in its "checked") extracts to exactly its
// expected trace through the built krino-openai.so.
#include "trace_extractor_calls.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::test;

BOOST_AUTO_TEST_SUITE(openai_golden_files)

BOOST_AUTO_TEST_CASE(every_golden_file_extracts_to_its_expected_trace) {
  const LoadedModule module(plugin_module("openai"));
  const std::vector<GoldenCase> cases = golden_cases(KRINO_GOLDEN_DIR);
  BOOST_TEST_REQUIRE(cases.size() == 11u);
  for (const GoldenCase& golden : cases) {
    const std::string problem = check_golden(module, golden);
    BOOST_TEST(problem.empty(), problem);
  }
}

BOOST_AUTO_TEST_SUITE_END()
