// The gate's baseline reader over arbitrary bytes: the file read and validated, then turned into
// the comparison's baseline side under both pairings. A bad baseline is a KrinoError that `krino
// run` reports and exits on: expected. What the harness finds is a crash, a sanitizer report, a
// hang or a runaway allocation.
#include "fuzz_input_file.hpp"

#include "krino/core/gate/baseline_file.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static krino::fuzz::FuzzInputFile file("baseline.json");
  const std::string& path = file.write(data, size);
  try {
    const krino::core::Baseline baseline = krino::core::read_baseline(path);
    for (const krino::core::Pairing pairing : {krino::core::Pairing::positional, krino::core::Pairing::dataset_item_id}) {
      try {
        (void)krino::core::side_from_baseline(baseline, pairing);
      } catch (const std::exception&) {
      }
    }
  } catch (const std::exception&) {
  }
  return 0;
}
