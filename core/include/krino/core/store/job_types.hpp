#pragma once
// The store's generic queue of background work, shared by every replica on one database. A job has
// a kind (what the worker that claims it does: "judge_page", "online_eval"), a payload (JSON text
// the kind's handler reads), and a lifecycle:
//
//   QUEUED --claim--> RUNNING (lease: owner, token, expiry) --complete--> DONE
//                         |  \--retry (error, when)--> QUEUED again      \--fail--> FAILED
//                         \--lease runs out (its worker died)--> claimable again
//
// A claim counts an attempt and hands out a fresh lease token. Every later call on the job names
// that token, so a worker whose lease ran out and was taken over (a "zombie") can change nothing:
// the token is the fence. Attempts are bounded by the job's max_attempts: a claim that would
// exceed them hands the job out one last time with `exhausted` set, for its handler to record
// the failure (it must then complete or fail it, not do the work again).
#include <cstdint>
#include <optional>
#include <string>

namespace krino::core::store {

struct NewJob {
  std::string kind;
  std::string payload = "{}";
  std::optional<std::string> tenant = std::nullopt;    // whose work it is (the scope its handler acts in)
  std::optional<std::string> group_id = std::nullopt;  // the larger piece of work it is part of (a UUID)
  std::int64_t max_attempts = 3;
  std::int64_t available_at_ms = 0;  // not claimed before this Unix time (ms)
};

struct ClaimedJob {
  std::string id;
  std::string kind;
  std::string payload;
  std::optional<std::string> tenant;
  std::optional<std::string> group_id;
  std::int64_t attempts = 0;  // this claim included
  std::int64_t max_attempts = 0;
  std::string lease_token;  // names this claim in renew / complete / retry / fail
  std::optional<std::string> last_error;  // why the previous attempt ended, if it said
  bool exhausted = false;  // attempts > max_attempts: record the failure, do not work
};

struct JobQueueDepth {
  std::int64_t queued = 0;
  std::int64_t running = 0;
  std::int64_t failed = 0;
};

}  // namespace krino::core::store
