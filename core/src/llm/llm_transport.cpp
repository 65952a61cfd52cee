#include "krino/core/llm/llm_transport.hpp"

namespace krino::core {
namespace {

LlmAttempt to_attempt(const LlmProvider& provider, HttpResult result) {
  LlmAttempt attempt;
  switch (result.outcome) {
    case HttpOutcome::timeout:
      attempt.outcome = AttemptOutcome::timeout;
      attempt.error = provider.redact(provider.label() + ": " + result.error);
      return attempt;
    case HttpOutcome::connection_error:
      attempt.outcome = AttemptOutcome::connection_error;
      attempt.error = provider.redact(provider.label() + ": " + result.error);
      return attempt;
    case HttpOutcome::response: break;
  }
  const auto& response = result.response;
  attempt.http_status = response.status;
  attempt.retry_after = response.retry_after();
  if (response.status < 200 || response.status > 299) {
    attempt.outcome = AttemptOutcome::http_error;
    attempt.error = provider.describe_http_error(response.status, response.body);
    return attempt;
  }
  try {
    attempt.reply = provider.parse_reply(response.body);
    attempt.outcome = AttemptOutcome::reply;
  } catch (const InvalidProviderReply& error) {
    attempt.outcome = AttemptOutcome::invalid_reply;
    attempt.error = error.what();
  }
  return attempt;
}

}  // namespace

LlmTransport::LlmTransport(HttpClient& http, LlmConfig config)
    : http_(http), provider_(make_llm_provider(std::move(config))) {}

void LlmTransport::send(const boost::json::object& judge_request, Callback done,
                        std::optional<std::chrono::milliseconds> attempt_timeout) const {
  send(resolve_judge_request(judge_request, provider_->config()), std::move(done), attempt_timeout);  // throws before any I/O
}

void LlmTransport::send(const JudgeRequest& judge_request, Callback done,
                        std::optional<std::chrono::milliseconds> attempt_timeout) const {
  ProviderHttpRequest request = provider_->encode(judge_request);
  auto timeout = std::chrono::milliseconds(provider_->config().timeout_ms);
  if (attempt_timeout && *attempt_timeout < timeout) timeout = *attempt_timeout;
  http_.post(request.url, std::move(request.headers), std::move(request.body), timeout,
             [provider = provider_, done = std::move(done)](HttpResult result) { done(to_attempt(*provider, std::move(result))); });
}

}  // namespace krino::core
