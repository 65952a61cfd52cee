// How the exec task reads what a program printed: bare outputs, single values, the envelope with
// an error, metrics and OpenAI/Anthropic usage, pricing, and the worker's id echo.
#include "krino/core/usage/price_table.hpp"
#include "krino/core/task/exec_reply.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

using namespace krino::core;
namespace json = boost::json;

namespace {

struct ReplyFixture {
  PriceTable prices = PriceTable::from_json(
      json::parse(R"({"small":{"input_per_million":1.0,"output_per_million":2.0}})").as_object());

  ExecReply per_example(std::string_view text, std::string_view model = "") const {
    return read_exec_reply(text, ExecReplyRules{std::nullopt, &prices, model});
  }
  ExecReply worker(std::string_view text, std::uint64_t id = 7) const {
    return read_exec_reply(text, ExecReplyRules{id, &prices, ""});
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(exec_reply)

BOOST_FIXTURE_TEST_CASE(a_plain_object_is_the_actual_outputs, ReplyFixture) {
  ExecReply r = per_example("  {\"output\": \"Paris\",\n \"score\": 1.0}\n");
  BOOST_TEST((r.kind == ExecReply::Kind::outputs));
  BOOST_TEST(r.output.actual_outputs == R"({"output":"Paris","score":1.0})");  // compact: one report line
  BOOST_REQUIRE(r.output.metrics.has_value());
  BOOST_TEST(!r.output.metrics->tokens_in.has_value());
  BOOST_TEST(!r.output.metrics->cost_usd.has_value());
}

BOOST_FIXTURE_TEST_CASE(any_other_value_is_the_single_output, ReplyFixture) {
  BOOST_TEST(per_example("\"Paris\"").output.actual_outputs == R"({"output":"Paris"})");
  BOOST_TEST(per_example("[1,2]").output.actual_outputs == R"({"output":[1,2]})");
  BOOST_TEST(per_example("{\"actualOutputs\": 42}").output.actual_outputs == R"({"output":42})");
}

BOOST_FIXTURE_TEST_CASE(the_envelope_carries_outputs_and_metrics, ReplyFixture) {
  ExecReply r = per_example(R"({"actualOutputs": {"output": "x"},
      "metrics": {"tokensIn": 1000, "tokensOut": 500, "model": "small", "latencyMs": 99999}})");
  BOOST_TEST((r.kind == ExecReply::Kind::outputs));
  BOOST_TEST(r.output.actual_outputs == R"({"output":"x"})");
  BOOST_TEST(*r.output.metrics->tokens_in == 1000);
  BOOST_TEST(*r.output.metrics->tokens_out == 500);
  BOOST_TEST(*r.output.metrics->cost_usd == 0.002);  // (1000 * 1 + 500 * 2) / 1e6
  BOOST_TEST(!r.output.metrics->latency_ms.has_value());  // the host measures latency
}

BOOST_FIXTURE_TEST_CASE(openai_and_anthropic_usage_are_read, ReplyFixture) {
  ExecReply openai = per_example(R"({"actualOutputs": {}, "model": "small",
      "usage": {"prompt_tokens": 10, "completion_tokens": 20, "total_tokens": 30}})");
  BOOST_TEST(*openai.output.metrics->tokens_in == 10);
  BOOST_TEST(*openai.output.metrics->tokens_out == 20);
  BOOST_TEST(*openai.output.metrics->cost_usd == 0.00005);
  ExecReply anthropic = per_example(R"({"actualOutputs": {}, "usage": {"input_tokens": 3, "output_tokens": 4}})");
  BOOST_TEST(*anthropic.output.metrics->tokens_in == 3);
  BOOST_TEST(*anthropic.output.metrics->tokens_out == 4);
  BOOST_TEST(!anthropic.output.metrics->cost_usd.has_value());  // no model: not priced
}

BOOST_FIXTURE_TEST_CASE(a_reported_cost_wins_and_the_task_model_prices_the_rest, ReplyFixture) {
  ExecReply reported = per_example(R"({"actualOutputs": {}, "model": "small",
      "metrics": {"tokensIn": 1000000, "tokensOut": 0, "costUsd": 0.25}})");
  BOOST_TEST(*reported.output.metrics->cost_usd == 0.25);
  ExecReply by_option = per_example(R"({"actualOutputs": {}, "metrics": {"tokensIn": 1000000, "tokensOut": 0}})", "small");
  BOOST_TEST(*by_option.output.metrics->cost_usd == 1.0);
  ExecReply unknown_model = per_example(R"({"actualOutputs": {}, "model": "big", "metrics": {"tokensIn": 5}})");
  BOOST_TEST(!unknown_model.output.metrics->cost_usd.has_value());
  BOOST_TEST(*unknown_model.output.metrics->tokens_in == 5);
}

BOOST_FIXTURE_TEST_CASE(an_envelope_error_fails_the_item_with_the_programs_words, ReplyFixture) {
  ExecReply r = per_example(R"({"actualOutputs": null, "error": "rate limited upstream"})");
  BOOST_TEST((r.kind == ExecReply::Kind::program_error));
  BOOST_TEST(r.message == "rate limited upstream");
}

BOOST_FIXTURE_TEST_CASE(malformed_envelopes_name_the_field, ReplyFixture) {
  ExecReply tokens = per_example(R"({"actualOutputs": {}, "metrics": {"tokensIn": "many"}})");
  BOOST_TEST((tokens.kind == ExecReply::Kind::invalid_envelope));
  BOOST_TEST(tokens.message.find("metrics.tokensIn must be a whole number") != std::string::npos, tokens.message);
  ExecReply cost = per_example(R"({"actualOutputs": {}, "metrics": {"costUsd": -1}})");
  BOOST_TEST(cost.message.find("metrics.costUsd") != std::string::npos, cost.message);
  ExecReply usage = per_example(R"({"actualOutputs": {}, "usage": [1]})");
  BOOST_TEST(usage.message.find("usage must be an object") != std::string::npos, usage.message);
  ExecReply nothing = per_example(R"({"actualOutputs": null})");
  BOOST_TEST(nothing.message.find("neither actualOutputs nor error") != std::string::npos, nothing.message);
  ExecReply error_type = per_example(R"({"actualOutputs": {}, "error": 5})");
  BOOST_TEST(error_type.message.find("error must be a string") != std::string::npos, error_type.message);
}

BOOST_FIXTURE_TEST_CASE(output_that_is_not_json_is_quoted_in_the_message, ReplyFixture) {
  ExecReply r = per_example("Loading model...\n{\"output\": 1}");
  BOOST_TEST((r.kind == ExecReply::Kind::not_a_reply));
  BOOST_TEST(r.message.find("not JSON") != std::string::npos, r.message);
  BOOST_TEST(r.message.find("'Loading model...") != std::string::npos, r.message);
  BOOST_TEST(per_example("").message == "nothing on stdout");
  BOOST_TEST((per_example(R"({"a": 1, "a": 2})").kind == ExecReply::Kind::not_a_reply));  // duplicate keys
  // Invalid UTF-8 never reaches a report line.
  ExecReply binary = per_example("\xff\xfe garbage");
  BOOST_TEST(binary.message.find('\xff') == std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(a_worker_reply_must_echo_the_request_id, ReplyFixture) {
  BOOST_TEST((worker(R"({"id": 7, "actualOutputs": {"output": 1}})").kind == ExecReply::Kind::outputs));
  ExecReply wrong = worker(R"({"id": 6, "actualOutputs": {}})");
  BOOST_TEST((wrong.kind == ExecReply::Kind::not_a_reply));
  BOOST_TEST(wrong.message == "the reply to request 6 where request 7 was due");
  BOOST_TEST((worker(R"({"actualOutputs": {}})").kind == ExecReply::Kind::not_a_reply));
  BOOST_TEST((worker(R"({"id": "7", "actualOutputs": {}})").kind == ExecReply::Kind::not_a_reply));
  BOOST_TEST((worker(R"([7])").kind == ExecReply::Kind::not_a_reply));
  // In step, but the envelope is wrong: the worker is kept.
  BOOST_TEST((worker(R"({"id": 7})").kind == ExecReply::Kind::invalid_envelope));
  // A worker's reply is always an envelope, so its outputs are under actualOutputs.
  BOOST_TEST(worker(R"({"id": 7, "actualOutputs": {"x": 1}, "output": "ignored"})").output.actual_outputs == R"({"x":1})");
}

BOOST_AUTO_TEST_SUITE_END()
