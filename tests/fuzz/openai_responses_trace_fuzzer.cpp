// The `openai_responses` trace extractor (OpenAI Responses) over arbitrary bytes.
#include "responses_extractor.hpp"
#include "trace_extractor_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  krino::fuzz::extract_trace<krino::openai::ResponsesExtractor>(data, size);
  return 0;
}
