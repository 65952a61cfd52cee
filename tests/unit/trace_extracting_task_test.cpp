// Replaying recorded traces through an extractor (task.extractor): what becomes the actual outputs
// and metrics, and every way it can fail as an item error instead of a crash.
#include "test_paths.hpp"
#include "trace_extractor_calls.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/io_service.hpp"
#include "krino/core/common/cancellation.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/usage/price_table.hpp"
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/task/task_factory.hpp"
#include "krino/core/trace/canonical_trace.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::core;
namespace json = boost::json;

namespace {

struct Host {
  Cancellation cancellation;
  HostServices host{cancellation};
  PluginRegistry registry;
  IoService io;
  PriceTable prices = PriceTable::from_json(json::parse(R"({"gpt-4o": {"input_per_million": 2.5, "output_per_million": 10},
    "gpt-4o-mini": {"input_per_million": 0.15, "output_per_million": 0.6}})").as_object());

  Host() {
    BOOST_TEST_REQUIRE(registry.load_file(krino::test::plugin_module("openai"), *host.host_info()));
    BOOST_TEST_REQUIRE(registry.load_file(std::string(KRINO_TRACE_TESTKIT_DIR) + "/krino-trace-testkit.so", *host.host_info()));
  }

  std::unique_ptr<Task> task(const std::string& task_json) const {
    const json::object spec = json::parse(task_json).as_object();
    TaskConfig config;
    config.kind = std::string(spec.at("kind").as_string());
    for (const auto& [key, value] : spec)
      if (key != "kind") config.options[key] = value;
    return make_task(config, TaskEnvironment{host, registry, const_cast<IoService&>(io), prices});
  }
};

TaskResult run(const Task& task, const std::string& example) {
  const auto view = ExampleView::from_text(example);
  BOOST_TEST_REQUIRE(view.has_value());
  krino_call_context ctx{};
  ctx.struct_size = sizeof(ctx);
  return task.run(*view, ctx);
}

ItemError error_of(const TaskResult& ran) {
  BOOST_TEST_REQUIRE(std::holds_alternative<ItemError>(ran));
  return std::get<ItemError>(ran);
}

TaskOutput output_of(const TaskResult& ran) {
  if (const auto* e = std::get_if<ItemError>(&ran)) BOOST_FAIL(e->stage + ": " + e->message);
  return std::get<TaskOutput>(ran);
}

const char* const kTauLikeExample = R"({"id": "t-1", "inputs": {}, "expectedOutputs": {}, "metadata": {},
  "actualOutputs": {"context": ["kept"]},
  "trace": [{"role": "user", "content": "refund order 7"},
            {"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function", "function": {"name": "refund", "arguments": "{\"order\": 7}"}}]},
            {"role": "tool", "tool_call_id": "c", "content": "Error: order 7 is not refundable"},
            {"role": "assistant", "content": "Sorry, it cannot be refunded."}],
  "metrics": {"latencyMs": 12.5}})";

}  // namespace

BOOST_AUTO_TEST_SUITE(trace_extracting_task)

BOOST_AUTO_TEST_CASE(a_replayed_trace_becomes_the_actual_outputs_beside_the_recorded_ones) {
  const Host host;
  const auto task = host.task(R"({"kind": "replay", "extractor": "openai_chat"})");
  BOOST_TEST(std::string(task->kind()) == "replay");
  BOOST_TEST(!task->calls_out());
  const TaskOutput out = output_of(run(*task, kTauLikeExample));
  const json::object outputs = json::parse(out.actual_outputs).as_object();
  BOOST_TEST(outputs.at("context") == json::parse(R"(["kept"])"));
  BOOST_TEST(outputs.at("output") == "Sorry, it cannot be refunded.");
  BOOST_TEST(outputs.at("toolCalls") == json::parse(R"([{"id": "c", "name": "refund", "arguments": {"order": 7},
    "result": "Error: order 7 is not refundable"}])"));
  BOOST_TEST(outputs.at("reasoningSteps").as_array().empty());
  BOOST_TEST(outputs.at("turns").as_array().size() == 4u);
  // No usage in the trace; the example's recorded latency stays.
  BOOST_TEST_REQUIRE(out.metrics.has_value());
  BOOST_TEST(!out.metrics->tokens_in.has_value());
  BOOST_TEST(*out.metrics->latency_ms == 12.5);
}

BOOST_AUTO_TEST_CASE(auto_detection_and_a_trace_stored_as_text) {
  const Host host;
  const auto task = host.task(R"({"kind": "replay", "extractor": "auto"})");
  const std::string example = R"({"inputs": {}, "expectedOutputs": {}, "metadata": {}, "trace":
    "{\"object\": \"chat.completion\", \"model\": \"gpt-4o-2024-08-06\", \"choices\": [{\"index\": 0, \"message\": {\"role\": \"assistant\", \"content\": \"hi\"}}], \"usage\": {\"prompt_tokens\": 1000, \"completion_tokens\": 100}}"})";
  const TaskOutput out = output_of(run(*task, example));
  BOOST_TEST(json::parse(out.actual_outputs).at("output") == "hi");
  BOOST_TEST(*out.metrics->tokens_in == 1000);
  BOOST_TEST(*out.metrics->tokens_out == 100);
  // gpt-4o-2024-08-06 has no price; the reply names no requested model, so the trace has no cost.
  BOOST_TEST(!out.metrics->cost_usd.has_value());
}

BOOST_AUTO_TEST_CASE(failures_are_item_errors_that_name_the_stage_and_the_extractor) {
  const Host host;
  const auto named = host.task(R"({"kind": "replay", "extractor": "openai_chat"})");
  const ItemError missing = error_of(run(*named, R"({"inputs": {}, "expectedOutputs": {}, "metadata": {}, "actualOutputs": {}})"));
  BOOST_TEST(missing.stage == "task");
  BOOST_TEST(missing.code == KRINO_FAILED_PRECONDITION);
  BOOST_TEST(missing.message.find("no recorded trace") != std::string::npos);

  const ItemError unreadable = error_of(run(*named, R"({"inputs": {}, "expectedOutputs": {}, "metadata": {}, "trace": {"spans": 1}})"));
  BOOST_TEST(unreadable.stage == "trace");
  BOOST_TEST(unreadable.component == "openai_chat");
  BOOST_TEST(unreadable.code == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(unreadable.message.find("not an OpenAI Chat Completions trace") == 0u, unreadable.message);

  const auto automatic = host.task(R"({"kind": "replay", "extractor": "auto"})");
  const ItemError nobody = error_of(run(*automatic, R"({"inputs": {}, "expectedOutputs": {}, "metadata": {}, "trace": 42})"));
  BOOST_TEST(nobody.stage == "trace");
  BOOST_TEST(nobody.component == "auto");
  const ItemError tie = error_of(run(*automatic, R"({"inputs": {}, "expectedOutputs": {}, "metadata": {}, "trace": {"tie": true}})"));
  BOOST_TEST(tie.message.find("ambiguous: tie_a, tie_b") != std::string::npos, tie.message);

  const ItemError broken = error_of(run(*host.task(R"({"kind": "replay", "extractor": "malformed"})"),
                                         R"({"inputs": {}, "expectedOutputs": {}, "metadata": {}, "trace": {}})"));
  BOOST_TEST(broken.stage == "trace");
  BOOST_TEST(broken.component == "malformed");
  BOOST_TEST(broken.code == KRINO_INTERNAL);
  BOOST_TEST(broken.message == "the extractor wrote a malformed trace: the trace has no toolCalls list");

  const ItemError thrown = error_of(run(*host.task(R"({"kind": "replay", "extractor": "thrower"})"),
                                         R"({"inputs": {}, "expectedOutputs": {}, "metadata": {}, "trace": {}})"));
  BOOST_TEST(thrown.code == KRINO_INTERNAL);
  BOOST_TEST(thrown.message == "the extractor broke");
}

BOOST_AUTO_TEST_CASE(the_extractor_option_is_checked_when_the_task_is_made) {
  const Host host;
  BOOST_CHECK_THROW(host.task(R"({"kind": "replay", "extractor": 5})"), KrinoError);
  BOOST_CHECK_THROW(host.task(R"({"kind": "replay", "extractor": ""})"), KrinoError);
  BOOST_CHECK_THROW(host.task(R"({"kind": "replay", "extractor": "no_such_extractor"})"), KrinoError);
  BOOST_CHECK_THROW(host.task(R"({"kind": "replay", "extractor": "openai_chat", "typo": 1})"), KrinoError);
  // Without an extractor, replay reads actualOutputs as before and ignores the trace.
  const auto plain = host.task(R"({"kind": "replay", "extractor": null})");
  const TaskOutput out = output_of(run(*plain, kTauLikeExample));
  BOOST_TEST(json::parse(out.actual_outputs) == json::parse(R"({"context": ["kept"]})"));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(canonical_trace)

BOOST_AUTO_TEST_CASE(cost_is_the_traces_own_else_each_model_call_priced_else_the_whole_trace) {
  const PriceTable prices = PriceTable::from_json(json::parse(R"({"gpt-4o": {"input_per_million": 2.5, "output_per_million": 10},
    "claude-x": {"input_per_million": 3, "output_per_million": 15}})").as_object());
  // The trace says what it cost: that wins.
  BOOST_TEST(*CanonicalTrace(R"({"toolCalls": [], "model": "gpt-4o", "metrics": {"tokensIn": 1000, "tokensOut": 1000, "costUsd": 0.5}})")
                  .metrics(prices).cost_usd == 0.5);
  // Each model call by its model, else by the requested one (replies name dated models):
  // 2000 * 2.5 + 200 * 10 = 7000 and 1000 * 3 + 100 * 15 = 4500 micro-dollars.
  const CallMetrics per_call = CanonicalTrace(R"({"toolCalls": [], "metrics": {"tokensIn": 3000, "tokensOut": 300},
    "modelCalls": [{"model": "gpt-4o-2024-08-06", "requestModel": "gpt-4o", "tokensIn": 2000, "tokensOut": 200},
                   {"model": "claude-x", "tokensIn": 1000, "tokensOut": 100}]})").metrics(prices);
  BOOST_TEST(*per_call.cost_usd == 0.0115, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(*per_call.tokens_in == 3000);
  // One call without a price: no cost at all rather than a partial sum.
  BOOST_TEST(!CanonicalTrace(R"({"toolCalls": [], "modelCalls": [{"model": "gpt-4o", "tokensIn": 1, "tokensOut": 1},
    {"model": "unknown-model", "tokensIn": 1, "tokensOut": 1}]})").metrics(prices).cost_usd.has_value());
  // No model calls: all the tokens by the trace's model.
  BOOST_TEST(*CanonicalTrace(R"({"toolCalls": [], "model": "claude-x", "metrics": {"tokensIn": 1000000, "tokensOut": 0}})")
                  .metrics(prices).cost_usd == 3.0);
  BOOST_TEST(!CanonicalTrace(R"({"toolCalls": []})").metrics(prices).cost_usd.has_value());
}

BOOST_AUTO_TEST_CASE(malformed_traces_are_refused_with_the_reason) {
  const auto reason = [](const char* text) {
    try {
      CanonicalTrace trace(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  BOOST_TEST(reason("{]") == "the trace is not valid JSON: syntax error");
  BOOST_TEST(reason("[]") == "the trace is not a JSON object");
  BOOST_TEST(reason(R"({"toolCalls": 1})") == "toolCalls is not a list");
  BOOST_TEST(reason(R"({"toolCalls": [{"arguments": {}}]})") == "toolCalls[0] has no name");
  BOOST_TEST(reason(R"({"toolCalls": [{"name": "f", "arguments": "{}"}]})") == "toolCalls[0].arguments is not an object");
  BOOST_TEST(reason(R"({"toolCalls": [], "turns": {}})") == "turns is not a list");
  BOOST_TEST(reason(R"({"toolCalls": []})") == "accepted");
}

BOOST_AUTO_TEST_CASE(actual_outputs_lay_the_trace_over_the_recorded_outputs) {
  const CanonicalTrace trace(R"({"output": "new", "toolCalls": [], "model": "m"})");
  BOOST_TEST(json::parse(trace.actual_outputs(R"({"output": "old", "context": ["c"]})")) ==
             json::parse(R"({"output": "new", "context": ["c"], "toolCalls": [], "reasoningSteps": [], "turns": []})"));
  BOOST_TEST(json::parse(trace.actual_outputs()) ==
             json::parse(R"({"output": "new", "toolCalls": [], "reasoningSteps": [], "turns": []})"));
}

BOOST_AUTO_TEST_SUITE_END()
