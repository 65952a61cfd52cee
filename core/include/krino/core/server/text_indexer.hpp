#pragma once
// The background worker that builds ended runs' text search indexes (Store::build_text_index), on
// a thread of its own: no request ever waits for one. It looks for ended runs without a ready index
// every poll interval, so a run ended a moment ago is indexed within one, and a build cut off by a
// restart is done again at the next start. Until a run's index is ready its searches read windows
// of positions, as before (run_view_routes.cpp).
//
// A build that fails (PostgreSQL without pg_trgm and no right to create it, the database away) is
// logged and tried again after `retry_after`.
//
// Threading: start() and stop() from one thread; build_awaiting() from one thread at a time.
#include "krino/core/store/store.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace krino::core::server {

struct TextIndexOptions {
  std::chrono::milliseconds poll_interval{1000};
  std::chrono::milliseconds retry_after{60'000};
  // Items indexed per transaction: SQLite's lock is held this long (~0.1 s at 5,000 items).
  std::int64_t chunk = 5000;
};

class TextIndexer {
 public:
  explicit TextIndexer(store::Store& store, TextIndexOptions options = {});  // `store` outlives it
  ~TextIndexer();  // stop()
  TextIndexer(const TextIndexer&) = delete;
  TextIndexer& operator=(const TextIndexer&) = delete;

  void start();
  // Returns once the build under way has stopped (at the end of its chunk).
  void stop();

  // Builds every ended run's index that is not ready, one after the other; how many became ready.
  std::size_t build_awaiting();

  // Prometheus text: indexes built and builds failed since start.
  std::string metrics_text() const;

 private:
  void run();
  bool stopping() const;

  store::Store& store_;
  TextIndexOptions options_;
  std::map<std::string, std::chrono::steady_clock::time_point> failed_;  // run → not before

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;

  std::atomic<std::int64_t> built_{0};
  std::atomic<std::int64_t> failures_{0};
};

}  // namespace krino::core::server
