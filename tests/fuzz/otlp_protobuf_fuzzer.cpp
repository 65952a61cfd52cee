// OTLP/HTTP protobuf trace ingestion over arbitrary bytes: the body inflated as gzip when it looks
// like gzip (as the route does for Content-Encoding: gzip), decoded into spans (attributes, events
// and resource written as JSON text), and the response encoded.
#include "krino/core/http_server/request_encoding.hpp"
#include "krino/core/otlp/otlp_request.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  std::string inflated;
  if (body.size() >= 2 && static_cast<unsigned char>(body[0]) == 0x1f && static_cast<unsigned char>(body[1]) == 0x8b) {
    krino::core::http_server::InflateResult result = krino::core::http_server::gunzip(body, 1 << 20);
    if (!result.body) return 0;
    inflated = std::move(*result.body);
    body = inflated;
  }
  try {
    const krino::core::otlp::DecodedSpans decoded = krino::core::otlp::decode_protobuf_request(body);
    (void)krino::core::otlp::protobuf_response(decoded.rejected, decoded.rejection_message);
  } catch (const krino::core::otlp::OtlpFormatError&) {
    // Refused as a whole: the route's 400.
  }
  return 0;
}
