#pragma once
// The background worker of the generic job queue (store/job_types.hpp), one per `krino serve`
// replica. Each of its slots (a thread) claims one job of a kind it has a handler for, runs the
// handler, and claims the next; while a handler works, a heartbeat renews the job's lease every
// third of the lease, so a living worker never loses its job however long a model takes. A worker
// that dies (kill -9, a lost node) stops renewing, its leases run out, and another replica claims
// the job again.
//
// A handler ends the job itself (complete_job / fail_job, or a kind's own store call that
// completes it in the transaction that writes its results, fenced by the lease token). When it
// throws, the job goes back to the queue after `retry_delay`; the claim past its attempts comes
// `exhausted` for the handler to record the failure, and only a handler that throws even then
// leaves the job FAILED. Its `lost` cancellation is requested when the lease could not be renewed
// (another replica may have the job now: the handler should stop and write nothing) or the worker
// is stopping; a job still held when the worker stops goes back to the queue at once.
//
// Threading: handle() before start(); start(), stop() and wake() from any one thread at a time;
// metrics_text() from any.
#include "krino/core/common/cancellation.hpp"
#include "krino/core/store/store.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace krino::core::server {

struct JobWorkerOptions {
  std::chrono::milliseconds poll_interval{1000};  // how often the queue is looked at when it had nothing
  std::chrono::milliseconds lease{60'000};        // renewed every lease/3 while the handler works
  std::chrono::milliseconds retry_delay{5'000};   // before a job whose handler threw is claimed again
  int slots = 1;                                  // jobs this replica works on at once
};

using JobHandler = std::function<void(const store::ClaimedJob& job, const Cancellation& lost)>;

class JobWorker {
 public:
  // `store` must outlive the worker.
  JobWorker(store::Store& store, JobWorkerOptions options);
  ~JobWorker();  // stop()
  JobWorker(const JobWorker&) = delete;
  JobWorker& operator=(const JobWorker&) = delete;

  void handle(std::string kind, JobHandler handler);
  void start();
  // Asks handlers to stop (their `lost` is requested) and returns when every slot has.
  void stop();
  // A job was queued here: claim now rather than at the next poll.
  void wake();

  const std::string& owner() const { return owner_; }
  std::string metrics_text() const;

 private:
  struct Held {
    std::string job_id;
    std::string token;
    std::shared_ptr<Cancellation> lost;
  };
  void run_slot();
  void run_heartbeat();
  bool work_once();

  store::Store& store_;
  JobWorkerOptions options_;
  std::string owner_;
  std::map<std::string, JobHandler> handlers_;
  std::vector<std::string> kinds_;

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::uint64_t wakes_ = 0;
  std::map<std::string, Held> held_;  // by job id: what the heartbeat renews
  std::vector<std::thread> threads_;

  std::atomic<std::int64_t> claimed_{0};
  std::atomic<std::int64_t> handled_{0};
  std::atomic<std::int64_t> thrown_{0};
  std::atomic<std::int64_t> leases_lost_{0};
};

}  // namespace krino::core::server
