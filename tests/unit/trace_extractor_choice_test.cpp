// Choosing a trace extractor: by name, or by detection over every loaded extractor, with the real
// extractor plugins (each golden file's input must be detected as its own format) and test
// extractors that tie.
#include "test_paths.hpp"
#include "trace_extractor_calls.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/cancellation.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/trace/extractor_choice.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>

using namespace krino::core;

namespace {

struct Extractors {
  Cancellation cancellation;
  HostServices host{cancellation};
  PluginRegistry registry;

  explicit Extractors(bool with_test_extractors = false) {
    for (const char* plugin : {"openai", "anthropic", "otel", "langsmith", "langchain4j"})
      BOOST_TEST_REQUIRE(registry.load_file(krino::test::plugin_module(plugin), *host.host_info()));
    if (with_test_extractors)
      BOOST_TEST_REQUIRE(registry.load_file(std::string(KRINO_TRACE_TESTKIT_DIR) + "/krino-trace-testkit.so", *host.host_info()));
  }
};

std::string chosen_name(const ExtractorChoice& choice, const std::string& raw) {
  auto chosen = choice.choose(raw);
  if (auto* failure = std::get_if<ExtractionFailure>(&chosen)) return "failure: " + failure->message;
  return std::get<const TraceExtractor*>(chosen)->name();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(trace_extractor_choice)

BOOST_AUTO_TEST_CASE(every_golden_input_is_detected_as_its_own_format) {
  const Extractors extractors;
  const ExtractorChoice choice(extractors.registry, "auto");
  BOOST_TEST(choice.automatic());
  std::size_t checked = 0;
  for (const char* family : {"openai", "anthropic", "otel", "langsmith", "langchain4j"}) {
    const std::filesystem::path dir = std::filesystem::path(KRINO_SOURCE_DIR) / "tests" / "plugins" / family / "golden";
    for (const krino::test::GoldenCase& golden : krino::test::golden_cases(dir)) {
      BOOST_TEST(chosen_name(choice, golden.input) == golden.extractor, golden.file);
      ++checked;
    }
  }
  BOOST_TEST(checked == 40u);
}

BOOST_AUTO_TEST_CASE(files_that_are_not_traces_find_no_taker_and_the_error_names_the_candidates) {
  const Extractors extractors;
  const ExtractorChoice choice(extractors.registry, "auto");
  const std::filesystem::path semconv = std::filesystem::path(KRINO_SHARED_DATA_DIR) / "traces" / "otel_genai_semconv";
  for (const char* file : {"schema_gen-ai-input-messages.json", "schema_gen-ai-tool-definitions.json", "model_gen-ai_registry.yaml",
                           "examples-llm-calls_json_blocks.json"}) {
    const std::string raw = krino::test::read_text(semconv / file);
    BOOST_TEST(chosen_name(choice, raw) ==
                   "failure: no trace extractor recognises this output (tried anthropic, langchain4j, langsmith, openai_chat, "
                   "openai_responses, otel); name one with extractor: NAME",
               file);
    for (const DetectionScore& score : choice.scores(raw)) BOOST_TEST(score.confidence == 0, file);
  }
}

BOOST_AUTO_TEST_CASE(a_tie_at_the_top_is_an_error_naming_the_tied_extractors) {
  const Extractors extractors(true);
  const ExtractorChoice choice(extractors.registry, "auto");
  BOOST_TEST(chosen_name(choice, R"({"tie": true})") ==
             "failure: the output is ambiguous: tie_a, tie_b all claim it with confidence 40; name one with extractor: NAME");
  // A higher claim elsewhere settles it; naming one settles it too.
  BOOST_TEST(chosen_name(ExtractorChoice(extractors.registry, "tie_b"), R"({"tie": true})") == "tie_b");
  BOOST_TEST(chosen_name(ExtractorChoice(extractors.registry, "test.tie_a"), R"({"tie": true})") == "tie_a");
}

BOOST_AUTO_TEST_CASE(an_unknown_name_is_a_configuration_error_listing_the_extractors) {
  const Extractors extractors;
  try {
    ExtractorChoice choice(extractors.registry, "openai");
    BOOST_FAIL("expected a configuration error");
  } catch (const KrinoError& e) {
    BOOST_TEST((e.kind() == ErrorKind::configuration));
    BOOST_TEST(std::string(e.what()) ==
               "no trace extractor named 'openai' (known: anthropic, langchain4j, langsmith, openai_chat, "
               "openai_responses, otel, or auto)");
  }
  Cancellation cancellation;
  HostServices host(cancellation);
  PluginRegistry empty;
  BOOST_CHECK_THROW(ExtractorChoice(empty, "auto"), KrinoError);
}

BOOST_AUTO_TEST_SUITE_END()
