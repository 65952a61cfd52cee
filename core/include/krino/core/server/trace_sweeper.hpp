#pragma once
// Retention of production traces: a thread of `krino serve` that, every `sweep_interval`, deletes
// the traces last received more than `retention` ago, a small batch per transaction (so a sweep
// never holds the database for long while ingestion goes on), until none is left. Any replica may
// sweep: PostgreSQL hands two sweepers different traces (store.hpp).
// Threading: start() and stop() from one thread.
#include "krino/core/store/store.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace krino::core::server {

struct TraceRetentionOptions {
  // How long a trace is kept after its last span arrived; nullopt: forever (the default: the
  // server deletes nothing it was sent unless told to).
  std::optional<std::chrono::milliseconds> retention;
  std::chrono::milliseconds sweep_interval{std::chrono::hours(1)};
  std::size_t batch = 500;  // traces deleted per transaction
  std::function<std::int64_t()> now_ms;  // Unix ms; empty: the system clock (tests inject one)
};

class TraceSweeper {
 public:
  TraceSweeper(store::Store& store, TraceRetentionOptions options);
  ~TraceSweeper();  // stop()

  // Starts the thread (nothing when there is no retention).
  void start();
  void stop();

  // One sweep now, on the caller's thread: how many traces it deleted.
  std::size_t sweep();

 private:
  store::Store& store_;
  TraceRetentionOptions options_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace krino::core::server
