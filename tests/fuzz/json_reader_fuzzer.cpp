// The files plugin's `json` resolver over arbitrary bytes.
#include "dataset_reader_fuzz.hpp"
#include "json_resolver.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  krino::fuzz::read_dataset<krino::files::JsonResolver>(data, size, "input.json");
  return 0;
}
