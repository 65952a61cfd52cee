#include "krino/core/server/trace_sweeper.hpp"

#include <krino/json_text.hpp>

#include <cstdio>
#include <exception>

namespace krino::core::server {

TraceSweeper::TraceSweeper(store::Store& store, TraceRetentionOptions options) : store_(store), options_(std::move(options)) {}

TraceSweeper::~TraceSweeper() { stop(); }

std::size_t TraceSweeper::sweep() {
  if (!options_.retention) return 0;
  const std::int64_t now = options_.now_ms ? options_.now_ms()
                                           : std::chrono::duration_cast<std::chrono::milliseconds>(
                                                 std::chrono::system_clock::now().time_since_epoch())
                                                 .count();
  const std::int64_t cutoff = now - options_.retention->count();
  std::size_t deleted = 0;
  for (;;) {
    const std::size_t batch = store_.delete_traces_received_before(cutoff, options_.batch);
    deleted += batch;
    if (batch < options_.batch) break;
    const std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) break;
  }
  return deleted;
}

void TraceSweeper::start() {
  if (!options_.retention || thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
      lock.unlock();
      try {
        sweep();
      } catch (const std::exception& error) {
        // The database was away: the next sweep tries again.
        std::string line = "{\"event\":\"trace_retention_failed\",\"message\":";
        krino::json::append_json_string(line, error.what());
        line += "}\n";
        std::fwrite(line.data(), 1, line.size(), stderr);
      }
      lock.lock();
      wake_.wait_for(lock, options_.sweep_interval, [this] { return stopping_; });
    }
  });
}

void TraceSweeper::stop() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace krino::core::server
