#pragma once
// The judge role of the LLM client: what host->judge() does. The experiment's `judges` are the
// client's models, requests name one of them in their "judge" member, and the default judge
// answers the others.
#include "krino/core/llm/llm_client.hpp"
#include "krino/core/llm/llm_config.hpp"
#include "krino/core/net/retry_policy.hpp"
#include "krino/core/usage/price_table.hpp"

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

struct JudgeServiceOptions {
  std::vector<LlmConfig> judges;                   // at least one
  std::string default_judge;                       // empty: the first of `judges`
  std::optional<std::filesystem::path> cache_dir;  // nullopt: no cache
  PriceTable prices;
  RetryPolicy retry;  // max_attempts is taken from each judge's max_retries
  int io_threads = 1;  // only for a service on an I/O service of its own
  std::string extra_ca_pem;  // trusted in addition to the system's roots (tests, private gateways)
  std::function<void(const std::string&)> warn;  // LlmClientOptions::warn
};

// A judge call is an LLM call; its counters are the client's.
using JudgeServiceStats = LlmClientStats;
using JudgeCallOutcome = LlmCallOutcome;

class JudgeService {
 public:
  // On `io`, the run's shared I/O service, which must outlive the service. Throws a configuration
  // error for no judge, an unknown default judge or duplicate names.
  JudgeService(IoService& io, JudgeServiceOptions options);
  // On an I/O service of its own (`io_threads` threads), for a caller that has no other I/O.
  explicit JudgeService(JudgeServiceOptions options);
  ~JudgeService();
  JudgeService(const JudgeService&) = delete;
  JudgeService& operator=(const JudgeService&) = delete;

  // [thread-safe] One judge call (LlmClient::call); its waits end when `cancellation` is requested.
  JudgeCallOutcome call(std::string_view request_json, uint64_t seed, const Cancellation* cancellation = nullptr) {
    return client_->call(request_json, seed, cancellation);
  }

  JudgeServiceStats stats() const { return client_->stats(); }
  // The sum of every judge's max_concurrency: how many calls can usefully be in flight.
  size_t capacity() const noexcept { return client_->capacity(); }
  const std::vector<std::string>& judge_names() const { return client_->model_names(); }

 private:
  std::unique_ptr<IoService> own_io_;  // set by the second constructor only; outlives the client
  std::unique_ptr<LlmClient> client_;
};

}  // namespace krino::core
