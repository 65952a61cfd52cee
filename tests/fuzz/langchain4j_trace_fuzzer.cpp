// The `langchain4j` trace extractor (LangChain4j) over arbitrary bytes.
#include "langchain4j_extractor.hpp"
#include "trace_extractor_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  krino::fuzz::extract_trace<krino::langchain4j::LangChain4jExtractor>(data, size);
  return 0;
}
