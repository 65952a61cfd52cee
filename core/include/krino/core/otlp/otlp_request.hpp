#pragma once
// An OTLP trace export (ExportTraceServiceRequest) as the spans the store keeps: from its protobuf
// encoding (application/x-protobuf, the OpenTelemetry exporters' default) or its JSON mapping
// (application/json: hex ids, lowerCamelCase names, 64-bit integers as strings or numbers, enums as
// numbers or names). Both encodings go through the same message type (the official .proto files,
// third_party/opentelemetry-proto), so the same export gives the same spans either way.
//
// One bad span never fails the export: it is left out and counted, with the reason (no trace id, an
// id of the wrong length, no name, a time past 2262, a malformed member in JSON). Only a body that
// is not an export at all (not protobuf, not a JSON object) is an error.
#include "krino/core/store/trace_types.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core::otlp {

// The body could not be read as an export: the request is refused as a whole (HTTP 400).
class OtlpFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct DecodedSpans {
  std::vector<store::SpanRecord> spans;
  std::size_t rejected = 0;
  // Why spans were rejected: the first few reasons, each naming the span by its place
  // ("resourceSpans[0].scopeSpans[1].spans[4]: no traceId"); "" when none was.
  std::string rejection_message;
};

DecodedSpans decode_protobuf_request(std::string_view body);
DecodedSpans decode_json_request(std::string_view body);

// ExportTraceServiceResponse: partial_success set only when spans were rejected (the OTLP rule).
std::string protobuf_response(std::size_t rejected, std::string_view message);
// The same in the JSON mapping, with the Dokimos server's counts beside it:
// {"partialSuccess":{"rejectedSpans":"2","errorMessage":"..."},"acceptedSpans":8,"rejectedSpans":2,"traces":3}
std::string json_response(std::size_t accepted, std::size_t rejected, std::string_view message, std::size_t traces);

}  // namespace krino::core::otlp
