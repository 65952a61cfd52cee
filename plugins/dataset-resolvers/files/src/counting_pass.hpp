// When a resolver reads a file twice. A dataset up to this size is counted at open (one fast scan
// that also warms the page cache for the real read): the host gets a size hint for progress and an
// ETA, and an empty dataset is refused before the run starts. Above it, a second pass over the
// file would cost more than the hint is worth, so the size hint is left out. A pipe or FIFO
// (`/dev/stdin`, `<(...)`) is never counted: its bytes come once, and a counting pass would
// consume them all and leave the real read with nothing.
#ifndef KRINO_FILES_COUNTING_PASS_HPP
#define KRINO_FILES_COUNTING_PASS_HPP

#include "buffered_file.hpp"

#include <krino/plugin.hpp>

#include <cstdint>
#include <string>

namespace krino::files {

inline constexpr uint64_t kCountingPassLimit = uint64_t{1} << 30;  // 1 GiB

inline bool worth_counting(const BufferedFile& file) {
  return file.rereadable() && file.size_on_open() <= kCountingPassLimit;
}

// The error for a counted file that holds no example at all.
inline Error no_examples_error(const std::string& path) {
  return Error(KRINO_FAILED_PRECONDITION, "'" + path + "' holds no examples");
}

}  // namespace krino::files

#endif  // KRINO_FILES_COUNTING_PASS_HPP
