// The built krino-judge.so loads as the host loads it and registers its evaluators.
#include "judge_test_support.hpp"
#include "loaded_module.hpp"
#include "test_paths.hpp"

#include <string>

namespace {

BOOST_AUTO_TEST_SUITE(judge_plugin_abi)

BOOST_AUTO_TEST_CASE(every_evaluator_is_registered_thread_safe_and_needing_a_judge) {
  krino::test::LoadedModule module(std::string(KRINO_PLUGIN_BUILD_DIR) + "/krino-judge.so");
  for (const char* name : {"llm_judge", "faithfulness", "hallucination", "contextual_relevance", "task_completion",
                           "tool_argument_hallucination", "trajectory_judge"}) {
    BOOST_TEST_CONTEXT(name) {
      const krino_component* component = module.component(name);
      BOOST_TEST_REQUIRE(component != nullptr);
      BOOST_TEST(component->kind == KRINO_KIND_EVALUATOR);
      BOOST_TEST(component->capabilities == (KRINO_CAP_THREAD_SAFE | KRINO_CAP_NEEDS_JUDGE));
      BOOST_TEST(boost::json::parse(component->config_schema).is_object());
    }
  }
}

BOOST_AUTO_TEST_CASE(without_a_judge_service_the_item_fails_with_a_reason) {
  krino::test::LoadedModule module(std::string(KRINO_PLUGIN_BUILD_DIR) + "/krino-judge.so");
  const auto outcome = module.evaluate(
      "llm_judge", R"({"criteria":"c"})",
      R"({"inputs":{"input":"q"},"actualOutputs":{"output":"a"},"expectedOutputs":{},"metadata":{}})");
  BOOST_TEST(outcome.status == KRINO_UNAVAILABLE);
  BOOST_TEST(!outcome.error.empty());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
