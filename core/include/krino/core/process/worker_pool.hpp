#pragma once
// The persistent workers of one exec task or worker evaluator. Workers start when a request finds
// none idle and fewer than `max_workers` running (so a run with parallelism 64 over three examples
// starts three), are reused while they behave, and are dropped when they break (the next request
// starts a new one). A worker takes up to `requests_per_worker` leases at once (pipelining: 1 for
// the exec task, the handshake's concurrency for an evaluator); a request goes to the least busy
// worker. A request that finds every worker full waits for the next lease released, suspended,
// holding no thread.
//
// Threading: acquire(), release() and set_requests_per_worker() are [thread-safe]; shutdown() (and
// the destructor) once every lease is back.
#include "krino/core/process/process_limits.hpp"
#include "krino/core/process/process_spec.hpp"
#include "krino/core/process/worker_process.hpp"

#include <boost/asio/io_context.hpp>

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace krino::core {

class WorkerPool {
 public:
  using Log = std::function<void(const std::string&)>;
  // Runs on every new worker before its first lease (a protocol's handshake), on the acquiring
  // thread; may wait with await_callback. A non-empty return is why the worker is unusable: it is
  // stopped and the lease fails with that reason.
  using Prepare = std::function<std::string(WorkerProcess&)>;

  // `limits` must outlive the pool. `warn` hears about workers that exit between requests or have
  // to be killed at shutdown; its messages start with "worker pid N".
  WorkerPool(boost::asio::io_context& io, ProcessSpec spec, const ProcessLimits& limits, std::size_t max_workers,
             Log warn, Prepare prepare = {});
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  struct Lease {
    std::shared_ptr<WorkerProcess> worker;  // null when a new worker could not be started
    std::string error;                      // why not
  };
  // A worker for one request. Suspends the calling TBB task (or blocks a plain thread) while all
  // `max_workers` are busy.
  Lease acquire();
  // Hands a worker back after its request. One that is no longer usable() leaves the pool (it stops
  // itself, or the caller stopped it) and frees its place for a new one.
  void release(std::shared_ptr<WorkerProcess> worker);

  // Hands a leased worker back to its pool when it goes out of scope, on every path.
  class LeaseReturn {
   public:
    LeaseReturn(WorkerPool& pool, std::shared_ptr<WorkerProcess> worker) : pool_(pool), worker_(std::move(worker)) {}
    ~LeaseReturn() { pool_.release(std::move(worker_)); }
    LeaseReturn(const LeaseReturn&) = delete;
    LeaseReturn& operator=(const LeaseReturn&) = delete;

   private:
    WorkerPool& pool_;
    std::shared_ptr<WorkerProcess> worker_;
  };

  // One request sent and answered, with the retries every user of the pool wants: a request that a
  // worker never read (it exited first: `not_sent`) goes to another worker, three workers at most;
  // one that was in flight behind another request when its worker failed (`interrupted`) is sent
  // once more. Suspends the calling task while it waits.
  struct Exchange {
    enum class Kind {
      replied,    // `reply` is the last worker's (any outcome); `worker` is that worker
      no_worker,  // no worker could be started: `error` says why
      cancelled,  // `cancelled()` said so before the request was sent
    };
    Kind kind = Kind::replied;
    std::string error;
    WorkerReply reply;
    std::shared_ptr<WorkerProcess> worker;
    // Holds the lease until the caller is done with `worker` (it may stop() it first).
    std::unique_ptr<LeaseReturn> lease;
  };
  // `id`: the request's id, when the worker's answers carry it (pipelined workers).
  Exchange exchange(const std::string& line, std::optional<uint64_t> id, const std::function<bool()>& cancelled);
  // Several requests at once (a group of items), answered in their order, with the same retries:
  // each is sent as soon as a worker has room (acquire), so they spread over the workers, and the
  // calling task is suspended once, until the last answer, rather than once per request. A
  // request's lease goes back as its answer arrives (so a group larger than the pool's room flows
  // through it); `lease` is then empty, and a caller that stops a worker does so after others may
  // have been granted it (their requests come back `interrupted` and are sent again).
  std::vector<Exchange> exchange_all(std::span<const std::string> lines, std::span<const uint64_t> ids,
                                     const std::function<bool()>& cancelled);

  // Ends every worker: closes its stdin, gives it kill_grace to exit, then stops its process group.
  // Blocks until all are reaped. Idempotent.
  void shutdown();

  // How many requests one worker may have in flight (default 1).
  void set_requests_per_worker(std::size_t requests);

  std::size_t max_workers() const noexcept { return max_workers_; }
  // Workers started so far (replacements included).
  std::size_t started_count() const;

 private:
  // Either a worker with room for one more request, or the right to start one (worker == null).
  struct Grant {
    std::shared_ptr<WorkerProcess> worker;
  };
  // A started worker and its leases; `ready` once prepared.
  struct Member {
    std::shared_ptr<WorkerProcess> worker;
    std::size_t leases = 0;
    bool ready = false;
  };
  using Waiter = std::function<void(Grant)>;
  bool grant_locked(Grant& grant);
  // Grants for as many waiters as can have one now, to be called after the lock is let go.
  std::vector<std::pair<Waiter, Grant>> serve_waiters_locked();
  static void call(std::vector<std::pair<Waiter, Grant>> served);
  void mark_ready(const std::shared_ptr<WorkerProcess>& worker);
  void give_back_slot();

  boost::asio::io_context& io_;
  ProcessSpec spec_;
  const ProcessLimits& limits_;
  std::size_t max_workers_;
  Log warn_;
  Prepare prepare_;

  mutable std::mutex mutex_;
  std::vector<Member> members_;  // started and not yet dropped
  std::vector<std::shared_ptr<WorkerProcess>> all_;  // every worker not yet gone(), for shutdown
  std::deque<Waiter> waiters_;
  std::size_t requests_per_worker_ = 1;
  std::size_t running_ = 0;  // starting, or started and not yet dropped
  std::size_t started_ = 0;
  bool shut_down_ = false;
};

}  // namespace krino::core
