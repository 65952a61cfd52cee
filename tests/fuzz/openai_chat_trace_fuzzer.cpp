// The `openai_chat` trace extractor (OpenAI Chat Completions) over arbitrary bytes.
#include "chat_completions_extractor.hpp"
#include "trace_extractor_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  krino::fuzz::extract_trace<krino::openai::ChatCompletionsExtractor>(data, size);
  return 0;
}
