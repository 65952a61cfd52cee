// Cuts a JSON Lines file into its non-blank lines, one at a time, with their 1-based line
// numbers. Only finds line ends (memchr over a large buffer); parsing is left to the caller, so
// this serial step stays cheap and the parsing can run in parallel.
#ifndef KRINO_FILES_JSONL_STREAM_HPP
#define KRINO_FILES_JSONL_STREAM_HPP

#include "buffered_file.hpp"

#include <cstdint>
#include <string_view>

namespace krino::files {

class JsonlStream {
 public:
  explicit JsonlStream(BufferedFile file) : file_(std::move(file)) {}

  // The next line holding anything but blanks (space, tab, CR), without its line break, a
  // trailing CR, or (on line 1) a UTF-8 byte order mark. `line` stays valid until the next call.
  // Returns false at the end of the file. Throws krino::Error on a read error.
  bool next(std::string_view& line, uint64_t& line_number);

  const BufferedFile& file() const { return file_; }

 private:
  BufferedFile file_;
  uint64_t lines_read_ = 0;
  size_t searched_ = 0;          // bytes of the window already known to hold no '\n'
  size_t consume_on_next_ = 0;   // the line handed out last, released on the next call
};

// Counts the lines JsonlStream would yield, in one memchr pass.
uint64_t count_jsonl_records(const std::string& path);

}  // namespace krino::files

#endif  // KRINO_FILES_JSONL_STREAM_HPP
