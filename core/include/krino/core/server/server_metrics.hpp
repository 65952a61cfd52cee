#pragma once
// What GET /metrics reports, in Prometheus' text format (version 0.0.4): requests by method and
// status code, a histogram of their durations (fed by the HTTP server's access records), what
// ingestion stored (counted by the run routes), and how many requests wait for a handler.
//
// Threading: record() and text() may be called from any thread.
#include "krino/core/http_server/http_server.hpp"
#include "krino/core/server_api/ingest_counters.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace krino::core::server {

class ServerMetrics {
 public:
  void record(const http_server::AccessRecord& record);
  // `pending_handlers`: HttpServer::pending_handlers() now.
  std::string text(std::size_t pending_handlers) const;

  server_api::IngestCounters ingest;  // the run routes count into it

 private:
  // Upper bounds of the duration buckets, in seconds (the last, +Inf, is implied).
  static constexpr std::array<double, 12> kBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0};

  mutable std::mutex mutex_;
  std::map<std::pair<std::string, unsigned>, std::uint64_t> requests_;  // (method, status) -> count
  std::array<std::uint64_t, kBuckets.size()> bucket_counts_{};           // not cumulative; summed when written
  std::uint64_t count_ = 0;
  double seconds_sum_ = 0.0;
};

}  // namespace krino::core::server
