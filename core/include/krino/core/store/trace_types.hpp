#pragma once
// What the store keeps of production traces (OTLP spans sent to POST /v1/traces): one row per span
// and one per trace, in tables of their own, apart from experiment data. A span is kept as the
// exporter described it, in plain JSON: attributes as one object (integers exact, doubles bit for
// bit), events as a list, the resource's attributes as an object; ids as lower-case hex; times as
// Unix nanoseconds, exact integers. Beside it, the input and output read from its attributes
// (otlp/span_fields.hpp). A trace row sums its spans: first start, last end, span and error
// counts, the root span's name, input and output, and when the server last received a span of it
// (what retention looks at).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace krino::core::store {

struct SpanRecord {
  std::string trace_id;        // 32 lower-case hex digits
  std::string span_id;         // 16
  std::string parent_span_id;  // 16, or "" for a root span
  std::string name;
  int kind = 0;                // SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer
  std::int64_t start_ns = 0;   // Unix nanoseconds
  std::int64_t end_ns = 0;
  int status_code = 0;         // 0 unset, 1 ok, 2 error
  std::string status_message;
  std::string attributes = "{}";  // JSON object
  std::string events = "[]";      // JSON list of {"name", "timeUnixNano" (decimal text), "attributes"}
  std::string resource = "{}";    // JSON object: the resource's attributes
  std::string scope_name;         // the instrumentation scope
  std::string scope_version;
  std::optional<std::string> project = std::nullopt;  // from the resource (otlp/span_fields.hpp)
  std::optional<std::string> input = std::nullopt;
  std::optional<std::string> output = std::nullopt;
};

struct SpanIngestOutcome {
  std::size_t stored = 0;       // new spans (a span sent again, same trace and span id, is kept once)
  std::size_t duplicates = 0;
  std::size_t traces = 0;       // distinct traces the batch touched
};

struct TraceSummary {
  std::string trace_id;
  std::optional<std::string> project = std::nullopt;
  std::optional<std::string> root_span_id = std::nullopt;  // none until the root span arrives
  std::optional<std::string> root_name = std::nullopt;
  std::int64_t start_ns = 0;  // the earliest start of its spans
  std::int64_t end_ns = 0;    // the latest end
  std::int64_t span_count = 0;
  std::int64_t error_count = 0;  // spans with status ERROR
  std::optional<std::string> input = std::nullopt;   // the root span's
  std::optional<std::string> output = std::nullopt;
  std::int64_t received_at_ms = 0;  // Unix ms of the last batch with a span of it
  // Its online evaluations (online_eval_types.hpp) and how many did not pass (errors included);
  // counted by traces(), not by trace() (which reads the evaluations themselves).
  std::int64_t evaluation_count = 0;
  std::int64_t failed_evaluation_count = 0;
};

// A page of traces, newest start first; the keyset cursor is the last row's (start_ns, trace_id).
struct TraceFilter {
  std::optional<std::string> project = std::nullopt;
  std::optional<std::string> root_name = std::nullopt;
  std::optional<std::int64_t> start_from_ns = std::nullopt;  // start_ns >= this
  std::optional<std::int64_t> start_before_ns = std::nullopt;  // start_ns < this
  bool errors_only = false;
  std::optional<std::int64_t> after_start_ns = std::nullopt;  // the cursor: rows after (start, id) in the order
  std::optional<std::string> after_trace_id = std::nullopt;
  std::size_t limit = 50;
};

struct TracePage {
  std::vector<TraceSummary> traces;
  bool more = false;  // another page follows the last row
};

struct StoredTrace {
  TraceSummary summary;
  std::vector<SpanRecord> spans;  // by start, then span id
};

}  // namespace krino::core::store
