#pragma once
// One attempt at one LLM call: encode the request for the model's provider, POST it, and sort
// what came back into an outcome the retry policy can act on. No retries, limits or caching here;
// the LLM client composes those around send().
#include "krino/core/net/http_client.hpp"
#include "krino/core/llm/llm_provider.hpp"

#include <boost/json/object.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace krino::core {

enum class AttemptOutcome {
  reply,             // the provider answered; see LlmAttempt::reply
  http_error,        // a non-2xx status (429 and 5xx are worth retrying, 4xx mostly not)
  timeout,           // no complete answer within the model's timeout_ms
  connection_error,  // could not connect, TLS verification failed, or the connection broke
  invalid_reply,     // 2xx, but not a reply in the provider's shape (malformed JSON, no choices, ...)
};

struct LlmAttempt {
  AttemptOutcome outcome = AttemptOutcome::connection_error;
  ProviderReply reply;                     // outcome == reply
  unsigned http_status = 0;                // when the server answered at all
  std::optional<std::string> retry_after;  // the raw Retry-After header, when sent
  std::string error;                       // for every other outcome; never holds the API key
};

class LlmTransport {
 public:
  // Must not throw: it runs on an I/O thread.
  using Callback = std::function<void(LlmAttempt)>;

  LlmTransport(HttpClient& http, LlmConfig config);

  const LlmProvider& provider() const { return *provider_; }

  // [thread-safe] Throws InvalidJudgeRequest, before any I/O, when `judge_request` is not a valid
  // krino.judgerequest/1 (the caller reports it without suspending anything). Otherwise `done` is
  // called exactly once on an io_context thread, never from inside send(). `timeout`: this
  // attempt's, when shorter than the model's timeout_ms (what is left of the call's budget).
  void send(const boost::json::object& judge_request, Callback done,
            std::optional<std::chrono::milliseconds> timeout = std::nullopt) const;
  // [thread-safe] The same for a request already resolved (the LLM client resolves once per call,
  // not once per attempt); never throws.
  void send(const JudgeRequest& request, Callback done, std::optional<std::chrono::milliseconds> timeout = std::nullopt) const;

 private:
  HttpClient& http_;
  std::shared_ptr<const LlmProvider> provider_;
};

}  // namespace krino::core
