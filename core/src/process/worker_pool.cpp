#include "krino/core/process/worker_pool.hpp"

#include "krino/core/common/await_all.hpp"
#include "krino/core/common/await_callback.hpp"
#include "krino/core/process/printable_text.hpp"

#include <boost/asio/strand.hpp>

#include <algorithm>
#include <condition_variable>

namespace krino::core {

namespace {

std::string describe_exit(const WorkerExit& exit) {
  std::string text = "worker pid " + std::to_string(exit.pid) + " (" + exit.status.describe() + ")";
  if (!exit.stderr_tail.empty())
    text += "; stderr: " + printable_tail(exit.stderr_tail, exit.stderr_tail.size(), exit.stderr_truncated);
  return text;
}

}  // namespace

WorkerPool::WorkerPool(boost::asio::io_context& io, ProcessSpec spec, const ProcessLimits& limits,
                       std::size_t max_workers, Log warn, Prepare prepare)
    : io_(io), spec_(std::move(spec)), limits_(limits), max_workers_(std::max<std::size_t>(1, max_workers)),
      warn_(std::move(warn)), prepare_(std::move(prepare)) {}

WorkerPool::~WorkerPool() { shutdown(); }

bool WorkerPool::grant_locked(Grant& grant) {
  // Workers that died without a lease out leave (they said so through `warn`).
  std::erase_if(members_, [this](const Member& member) {
    if (!member.ready || member.leases > 0 || member.worker->usable()) return false;
    --running_;
    return true;
  });
  Member* least_busy = nullptr;
  for (Member& member : members_) {
    if (member.ready && member.worker->usable() && (least_busy == nullptr || member.leases < least_busy->leases))
      least_busy = &member;
  }
  // An idle worker first, then a new one, then a place in a busy worker's pipeline.
  if (least_busy != nullptr && least_busy->leases == 0) {
    ++least_busy->leases;
    grant.worker = least_busy->worker;
    return true;
  }
  if (running_ < max_workers_) {
    ++running_;
    return true;
  }
  if (least_busy != nullptr && least_busy->leases < requests_per_worker_) {
    ++least_busy->leases;
    grant.worker = least_busy->worker;
    return true;
  }
  return false;
}

std::vector<std::pair<WorkerPool::Waiter, WorkerPool::Grant>> WorkerPool::serve_waiters_locked() {
  std::vector<std::pair<Waiter, Grant>> served;
  while (!waiters_.empty() && !shut_down_) {
    Grant grant;
    if (!grant_locked(grant)) break;
    served.emplace_back(std::move(waiters_.front()), std::move(grant));
    waiters_.pop_front();
  }
  return served;
}

void WorkerPool::call(std::vector<std::pair<Waiter, Grant>> served) {
  for (auto& [waiter, grant] : served) waiter(std::move(grant));
}

WorkerPool::Lease WorkerPool::acquire() {
  // Usually there is room at once: then the task is not suspended (a suspension switches stacks and
  // signal masks, system calls that would cost as much as the request itself).
  Grant grant;
  bool granted_now = false;
  {
    std::lock_guard lock(mutex_);
    granted_now = grant_locked(grant);
  }
  if (!granted_now) grant = await_callback<Grant>([this](auto done) {
    std::unique_lock lock(mutex_);
    Grant granted;
    if (grant_locked(granted)) {
      lock.unlock();
      done(std::move(granted));
      return;
    }
    waiters_.emplace_back(std::move(done));
  });
  if (grant.worker) return {std::move(grant.worker), {}};

  auto on_idle_exit = [warn = warn_](const WorkerExit& exit) {
    if (warn) warn(describe_exit(exit) + " exited between requests; a new worker starts when one is needed");
  };
  WorkerProcess::Started started = WorkerProcess::start(boost::asio::make_strand(io_), spec_, limits_, on_idle_exit);
  if (!started.worker) {
    give_back_slot();
    return {nullptr, std::move(started.error)};
  }
  {
    std::lock_guard lock(mutex_);
    ++started_;
    std::erase_if(all_, [](const auto& worker) { return worker->gone(); });
    all_.push_back(started.worker);
    members_.push_back(Member{started.worker, 1, false});
  }
  if (prepare_) {
    if (std::string why = prepare_(*started.worker); !why.empty()) {
      if (started.worker->usable())
        await_callback<WorkerExit>([&](auto done) { started.worker->stop(std::move(done)); });
      mark_ready(started.worker);
      release(std::move(started.worker));  // unusable now: frees its place
      return {nullptr, std::move(why)};
    }
  }
  mark_ready(started.worker);
  return {std::move(started.worker), {}};
}

void WorkerPool::mark_ready(const std::shared_ptr<WorkerProcess>& worker) {
  std::vector<std::pair<Waiter, Grant>> served;
  {
    std::lock_guard lock(mutex_);
    for (Member& member : members_)
      if (member.worker == worker) member.ready = true;
    served = serve_waiters_locked();  // a new worker has room for more than its first request
  }
  call(std::move(served));
}

void WorkerPool::release(std::shared_ptr<WorkerProcess> worker) {
  std::vector<std::pair<Waiter, Grant>> served;
  {
    std::lock_guard lock(mutex_);
    auto member = std::find_if(members_.begin(), members_.end(),
                               [&](const Member& candidate) { return candidate.worker == worker; });
    if (member == members_.end()) return;  // after shutdown
    --member->leases;
    if (member->leases == 0 && !worker->usable()) {
      members_.erase(member);
      --running_;  // a waiter may start a replacement
    }
    served = serve_waiters_locked();
  }
  call(std::move(served));
}

void WorkerPool::give_back_slot() {
  std::vector<std::pair<Waiter, Grant>> served;
  {
    std::lock_guard lock(mutex_);
    --running_;
    served = serve_waiters_locked();  // the place passes on: a waiter may try to start one
  }
  call(std::move(served));
}

void WorkerPool::set_requests_per_worker(std::size_t requests) {
  std::vector<std::pair<Waiter, Grant>> served;
  {
    std::lock_guard lock(mutex_);
    requests_per_worker_ = std::max<std::size_t>(1, requests);
    served = serve_waiters_locked();
  }
  call(std::move(served));
}

WorkerPool::Exchange WorkerPool::exchange(const std::string& line, std::optional<uint64_t> id,
                                          const std::function<bool()>& cancelled) {
  Exchange result;
  bool retried_interrupted = false;
  for (int attempt = 0; attempt < 3; ++attempt) {
    result.lease.reset();
    Lease lease = acquire();
    if (!lease.worker) {
      result.kind = Exchange::Kind::no_worker;
      result.error = std::move(lease.error);
      return result;
    }
    result.worker = lease.worker;
    result.lease = std::make_unique<LeaseReturn>(*this, std::move(lease.worker));
    if (cancelled && cancelled()) {
      result.kind = Exchange::Kind::cancelled;
      return result;
    }
    result.reply = await_callback<WorkerReply>([&](auto done) { result.worker->request(line, std::move(done), id); });
    if (result.reply.outcome == WorkerReply::Outcome::interrupted && !retried_interrupted) {
      retried_interrupted = true;
      continue;
    }
    if (result.reply.outcome != WorkerReply::Outcome::not_sent) break;
  }
  result.kind = Exchange::Kind::replied;
  return result;
}

std::vector<WorkerPool::Exchange> WorkerPool::exchange_all(std::span<const std::string> lines,
                                                         std::span<const uint64_t> ids,
                                                         const std::function<bool()>& cancelled) {
  std::vector<Exchange> results(lines.size());
  AwaitAll answers;  // they arrive on the workers' strands
  for (std::size_t k = 0; k < lines.size(); ++k) {
    Lease lease = acquire();  // may suspend until an earlier answer gives its lease back
    if (!lease.worker) {
      results[k].kind = Exchange::Kind::no_worker;
      results[k].error = std::move(lease.error);
      continue;
    }
    if (cancelled && cancelled()) {
      release(std::move(lease.worker));
      results[k].kind = Exchange::Kind::cancelled;
      continue;
    }
    results[k].worker = lease.worker;
    answers.expect();
    lease.worker->request(
        lines[k],
        [this, &results, &answers, k](WorkerReply reply) {
          results[k].reply = std::move(reply);
          release(results[k].worker);
          answers.done();
        },
        ids[k]);
  }
  answers.wait();
  // A request no worker read, or one caught behind another's failure, goes through exchange()'s
  // retries.
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const WorkerReply::Outcome outcome = results[k].reply.outcome;
    if (results[k].kind != Exchange::Kind::replied) continue;
    if (outcome != WorkerReply::Outcome::not_sent && outcome != WorkerReply::Outcome::interrupted) continue;
    results[k] = exchange(lines[k], ids[k], cancelled);
    // Back at once, like the others' leases: held until the group is done, the retries of a group
    // larger than the pool's room would wait for each other.
    results[k].lease.reset();
  }
  return results;
}

void WorkerPool::shutdown() {
  std::vector<std::shared_ptr<WorkerProcess>> workers;
  {
    std::lock_guard lock(mutex_);
    if (shut_down_) return;
    shut_down_ = true;
    for (auto& worker : all_)
      if (!worker->gone()) workers.push_back(std::move(worker));
    all_.clear();
    members_.clear();
  }
  std::mutex done_mutex;
  std::condition_variable all_done;
  std::size_t remaining = workers.size();
  for (auto& worker : workers) {
    worker->shutdown([&, warn = warn_](const WorkerExit& exit) {
      if (exit.stopped && warn)
        warn(describe_exit(exit) + " did not exit within kill_grace after its stdin was closed; it was stopped");
      std::lock_guard lock(done_mutex);
      if (--remaining == 0) all_done.notify_all();
    });
  }
  std::unique_lock lock(done_mutex);
  all_done.wait(lock, [&] { return remaining == 0; });
}

std::size_t WorkerPool::started_count() const {
  std::lock_guard lock(mutex_);
  return started_;
}

}  // namespace krino::core
