// The files plugin's `csv` resolver over arbitrary bytes.
#include "csv_resolver.hpp"
#include "dataset_reader_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  krino::fuzz::read_dataset<krino::files::CsvResolver>(data, size, "input.csv");
  return 0;
}
