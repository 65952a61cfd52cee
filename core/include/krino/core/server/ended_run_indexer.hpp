#pragma once
// The background worker that prepares what an ended run is read with, on a thread of its own, so
// that neither PATCH (the run's end) nor any other request waits for it: first the run's evaluator
// distributions, summed and kept (evaluator_stats.hpp; seconds at a million items), then its text
// search index (Store::build_text_index; minutes). It looks for ended runs without a ready index
// every poll interval, so a run ended a moment ago is taken within one, and a build cut off by a
// restart is done again at the next start. Until then a run's distributions are summed by the first
// reader, and its searches read windows of positions, as before (run_view_routes.cpp).
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

struct EndedRunIndexOptions {
  std::chrono::milliseconds poll_interval{1000};
  std::chrono::milliseconds retry_after{60'000};
  // Items indexed per transaction (SQLite: in the run's own index file, which no request locks;
  // PostgreSQL: statements of the build's one transaction), and how often a stop is looked for.
  std::int64_t chunk = 2000;
  // The worker thread's nice value: requests go first when the cores are busy.
  int nice = 10;
};

class EndedRunIndexer {
 public:
  explicit EndedRunIndexer(store::Store& store, EndedRunIndexOptions options = {});  // `store` outlives it
  ~EndedRunIndexer();  // stop()
  EndedRunIndexer(const EndedRunIndexer&) = delete;
  EndedRunIndexer& operator=(const EndedRunIndexer&) = delete;

  void start();
  // Returns once the build under way has stopped (at the end of its chunk).
  void stop();

  // Keeps the distributions and builds the index of every ended run whose index is not ready, one
  // after the other; how many indexes became ready.
  std::size_t build_awaiting();

  // Prometheus text: indexes built and builds failed since start.
  std::string metrics_text() const;

 private:
  void run();
  bool stopping() const;

  store::Store& store_;
  EndedRunIndexOptions options_;
  std::map<std::string, std::chrono::steady_clock::time_point> failed_;  // run → not before

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;

  std::atomic<std::int64_t> built_{0};
  std::atomic<std::int64_t> failures_{0};
};

}  // namespace krino::core::server
