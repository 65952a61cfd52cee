// The `langsmith` trace extractor (LangSmith runs) over arbitrary bytes.
#include "langsmith_extractor.hpp"
#include "trace_extractor_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  krino::fuzz::extract_trace<krino::langsmith::LangSmithExtractor>(data, size);
  return 0;
}
