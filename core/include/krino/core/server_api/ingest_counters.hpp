#pragma once
// What ingestion has done since the server started, counted by the run routes and shown by
// GET /metrics: items and batches stored, batches a client sent again (stored once), batches refused.
//
// Threading: the counters are atomic; any thread may add or read.
#include <atomic>
#include <cstdint>

namespace krino::core::server_api {

struct IngestCounters {
  std::atomic<std::uint64_t> items_stored{0};
  std::atomic<std::uint64_t> batches_stored{0};
  std::atomic<std::uint64_t> batches_repeated{0};  // an Idempotency-Key seen before: nothing stored
  std::atomic<std::uint64_t> batches_refused{0};   // 4xx: malformed, unknown run, ended run
  std::atomic<std::uint64_t> runs_started{0};
  std::atomic<std::uint64_t> runs_ended{0};
};

}  // namespace krino::core::server_api
