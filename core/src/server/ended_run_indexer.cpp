#include "krino/core/server/ended_run_indexer.hpp"

#include "krino/core/store/evaluator_stats.hpp"

#include <krino/json_text.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>

namespace krino::core::server {

namespace {

void log_index_event(std::string line) {
  line += "}\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace

EndedRunIndexer::EndedRunIndexer(store::Store& store, EndedRunIndexOptions options) : store_(store), options_(options) {}

EndedRunIndexer::~EndedRunIndexer() { stop(); }

void EndedRunIndexer::start() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
}

void EndedRunIndexer::stop() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool EndedRunIndexer::stopping() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return stopping_;
}

std::size_t EndedRunIndexer::build_awaiting() {
  std::size_t ready = 0;
  const auto now = std::chrono::steady_clock::now();
  for (const std::string& run_id : store_.runs_awaiting_text_index(64)) {
    if (stopping()) break;
    const auto failed = failed_.find(run_id);
    if (failed != failed_.end() && failed->second > now) continue;
    const auto started = std::chrono::steady_clock::now();
    try {
      store::evaluator_stats(store_, store::Scope{}, run_id);  // kept once summed: nothing when kept already
      if (!store_.build_text_index(run_id, options_.chunk, [this] { return !stopping(); })) continue;
    } catch (const std::exception& error) {
      ++failures_;
      failed_[run_id] = std::chrono::steady_clock::now() + options_.retry_after;
      std::string line = "{\"event\":\"text_index_failed\",\"runId\":";
      krino::json::append_json_string(line, run_id);
      line += ",\"message\":";
      krino::json::append_json_string(line, error.what());
      log_index_event(std::move(line));
      continue;
    }
    failed_.erase(run_id);
    ++built_;
    ++ready;
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    std::string line = "{\"event\":\"text_index_built\",\"runId\":";
    krino::json::append_json_string(line, run_id);
    line.append(",\"durationMs\":").append(std::to_string(took.count()));
    log_index_event(std::move(line));
  }
  return ready;
}

void EndedRunIndexer::run() {
  // Below the request threads: a build takes a core for minutes at a million items, which the
  // pages being read meanwhile should not have to share evenly (Linux: a thread's own nice value).
  setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), options_.nice);
  for (;;) {
    try {
      build_awaiting();
    } catch (const std::exception& error) {
      // The database is away for a moment: the next poll looks again.
      std::string line = "{\"event\":\"text_index_error\",\"message\":";
      krino::json::append_json_string(line, error.what());
      log_index_event(std::move(line));
    }
    std::unique_lock<std::mutex> lock(mutex_);
    if (stopping_) return;
    wake_.wait_for(lock, options_.poll_interval, [this] { return stopping_; });
    if (stopping_) return;
  }
}

std::string EndedRunIndexer::metrics_text() const {
  std::string out;
  out += "# HELP krino_text_indexes_built_total Runs whose text search index was built since start.\n";
  out += "# TYPE krino_text_indexes_built_total counter\n";
  out.append("krino_text_indexes_built_total ").append(std::to_string(built_.load())).append("\n");
  out += "# HELP krino_text_index_failures_total Text search index builds that failed since start.\n";
  out += "# TYPE krino_text_index_failures_total counter\n";
  out.append("krino_text_index_failures_total ").append(std::to_string(failures_.load())).append("\n");
  return out;
}

}  // namespace krino::core::server
