#pragma once
// The LLM client: one logical call to a configured model, in either of its roles (a judge, or the
// model under test of an `openai` / `anthropic` task). It composes the client's parts around the
// call: cache lookup, rate limits, the adaptive concurrency window, the provider round trip,
// retries with backoff, one repair round for a JSON reply that does not parse, cost, and the cache
// store. All I/O runs on the run's shared I/O service (common/io_service.hpp); the calling TBB task
// is suspended meanwhile (oneTBB resumable tasks), so a thousand calls in flight park no thread.
#include "krino/core/common/cancellation.hpp"
#include "krino/core/llm/llm_config.hpp"
#include "krino/core/net/retry_policy.hpp"
#include "krino/core/usage/judge_usage.hpp"
#include "krino/core/usage/price_table.hpp"

#include <krino/plugin.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core {

class IoService;

struct LlmClientOptions {
  std::vector<LlmConfig> models;                   // at least one, with distinct names
  std::string default_model;                       // empty: the first of `models`
  std::optional<std::filesystem::path> cache_dir;  // nullopt: no cache
  PriceTable prices;
  RetryPolicy retry;  // max_attempts is taken from each model's max_retries
  std::string extra_ca_pem;  // trusted in addition to the system's roots (tests, private gateways)
  // Where the client says what is wrong without failing anything (an unusable cache, once per
  // client); empty: "krino: warning: ..." on stderr.
  std::function<void(const std::string&)> warn;
};

// Counters for reports. Retries and repairs count extra HTTP attempts, not calls.
struct LlmClientStats {
  uint64_t calls = 0;
  uint64_t cache_hits = 0;
  uint64_t http_attempts = 0;
  uint64_t retries = 0;
  uint64_t repairs = 0;
  uint64_t failures = 0;
  uint64_t tokens_in = 0;
  uint64_t tokens_out = 0;
  std::optional<double> cost_usd;  // nullopt when no call had a known price
};

struct LlmCallOutcome {
  krino_status status = KRINO_OK;
  std::string text;  // the krino.judgeresponse/1 document on success, else the reason
  JudgeCallRecord record;  // what the call cost, for attribution to its item and evaluator
};

class LlmClient {
 public:
  // Calls run on `io`, which must outlive the client. Throws std::invalid_argument for options a
  // caller should have refused (no model, an unknown default model).
  LlmClient(IoService& io, LlmClientOptions options);
  // [main-thread] After every call has returned.
  ~LlmClient();
  LlmClient(const LlmClient&) = delete;
  LlmClient& operator=(const LlmClient&) = delete;

  // [thread-safe] One call, blocking from the caller's point of view. `request_json` is a
  // krino.judgerequest/1 document (its "judge" member names the model; absent, the default one);
  // `seed` is used when neither the request nor the model sets one. Inside a TBB task the task is
  // suspended while the call is in flight; elsewhere the thread waits.
  // When `cancellation` (may be null) is requested, the call's waits (rate limit, back-off,
  // Retry-After) end within kCancellationPoll and it returns KRINO_CANCELLED saying what it was
  // waiting for; an attempt already sent runs to its reply or its timeout. A call fails at once
  // with KRINO_UNAVAILABLE while the model's circuit breaker is open, and with the last attempt's
  // status when the next attempt would start after the model's call_budget_ms.
  LlmCallOutcome call(std::string_view request_json, uint64_t seed, const Cancellation* cancellation = nullptr);

  LlmClientStats stats() const;
  // The sum of every model's max_concurrency: how many calls can usefully be in flight.
  size_t capacity() const noexcept;
  const std::vector<std::string>& model_names() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace krino::core
