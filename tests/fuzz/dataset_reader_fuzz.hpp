// One fuzz input as a dataset file, read by a files resolver the way the host drives it: open,
// next() serially to the end, and decode() (or the canonical-record shortcut) for every record.
// A malformed file or record is a krino::Error, which the plugin's trampolines turn into an open
// error or an item error: expected. Anything else that escapes the resolver would reach the
// trampolines as an INTERNAL error, also not a crash; what a harness finds is a crash, a
// sanitizer report, a hang or a runaway allocation.
#ifndef KRINO_FUZZ_DATASET_READER_FUZZ_HPP
#define KRINO_FUZZ_DATASET_READER_FUZZ_HPP

#include "fuzz_input_file.hpp"

#include <krino/plugin.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

namespace krino::fuzz {

template <class Resolver>
void read_dataset(const uint8_t* data, std::size_t size, const std::string& file_name) {
  static FuzzInputFile file(file_name);
  const std::string& path = file.write(data, size);
  try {
    DatasetInfo info;
    Resolver resolver(nullptr, path, Config(boost::json::object{}), info);
    std::string record;
    std::string location;
    std::string error;
    for (;;) {
      record.clear();
      location.clear();
      error.clear();
      const Next next = resolver.next(record, location, error);
      if (next == Next::end) break;
      if (next == Next::bad) continue;
      if constexpr (requires { resolver.record_is_example(record); }) {
        if (resolver.record_is_example(record)) continue;
      }
      try {
        (void)resolver.decode(record);
      } catch (const Error&) {
      }
    }
  } catch (const Error&) {
  } catch (const std::exception&) {
  }
}

}  // namespace krino::fuzz

#endif  // KRINO_FUZZ_DATASET_READER_FUZZ_HPP
