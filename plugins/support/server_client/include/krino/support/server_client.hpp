// The results server's run endpoints as the reporter and `krino upload` use them: create a run, send
// a batch of items under its Idempotency-Key, set a run's status. Each call is tried again on a 429,
// a 5xx, a timeout or a broken connection: `retries` more times after the first (so 3 retries are
// 4 attempts), waiting 100 ms, 200 ms, 400 ms, ... between them, or what a Retry-After header asks
// (in seconds, at most a minute). Any other 4xx is final at once. The same key goes with every
// attempt of a batch, so a batch the server stored before its answer was lost is stored once.
//
// Threads: one caller at a time (the reporter's worker, or upload's loop).
#ifndef KRINO_SERVER_SERVER_CLIENT_HPP
#define KRINO_SERVER_SERVER_CLIENT_HPP

#include <krino/support/server_transport.hpp>

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

namespace krino::server {

struct RetrySettings {
  int retries = 3;
  std::chrono::milliseconds first_backoff{100};
  std::chrono::milliseconds max_retry_after{60'000};
  uint32_t timeout_ms = 30'000;
};

// How a call ended.
struct CallOutcome {
  enum class Kind {
    delivered,    // a 2xx
    rejected,     // a 4xx other than 408 and 429: sending it again would not help
    unreachable,  // no answer, or a 429/5xx, after every attempt
  };
  Kind kind = Kind::unreachable;
  int attempts = 0;
  int status = 0;       // the last answer's HTTP status; 0 without one
  std::string body;     // the last answer's body
  std::string message;  // for the log: what failed, never the key

  bool delivered() const { return kind == Kind::delivered; }
};

// Waits between attempts; tests record the waits instead of sleeping.
using Sleeper = std::function<void(std::chrono::milliseconds)>;
Sleeper real_sleeper();

// A new random (version 4) UUID, as the Idempotency-Key of one batch.
std::string random_uuid();

class ServerClient {
 public:
  ServerClient(std::string base_url, std::string api_key, RetrySettings settings, Transport& transport,
               Sleeper sleeper = real_sleeper());

  // POST /api/v1/projects/{project}/runs. On delivery `run_id` holds the server's id.
  // `dataset_version` (may be empty) goes as the run's datasetVersion.
  CallOutcome create_run(const std::string& project, const std::string& experiment, std::string_view metadata_json,
                         std::string& run_id, std::string_view dataset_version = {});
  // POST /api/v1/runs/{run}/items with `items_json`, a JSON array of ItemData.
  CallOutcome post_items(const std::string& run_id, const std::string& idempotency_key, std::string_view items_json);
  // PATCH /api/v1/runs/{run}: SUCCESS, FAILED or CANCELLED.
  CallOutcome set_status(const std::string& run_id, const std::string& status);
  // GET `path` (from the base URL, starting with '/'), with the same retries: what the dataset
  // resolver reads a server dataset with.
  CallOutcome get(const std::string& path) { return call("GET", path, {}, {}); }

  // Checked before every retry: once it answers true, a call stops trying (the run's end is out of
  // time) and ends unreachable.
  void set_abandon(std::function<bool()> abandon) { abandon_ = std::move(abandon); }

  const std::string& base_url() const { return base_url_; }

 private:
  CallOutcome call(std::string_view method, const std::string& path, std::string_view body,
                   const std::string& idempotency_key);

  std::string base_url_;
  std::string api_key_;
  RetrySettings settings_;
  Transport& transport_;
  Sleeper sleeper_;
  std::function<bool()> abandon_;
};

// A path segment with everything but unreserved characters percent-encoded ("a b" -> "a%20b").
std::string encode_path_segment(std::string_view text);

}  // namespace krino::server

#endif  // KRINO_SERVER_SERVER_CLIENT_HPP
