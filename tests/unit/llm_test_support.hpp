#pragma once
// Helpers for the LLM client's transport tests: run one HTTP exchange or attempt to completion on a
// private io_context, and judge configs pointed at the fake LLM server.
#include "krino/core/net/http_client.hpp"
#include "krino/core/llm/judge_config.hpp"
#include "krino/core/llm/llm_transport.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>
#include <boost/test/tools/detail/print_helper.hpp>
#include <boost/test/unit_test.hpp>

#include <optional>
#include <string>

BOOST_TEST_DONT_PRINT_LOG_VALUE(std::optional<std::int64_t>)
BOOST_TEST_DONT_PRINT_LOG_VALUE(std::optional<std::uint64_t>)
BOOST_TEST_DONT_PRINT_LOG_VALUE(std::optional<std::string>)

namespace krino::core::test {

inline HttpResult post_and_wait(boost::asio::io_context& io, HttpClient& client, const Url& url, std::string body,
                                std::chrono::milliseconds timeout = std::chrono::milliseconds(5000)) {
  std::optional<HttpResult> result;
  client.post(url, {{"Content-Type", "application/json"}}, std::move(body), timeout,
              [&](HttpResult r) { result = std::move(r); });
  io.restart();
  io.run();  // idle pooled connections hold no pending work, so this returns after the callback
  return std::move(*result);
}

inline LlmAttempt send_and_wait(boost::asio::io_context& io, const LlmTransport& transport,
                                  const boost::json::object& request) {
  std::optional<LlmAttempt> attempt;
  transport.send(request, [&](LlmAttempt a) { attempt = std::move(a); });
  io.restart();
  io.run();
  return std::move(*attempt);
}

inline EnvironmentLookup fake_environment(std::string variable, std::string value) {
  return [variable = std::move(variable), value = std::move(value)](const std::string& name) -> std::optional<std::string> {
    if (name == variable) return value;
    return std::nullopt;
  };
}

}  // namespace krino::core::test
