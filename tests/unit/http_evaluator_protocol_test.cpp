// krino.evaluatorworker/1 over HTTP (use: http_evaluator): the POST body carries the test cases'
// bytes as they are, and a reply's answers are matched to their requests by id, in any order, with
// a missing, duplicate or broken answer that request's error and an unusable reply every one's.
#include "krino/core/runner/http_evaluator_options.hpp"
#include "krino/core/runner/http_evaluator_protocol.hpp"

#include "krino/core/common/error.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <optional>
#include <string>
#include <vector>

using namespace krino::core;

namespace {

int kind(const WorkerAnswer& answer) { return static_cast<int>(answer.kind); }
constexpr int kResult = static_cast<int>(WorkerAnswer::Kind::result);
constexpr int kError = static_cast<int>(WorkerAnswer::Kind::error);
constexpr int kBroken = static_cast<int>(WorkerAnswer::Kind::not_an_answer);

}  // namespace

BOOST_AUTO_TEST_SUITE(http_evaluator_protocol)

BOOST_AUTO_TEST_CASE(the_batch_body_carries_the_test_cases_bytes_unchanged) {
  krino_call_context ctx{};
  ctx.seed = 9;
  const std::string first = worker_evaluate_line(1, ctx, R"({"inputs":{"x":0.1000000000000000055511151231257827}})");
  const std::string second = worker_evaluate_line(2, ctx, R"({"inputs":{"x":1e400}})");
  const std::string body = http_evaluator_batch_body(R"({"threshold":0.5})", {first, second});
  BOOST_TEST(body.find("0.1000000000000000055511151231257827") != std::string::npos);
  BOOST_TEST(body.find("1e400") != std::string::npos);
  BOOST_TEST(body.find('\n') == std::string::npos);
  BOOST_TEST(body.rfind(R"({"protocol":"krino.evaluatorworker/1","options":{"threshold":0.5},"requests":[{"id":1,)", 0) == 0);
}

BOOST_AUTO_TEST_CASE(answers_are_matched_by_id_in_any_order) {
  const auto answers = read_http_evaluator_answers(
      R"({"answers":[{"id":8,"error":{"code":"INVALID_ARGUMENT","message":"no toolCalls"}},{"id":7,"result":{"name":"t","score":0.30000000000000004,"success":false}}]})",
      {7, 8});
  BOOST_TEST_REQUIRE(answers.size() == 2u);
  BOOST_TEST(kind(answers[0]) == kResult);
  BOOST_TEST(answers[0].text == R"({"name":"t","score":0.30000000000000004,"success":false})");
  BOOST_TEST(kind(answers[1]) == kError);
  BOOST_TEST(answers[1].code == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(answers[1].text == "no toolCalls");
}

BOOST_AUTO_TEST_CASE(a_result_goes_on_as_the_server_wrote_it) {
  // Numbers digit for digit (1.50, an integer beyond 64 bits) and the white space inside; a reply
  // that must be repaired first (ill-formed UTF-8) is written anew from its parse.
  const auto answers = read_http_evaluator_answers(
      R"({"answers":[ {"id":2,"result":{"score":1.50, "success":true,"metadata":{"n":18446744073709551616}}}, {"id":1,"error":{"message":"x"}} ]})",
      {1, 2});
  BOOST_TEST_REQUIRE(answers.size() == 2u);
  BOOST_TEST(kind(answers[1]) == kResult);
  BOOST_TEST(answers[1].text == R"({"score":1.50, "success":true,"metadata":{"n":18446744073709551616}})");
  const auto repaired = read_http_evaluator_answers("{\"answers\":[{\"id\":1,\"result\":{\"reason\":\"caf\xC3\",\"score\":1.50}}]}", {1});
  BOOST_TEST_REQUIRE(repaired.size() == 1u);
  BOOST_TEST(kind(repaired[0]) == kResult);
  BOOST_TEST(repaired[0].text == "{\"reason\":\"caf\xEF\xBF\xBD\",\"score\":1.5}");
}

BOOST_AUTO_TEST_CASE(a_missing_or_duplicate_answer_names_its_id) {
  const auto answers = read_http_evaluator_answers(
      R"({"answers":[{"id":1,"result":{}},{"id":1,"result":{}},{"id":99,"result":{}},{"id":3},7]})", {1, 2, 3});
  BOOST_TEST_REQUIRE(answers.size() == 3u);
  BOOST_TEST(kind(answers[0]) == kBroken);
  BOOST_TEST(answers[0].text == "a reply that answers request id 1 2 times");
  BOOST_TEST(kind(answers[1]) == kBroken);
  BOOST_TEST(answers[1].text == "a reply with no answer for request id 2");
  BOOST_TEST(kind(answers[2]) == kBroken);
  BOOST_TEST(answers[2].text.find("neither 'result' nor 'error'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_unusable_reply_fails_every_request) {
  for (const char* reply : {"<html>", "[1]", R"({"results":[]})", R"({"protocol":"krino.evaluatorworker/2","answers":[]})"}) {
    const auto answers = read_http_evaluator_answers(reply, {4, 5});
    BOOST_TEST_REQUIRE(answers.size() == 2u);
    for (const WorkerAnswer& answer : answers) BOOST_TEST(kind(answer) == kBroken, reply);
    BOOST_TEST(answers[0].text == answers[1].text);
  }
  BOOST_TEST(read_http_evaluator_answers("<html>", {4})[0].text == "a reply that is not a JSON object: <html>");
}

BOOST_AUTO_TEST_CASE(options_read_the_environment_and_keep_it_secret) {
  auto environment = [](const std::string& name) -> std::optional<std::string> {
    if (name == "TOKEN") return std::string("t0k3n");
    return std::nullopt;
  };
  const boost::json::object keys = boost::json::parse(
      R"({"url":"https://eval.example:8443/score?key={{env.TOKEN}}","headers":{"Authorization":"Bearer {{env.TOKEN}}"},"batch":8,"concurrency":2})").as_object();
  const HttpEvaluatorSettings settings = read_http_evaluator_settings(keys, {}, environment);
  BOOST_TEST(settings.url.target == "/score?key=t0k3n");
  BOOST_TEST(settings.headers.at(0).value == "Bearer t0k3n");
  BOOST_TEST(settings.batch == 8u);
  BOOST_TEST(settings.concurrency == 2u);
  BOOST_TEST(settings.what == "http evaluator https://eval.example:8443/score");
  BOOST_TEST(settings.redact("said t0k3n") == "said [redacted]");

  const boost::json::object per_item = boost::json::parse(R"({"url":"http://h/{{inputs.x}}"})").as_object();
  BOOST_CHECK_THROW(read_http_evaluator_settings(per_item, {}, environment), KrinoError);
  const boost::json::object unknown = boost::json::parse(R"({"url":"http://h/","bach":3})").as_object();
  BOOST_CHECK_THROW(read_http_evaluator_settings(unknown, {}, environment), KrinoError);
}

BOOST_AUTO_TEST_SUITE_END()
