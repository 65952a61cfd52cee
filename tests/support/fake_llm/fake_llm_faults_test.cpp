// Each scripted fault, seen from a client: what the judge service will have to survive.
#include <boost/asio/error.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
#include <chrono>

#include "fake_llm_server.hpp"
#include "test_http_client.hpp"

namespace json = boost::json;
using namespace krino::fake_llm;
using namespace krino::fake_llm::test;

namespace {

HttpResult call_with_fault(const char* fault, Endpoint endpoint = Endpoint::openai_chat,
                           std::chrono::milliseconds deadline = std::chrono::seconds(5)) {
  ServerOptions options;
  options.script = parse_script(std::string(R"({"default": {"content": "ok", "fault": )") + fault + "}}");
  FakeLlmServer server(std::move(options));
  HttpCall call;
  call.target = std::string(endpoint_path(endpoint));
  call.body = endpoint == Endpoint::openai_chat ? openai_body("m", "p") : anthropic_body("m", "s", "p");
  call.deadline = deadline;
  return http_call(server.port(), call);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fake_llm_faults)

BOOST_AUTO_TEST_CASE(status_429_carries_retry_after_and_a_provider_error) {
  HttpResult result = call_with_fault(R"({"kind": "status", "status": 429, "retry_after": 2, "message": "slow down"})",
                                      Endpoint::anthropic_messages);
  BOOST_TEST_REQUIRE(!result.error);
  BOOST_TEST(result.status() == 429u);
  BOOST_TEST(result.response[boost::beast::http::field::retry_after] == "2");
  json::value body = json::parse(result.body());
  BOOST_TEST(body.at("type").as_string() == "error");
  BOOST_TEST(body.at_pointer("/error/type").as_string() == "rate_limit_error");
  BOOST_TEST(body.at_pointer("/error/message").as_string() == "slow down");
}

BOOST_AUTO_TEST_CASE(status_500_has_an_openai_error_body_and_no_retry_after) {
  HttpResult result = call_with_fault(R"({"kind": "status", "status": 500})");
  BOOST_TEST(result.status() == 500u);
  BOOST_TEST((result.response.find(boost::beast::http::field::retry_after) == result.response.end()));
  BOOST_TEST(json::parse(result.body()).at_pointer("/error/message").as_string().find("500") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(reset_closes_without_a_response) {
  HttpResult result = call_with_fault(R"("reset")");
  BOOST_TEST(result.error.failed());
  BOOST_TEST((result.error == boost::asio::error::connection_reset || result.error == boost::beast::http::error::end_of_stream),
             result.error.message());
}

BOOST_AUTO_TEST_CASE(truncated_body_is_shorter_than_announced) {
  HttpResult result = call_with_fault(R"({"kind": "truncated"})");
  BOOST_TEST((result.error == boost::beast::http::error::partial_message), result.error.message());
}

BOOST_AUTO_TEST_CASE(malformed_json_is_a_200_that_does_not_parse) {
  HttpResult result = call_with_fault(R"("malformed_json")");
  BOOST_TEST_REQUIRE(!result.error);
  BOOST_TEST(result.status() == 200u);
  boost::system::error_code ec;
  json::parse(result.body(), ec);
  BOOST_TEST(ec.failed());
  BOOST_TEST(call_with_fault(R"({"kind": "malformed_json", "body": "<html>"})").body() == "<html>");
}

BOOST_AUTO_TEST_CASE(timeout_never_answers_so_the_client_deadline_fires) {
  auto start = std::chrono::steady_clock::now();
  HttpResult result = call_with_fault(R"("timeout")", Endpoint::openai_chat, std::chrono::milliseconds(300));
  BOOST_TEST((result.error == boost::beast::error::timeout), result.error.message());
  BOOST_TEST((std::chrono::steady_clock::now() - start < std::chrono::seconds(3)));  // and stop() did not wait for it
}

BOOST_AUTO_TEST_SUITE_END()
