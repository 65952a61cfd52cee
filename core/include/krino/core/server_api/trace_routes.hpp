#pragma once
// Production traces (docs/server.md, Traces):
//   POST /v1/traces, POST /api/v1/traces
//        an OTLP ExportTraceServiceRequest: Content-Type application/x-protobuf (or application/protobuf)
//        or application/json; Content-Encoding gzip accepted. 200 in the request's own encoding:
//        ExportTraceServiceResponse, partial_success set when spans were rejected (JSON adds
//        acceptedSpans, rejectedSpans and traces). 400 for a body that is no export, 413 for a gzip
//        body that inflates past the limit, 415 for another content type or encoding.
//   GET  /api/v1/traces?project=&name=&from=&to=&errors=true&limit=50&cursor=
//        {"traces":[summary], "nextCursor": text | null}, newest start first (keyset pages; `from`
//        and `to` are Unix nanoseconds bounding the start, `name` the root span's name); each
//        summary counts its online evaluations (evaluationCount, failedEvaluationCount)
//   GET  /api/v1/traces/{traceId}
//        the summary, its spans in tree order (each with its depth and children's ids), its online
//        evaluations (oldest first), and the canonical trace (krino.trace/1) the otel trace
//        extractor reads from them, when the server has one.
// Writes need EDITOR when auth is on; traces are stamped with the key's tenant.
#include "krino/core/http_server/router.hpp"
#include "krino/core/server_api/auth.hpp"
#include "krino/core/server_api/trace_eval_matcher.hpp"
#include "krino/core/store/store.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace krino::core::server_api {

// The canonical trace of spans given as a JSON list of spans (the API's own span objects, which the
// otel extractor reads as a span list): its krino.trace/1 text, or why there is none.
struct CanonicalTraceResult {
  std::optional<std::string> trace;
  std::string error;
};
using CanonicalTraceFunction = std::function<CanonicalTraceResult(std::string_view spans_json)>;

struct TraceRouteOptions {
  std::size_t max_inflated_bytes = 64ull * 1024 * 1024;  // a gzip body's bound once inflated
  CanonicalTraceFunction canonical_trace;                 // empty: traces are shown without one
  std::function<std::int64_t()> now_ms;                   // the clock stamping received traces; empty: the system's
  // Matches each accepted export against the trace eval rules and counts its spans; none: no
  // online evaluation.
  std::shared_ptr<TraceEvalMatcher> matcher;
};

// The JSON list of spans the API shows (and the extractor reads), in the order given.
std::string spans_json(const std::vector<store::SpanRecord>& spans);

void add_trace_routes(http_server::Router& router, store::Store& store, const Authenticator& auth, TraceRouteOptions options);

}  // namespace krino::core::server_api
