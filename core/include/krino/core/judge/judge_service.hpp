#pragma once
// The host's judge service: what host->judge() does. It composes the judge's parts around one
// logical call: cache lookup, rate limits, the adaptive concurrency window, the provider round
// trip, retries with backoff, one repair round for a JSON reply that does not parse, cost, and the
// cache store. All I/O runs on the service's own Asio threads; the calling TBB task is suspended
// meanwhile (oneTBB resumable tasks), so a thousand calls in flight park no thread.
#include "krino/core/judge/judge_config.hpp"
#include "krino/core/judge/judge_usage.hpp"
#include "krino/core/judge/price_table.hpp"
#include "krino/core/net/retry_policy.hpp"

#include <krino/plugin.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core {

struct JudgeServiceOptions {
  std::vector<JudgeConfig> judges;                 // at least one
  std::string default_judge;                       // empty: the first of `judges`
  std::optional<std::filesystem::path> cache_dir;  // nullopt: no cache
  PriceTable prices;
  RetryPolicy retry;  // max_attempts is taken from each judge's max_retries
  int io_threads = 1;
  std::string extra_ca_pem;  // trusted in addition to the system's roots (tests, private gateways)
};

// Counters for reports. Retries and repairs count extra HTTP attempts, not calls.
struct JudgeServiceStats {
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

struct JudgeCallOutcome {
  krino_status status = KRINO_OK;
  std::string text;  // the krino.judgeresponse/1 document on success, else the reason
  JudgeCallRecord record;  // what the call cost, for attribution to its item and evaluator
};

class JudgeService {
 public:
  // Throws a configuration error for an unknown default judge or duplicate names.
  explicit JudgeService(JudgeServiceOptions options);
  ~JudgeService();
  JudgeService(const JudgeService&) = delete;
  JudgeService& operator=(const JudgeService&) = delete;

  // [thread-safe] One judge call, blocking from the caller's point of view. `request_json` is a
  // krino.judgerequest/1 document; `seed` is used when neither the request nor the judge sets one.
  // Inside a TBB task the task is suspended while the call is in flight; elsewhere the thread waits.
  JudgeCallOutcome call(std::string_view request_json, uint64_t seed);

  JudgeServiceStats stats() const;
  // The sum of every judge's max_concurrency: how many calls can usefully be in flight.
  size_t capacity() const noexcept;
  const std::vector<std::string>& judge_names() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace krino::core
