// The files plugin's `jsonl` resolver over arbitrary bytes.
#include "dataset_reader_fuzz.hpp"
#include "jsonl_resolver.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  krino::fuzz::read_dataset<krino::files::JsonlResolver>(data, size, "input.jsonl");
  return 0;
}
