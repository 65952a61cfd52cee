#pragma once
// Matches the spans of an accepted OTLP export against the tenant's enabled trace eval rules and
// queues what matches for online evaluation (store/online_eval_types.hpp). Ingestion must not slow
// down for it: the rules live in memory, per tenant, read from the store at most every
// `refresh_ms` (a rule changed through this server's routes is seen at once: they call
// invalidate(); another replica's change within refresh_ms), and an export no rule matches costs
// no database work at all.
//
// A rule matches a span when each condition it sets holds: the span's derived project equals its
// `project`, its name matches `spanName` (a glob: `*` any run of characters, `?` one; without
// either, the exact name), it has the attribute `attribute.key` (equal to `attribute.value` when
// the rule gives one: the same JSON value, of the same type). A SPAN rule queues one evaluation
// per matching span, a TRACE rule one per trace with a matching span, due `trace_delay_ms` later
// so the trace's other spans have arrived when it is scored.
//
// Sampling is decided, not drawn: a 64-bit FNV-1a hash of the rule id and the trace id (and, for a
// SPAN rule, the span id), mixed by MurmurHash3's finaliser and read as a number in [0, 1), is kept
// when below the rule's rate. An
// export sent again, or the same trace seen by two replicas, decides the same; the job's dedupe key
// keeps it queued once.
//
// Threading: every member may be called from any thread.
#include "krino/core/store/store.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace krino::core::server_api {

struct TraceEvalMatcherOptions {
  std::int64_t trace_delay_ms = 5000;  // --online-eval-delay-ms: how long a TRACE rule waits for the trace to settle
  std::int64_t refresh_ms = 5000;      // how stale a tenant's cached rules may be (changes made on other replicas)
  std::int64_t max_attempts = 3;       // claims of one online_eval job before it is written as an error
  std::function<std::int64_t()> now_ms;  // empty: the system clock
  std::function<void()> enqueued;        // called when jobs were queued (wakes the local workers)
};

// The sampling decision, exposed for tests: the hash of the ids read as a number in [0, 1).
double sampling_point(std::string_view rule_id, std::string_view trace_id, std::string_view span_id);
// `pattern` with `*` and `?` as wildcards, over bytes.
bool glob_match(std::string_view pattern, std::string_view text);

// What online evaluation has done on this server since it started, for GET /metrics: spans
// received, matches queued or sampled out (the matcher), evaluations written (the workers).
struct OnlineEvalCounters {
  std::atomic<std::uint64_t> spans_accepted{0};
  std::atomic<std::uint64_t> spans_rejected{0};
  std::atomic<std::uint64_t> enqueued{0};
  std::atomic<std::uint64_t> sampled_out{0};
  std::atomic<std::uint64_t> enqueue_failed{0};  // matches lost: the store refused to queue them
  std::atomic<std::uint64_t> scored{0};
  std::atomic<std::uint64_t> errors{0};  // evaluations written as an error with its cause
};
std::string online_eval_metrics_text(const OnlineEvalCounters& counters);

class TraceEvalMatcher {
 public:
  TraceEvalMatcher(store::Store& store, TraceEvalMatcherOptions options = {});
  ~TraceEvalMatcher();

  // Matches the spans (stored for `tenant`) and queues the sampled matches. Never throws: a
  // failure to queue is counted and logged, the export stays accepted.
  void match(const std::optional<std::string>& tenant, std::span<const store::SpanRecord> spans);
  void invalidate();  // the rules changed: read them again on the next export

  void count_spans(std::size_t accepted, std::size_t rejected);
  OnlineEvalCounters& counters() { return counters_; }

 private:
  struct CompiledRule;
  struct TenantRules;
  std::shared_ptr<const TenantRules> rules_of(const std::optional<std::string>& tenant, std::int64_t now);
  std::int64_t now() const;

  store::Store& store_;
  TraceEvalMatcherOptions options_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const TenantRules>> cache_;  // by tenant ("" with a leading marker for none)
  std::atomic<std::uint64_t> generation_{0};
  OnlineEvalCounters counters_;
};

}  // namespace krino::core::server_api
