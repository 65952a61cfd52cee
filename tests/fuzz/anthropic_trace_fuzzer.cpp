// The `anthropic` trace extractor (Anthropic Messages) over arbitrary bytes.
#include "messages_extractor.hpp"
#include "trace_extractor_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  krino::fuzz::extract_trace<krino::anthropic::MessagesExtractor>(data, size);
  return 0;
}
