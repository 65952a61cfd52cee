// The `otel` trace extractor (OpenTelemetry GenAI spans) over arbitrary bytes.
#include "otel_extractor.hpp"
#include "trace_extractor_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  krino::fuzz::extract_trace<krino::otel::OtelExtractor>(data, size);
  return 0;
}
