// The protobuf encoding: protobuf's own parser (lite runtime), then the common span checks.
#include "krino/core/otlp/otlp_request.hpp"

#include "request_spans.hpp"

#include <limits>

namespace krino::core::otlp {

DecodedSpans decode_protobuf_request(std::string_view body) {
  opentelemetry::proto::collector::trace::v1::ExportTraceServiceRequest request;
  if (body.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
      !request.ParseFromArray(body.data(), static_cast<int>(body.size())))
    throw OtlpFormatError("the body is not an OTLP ExportTraceServiceRequest in protobuf");
  Rejections rejections;
  return request_spans(request, rejections);
}

}  // namespace krino::core::otlp
