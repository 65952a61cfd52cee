#include "krino/core/otlp/otlp_request.hpp"

#include "opentelemetry/proto/collector/trace/v1/trace_service.pb.h"

#include <krino/json_text.hpp>

namespace krino::core::otlp {

std::string protobuf_response(std::size_t rejected, std::string_view message) {
  opentelemetry::proto::collector::trace::v1::ExportTraceServiceResponse response;
  if (rejected > 0) {
    response.mutable_partial_success()->set_rejected_spans(static_cast<std::int64_t>(rejected));
    response.mutable_partial_success()->set_error_message(std::string(message));
  }
  return response.SerializeAsString();
}

std::string json_response(std::size_t accepted, std::size_t rejected, std::string_view message, std::size_t traces) {
  std::string out = "{";
  if (rejected > 0) {
    // int64 in the OTLP JSON mapping is a string.
    out.append("\"partialSuccess\":{\"rejectedSpans\":\"").append(std::to_string(rejected)).append("\",\"errorMessage\":");
    krino::json::append_json_string(out, message);
    out.append("},");
  }
  out.append("\"acceptedSpans\":").append(std::to_string(accepted));
  out.append(",\"rejectedSpans\":").append(std::to_string(rejected));
  out.append(",\"traces\":").append(std::to_string(traces)).append("}");
  return out;
}

}  // namespace krino::core::otlp
