#include "krino/core/process/worker_pool.hpp"

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
  while (!idle_.empty()) {
    std::shared_ptr<WorkerProcess> worker = std::move(idle_.back());
    idle_.pop_back();
    if (worker->usable()) {
      grant.worker = std::move(worker);
      return true;
    }
    --running_;  // died while idle (it said so through `warn`)
  }
  if (running_ < max_workers_) {
    ++running_;
    return true;
  }
  return false;
}

WorkerPool::Lease WorkerPool::acquire() {
  Grant grant = await_callback<Grant>([this](auto done) {
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
  }
  if (prepare_) {
    if (std::string why = prepare_(*started.worker); !why.empty()) {
      if (started.worker->usable())
        await_callback<WorkerExit>([&](auto done) { started.worker->stop(std::move(done)); });
      release(std::move(started.worker));  // unusable now: frees its place
      return {nullptr, std::move(why)};
    }
  }
  return {std::move(started.worker), {}};
}

void WorkerPool::release(std::shared_ptr<WorkerProcess> worker) {
  std::function<void(Grant)> waiter;
  Grant grant;
  {
    std::lock_guard lock(mutex_);
    if (worker->usable() && !shut_down_) {
      if (waiters_.empty()) {
        idle_.push_back(std::move(worker));
        return;
      }
      grant.worker = std::move(worker);
    } else {
      --running_;
      if (waiters_.empty()) return;
      ++running_;  // the waiter starts a replacement
    }
    waiter = std::move(waiters_.front());
    waiters_.pop_front();
  }
  waiter(std::move(grant));
}

void WorkerPool::give_back_slot() {
  std::function<void(Grant)> waiter;
  {
    std::lock_guard lock(mutex_);
    if (waiters_.empty()) {
      --running_;
      return;
    }
    waiter = std::move(waiters_.front());  // the place passes on: that waiter tries to start one
    waiters_.pop_front();
  }
  waiter(Grant{});
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
    idle_.clear();
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
