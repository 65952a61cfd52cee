// OTLP/HTTP JSON trace ingestion over arbitrary bytes: the OTLP/JSON mapping decoded into spans,
// attributes, events and resource written as JSON text, and the response encoded.
#include "krino/core/otlp/otlp_request.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  try {
    const krino::core::otlp::DecodedSpans decoded = krino::core::otlp::decode_json_request(body);
    (void)krino::core::otlp::json_response(decoded.spans.size(), decoded.rejected, decoded.rejection_message, 1);
  } catch (const krino::core::otlp::OtlpFormatError&) {
    // Refused as a whole: the route's 400.
  }
  return 0;
}
