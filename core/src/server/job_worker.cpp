#include "krino/core/server/job_worker.hpp"

#include "krino/core/store/uuid_v7.hpp"

#include <krino/json_text.hpp>

#include <cstdio>

namespace krino::core::server {

namespace {

std::int64_t job_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// One JSON line on stderr, as the access log writes them.
void log_job(std::string_view event, const store::ClaimedJob& job, std::string_view message) {
  std::string line = "{\"event\":";
  krino::json::append_json_string(line, event);
  line.append(",\"jobId\":");
  krino::json::append_json_string(line, job.id);
  line.append(",\"kind\":");
  krino::json::append_json_string(line, job.kind);
  line.append(",\"attempt\":").append(std::to_string(job.attempts));
  line.append(",\"message\":");
  krino::json::append_json_string(line, message);
  line.append("}\n");
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace

JobWorker::JobWorker(store::Store& store, JobWorkerOptions options)
    : store_(store), options_(options), owner_("krino-" + store::to_text(store::UuidV7Generator().next())) {}

JobWorker::~JobWorker() { stop(); }

void JobWorker::handle(std::string kind, JobHandler handler) {
  kinds_.push_back(kind);
  handlers_[std::move(kind)] = std::move(handler);
}

void JobWorker::start() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!threads_.empty() || kinds_.empty()) return;
  stopping_ = false;
  for (int slot = 0; slot < std::max(1, options_.slots); ++slot) threads_.emplace_back([this] { run_slot(); });
  threads_.emplace_back([this] { run_heartbeat(); });
}

void JobWorker::stop() {
  std::vector<std::thread> threads;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    for (auto& [id, held] : held_) held.lost->request();
    threads.swap(threads_);
  }
  wake_.notify_all();
  for (std::thread& thread : threads)
    if (thread.joinable()) thread.join();
}

void JobWorker::wake() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    ++wakes_;
  }
  wake_.notify_all();
}

void JobWorker::run_slot() {
  for (;;) {
    std::uint64_t seen = 0;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
      seen = wakes_;
    }
    bool busy = false;
    try {
      busy = work_once();
    } catch (const std::exception& error) {
      // The database is away for a moment: what was claimed comes back when its lease ends.
      std::string line = "{\"event\":\"job_worker_error\",\"message\":";
      krino::json::append_json_string(line, error.what());
      line.append("}\n");
      std::fwrite(line.data(), 1, line.size(), stderr);
    }
    std::unique_lock<std::mutex> lock(mutex_);
    if (stopping_) return;
    if (!busy) wake_.wait_for(lock, options_.poll_interval, [&] { return stopping_ || wakes_ != seen; });
  }
}

bool JobWorker::work_once() {
  const auto claimed = store_.claim_job(owner_, kinds_, job_now_ms(), options_.lease.count());
  if (!claimed) return false;
  ++claimed_;
  auto lost = std::make_shared<Cancellation>();
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) lost->request();
    held_[claimed->id] = Held{claimed->id, claimed->lease_token, lost};
  }
  try {
    handlers_.at(claimed->kind)(*claimed, *lost);
    ++handled_;
  } catch (const std::exception& error) {
    ++thrown_;
    log_job("job_failed_attempt", *claimed, error.what());
    // Back to the queue: the claim past its attempts comes `exhausted`, and its handler records
    // the failure in its own terms (a judge page's items become errors). Only a handler that
    // fails even at that ends the job FAILED here.
    if (claimed->exhausted)
      store_.fail_job(claimed->id, claimed->lease_token, error.what());
    else
      store_.retry_job(claimed->id, claimed->lease_token, error.what(), job_now_ms() + options_.retry_delay.count());
  }
  bool stopping = false;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    held_.erase(claimed->id);
    stopping = stopping_;
  }
  // Stopped mid-job: hand it back at once rather than when the lease runs out (false, and nothing
  // changed, when the handler ended it).
  if (stopping) store_.retry_job(claimed->id, claimed->lease_token, "the server holding it stopped", job_now_ms());
  return true;
}

void JobWorker::run_heartbeat() {
  const auto period = std::max(std::chrono::milliseconds(1), options_.lease / 3);
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, period, [this] { return stopping_; });
    if (stopping_) return;
    std::vector<Held> held;
    for (const auto& [id, one] : held_) held.push_back(one);
    lock.unlock();
    std::vector<const Held*> refused;
    for (const Held& one : held) {
      try {
        if (!store_.renew_job_lease(one.job_id, one.token, job_now_ms(), options_.lease.count())) refused.push_back(&one);
      } catch (const std::exception&) {
        // The database is away: try again at the next beat, while the lease still runs.
      }
    }
    lock.lock();
    // Refused while its handler still works: another replica holds the job now, so stop. (A job
    // its handler has just ended is refused too, and is no longer held.)
    for (const Held* one : refused)
      if (held_.count(one->job_id) && !one->lost->requested()) {
        ++leases_lost_;
        one->lost->request();
      }
  }
}

std::string JobWorker::metrics_text() const {
  std::string out;
  out.append("# HELP krino_jobs_total Background jobs (judge pages, ...) claimed by this server, by what came of them.\n");
  out.append("# TYPE krino_jobs_total counter\n");
  out.append("krino_jobs_total{outcome=\"claimed\"} ").append(std::to_string(claimed_.load())).append("\n");
  out.append("krino_jobs_total{outcome=\"handled\"} ").append(std::to_string(handled_.load())).append("\n");
  out.append("krino_jobs_total{outcome=\"thrown\"} ").append(std::to_string(thrown_.load())).append("\n");
  out.append("krino_jobs_total{outcome=\"lease_lost\"} ").append(std::to_string(leases_lost_.load())).append("\n");
  return out;
}

}  // namespace krino::core::server
