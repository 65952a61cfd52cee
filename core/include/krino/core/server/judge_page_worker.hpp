#pragma once
// The server judge's handler of "judge_page" jobs (store/judge_types.hpp), run by a JobWorker in
// every replica. For one page of a run's items it:
//   1. reads the judge job, its LLM connection and the page's items (short reads, no transaction);
//   2. resolves the connection's key when the page runs: the environment variable it names, or its
//      inline key opened with KRINO_ENCRYPTION_KEY (common/secret_box.hpp);
//   3. asks the model about every item through core's LLM client (providers, rate limits, the
//      concurrency window, retries with backoff, the JSON repair round, cost), up to the
//      connection's max_concurrency calls in flight, outside any transaction;
//   4. writes the page's judgments and completes the page in one transaction, fenced by its lease
//      (Store::record_judge_page): a page taken over by another replica is written once.
// An item whose call fails for good (retries spent, a 4xx, a reply without a score) is written as
// an error with its cause; a page whose attempts are used up (its workers kept dying) writes every
// item as such an error, so the job always ends and the run returns to its terminal status.
#include "krino/core/common/environment_lookup.hpp"
#include "krino/core/net/retry_policy.hpp"
#include "krino/core/server/job_worker.hpp"
#include "krino/core/server_api/judge_evaluator.hpp"
#include "krino/core/store/store.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace krino::core {
class IoService;
class LlmClient;
}  // namespace krino::core

namespace krino::core::server {

struct JudgeWorkerOptions {
  EnvironmentLookup environment = process_environment();  // credentialRef variables and KRINO_ENCRYPTION_KEY
  std::string extra_ca_pem;  // trusted besides the system's roots (tests, private gateways)
  // The backoff between a call's attempts; how many attempts is each connection's maxRetries.
  RetryPolicy retry;
};

class JudgePageWorker {
 public:
  // `store` and `io` (where the model calls run) must outlive the worker.
  JudgePageWorker(store::Store& store, IoService& io, JudgeWorkerOptions options = {});
  ~JudgePageWorker();
  JudgePageWorker(const JudgePageWorker&) = delete;
  JudgePageWorker& operator=(const JudgePageWorker&) = delete;

  // The JobHandler of kJudgePageKind.
  void operator()(const store::ClaimedJob& job, const Cancellation& lost);

  // The call path every server judge shares (pages, online evaluations of traces): scores each of
  // `documents` (a run item's JSON shape) with `evaluator` through the tenant's connection, its
  // key resolved as above, calls in flight at once up to the connection's max_concurrency, each
  // with its `seeds` entry as the seed (none: its index). One verdict per document, in order
  // (item id and position left empty); or, when the connection cannot be used at all (gone, no
  // key, unusable settings), no verdicts and `unusable` saying why.
  struct Judgment {
    std::vector<store::JudgeVerdict> verdicts;
    std::string unusable;
  };
  Judgment judge(const std::optional<std::string>& tenant, const std::string& connection_id, const server_api::JudgeEvaluator& evaluator,
                 const std::vector<std::string>& documents, const std::vector<std::uint64_t>& seeds, const Cancellation& lost);

  std::string metrics_text() const;

 private:
  std::shared_ptr<LlmClient> client_for(const store::LlmConnection& connection, const std::string& key);

  store::Store& store_;
  IoService& io_;
  JudgeWorkerOptions options_;
  std::mutex mutex_;
  // One client per connection version and key, shared by the slots: its limits and concurrency
  // window hold across pages.
  std::map<std::string, std::shared_ptr<LlmClient>> clients_;
  std::atomic<std::int64_t> items_scored_{0};
  std::atomic<std::int64_t> items_failed_{0};
  std::atomic<std::int64_t> pages_written_{0};
  std::atomic<std::int64_t> pages_lost_{0};
};

}  // namespace krino::core::server
