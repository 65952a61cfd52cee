#pragma once
// The spans of a decoded ExportTraceServiceRequest, checked one by one (internal to otlp): what both
// the protobuf and the JSON decoder end with.
#include "krino/core/otlp/otlp_request.hpp"

#include "opentelemetry/proto/collector/trace/v1/trace_service.pb.h"

#include <cstddef>
#include <string>
#include <vector>

namespace krino::core::otlp {

// Counts spans left out and keeps the first few reasons.
class Rejections {
 public:
  void add(const std::string& where, std::string_view reason);
  std::size_t count() const { return count_; }
  std::string message() const;

 private:
  std::size_t count_ = 0;
  std::string message_;
};

// "resourceSpans[r].scopeSpans[s].spans[i]".
std::string span_place(int resource, int scope, int span);

// Where each span of the message was in the body it came from: origins[r][s][i] is the place of the
// message's span i of scope s of resource r (the JSON decoder leaves out spans it already rejected,
// so the places differ from the message's).
using SpanOrigins = std::vector<std::vector<std::vector<int>>>;

// Every valid span of `request` as the store keeps it; the others counted in `rejections`, named by
// their place in the body (`origins`, or the message's own places when null).
DecodedSpans request_spans(const opentelemetry::proto::collector::trace::v1::ExportTraceServiceRequest& request, Rejections& rejections,
                           const SpanOrigins* origins = nullptr);

}  // namespace krino::core::otlp
