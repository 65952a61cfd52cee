// Appends JSON documents to a file (or stdout) as JSON Lines, through a large buffer that only
// ever reaches the file in whole lines: after flush(), and between flushes whenever the buffer
// is written out, the file ends with a complete line.
#ifndef KRINO_JSONL_JSONL_WRITER_HPP
#define KRINO_JSONL_JSONL_WRITER_HPP

#include <cstddef>
#include <string>
#include <string_view>

namespace krino::jsonl {

class JsonlWriter {
 public:
  static constexpr std::size_t kDefaultBufferSize = std::size_t{1} << 20;

  // Opens `path` for writing; "-" is the process's stdout. Creates missing parent directories.
  // `append` keeps what the file holds; otherwise it is truncated. Throws krino::Error naming
  // the path and the operating system's reason when the file cannot be opened.
  JsonlWriter(const std::string& path, bool append, std::size_t buffer_size = kDefaultBufferSize);
  // Flushes what is buffered (errors cannot be reported here and are dropped) and closes.
  ~JsonlWriter();
  JsonlWriter(const JsonlWriter&) = delete;
  JsonlWriter& operator=(const JsonlWriter&) = delete;

  // Buffers one line: `document` (one JSON value; a line break in it can only be whitespace
  // between tokens and becomes a space; whitespace at its ends is dropped) and "\n".
  // Throws krino::Error when the buffer had to be written out and that failed.
  void write_line(std::string_view document);
  // Hands everything buffered to the operating system. Throws krino::Error on a write error;
  // what could not be written stays buffered for the next attempt.
  void flush();
  // Asks the operating system to put the file on the disk (fsync). Standard output, a pipe or a
  // device is left alone. Throws krino::Error when the disk reports a failure.
  void sync();

  const std::string& path() const { return path_; }
  std::size_t buffered() const { return buffer_.size(); }

 private:
  std::string path_;
  int fd_ = -1;
  bool owns_fd_ = false;
  std::size_t capacity_;
  std::string buffer_;
};

}  // namespace krino::jsonl

#endif  // KRINO_JSONL_JSONL_WRITER_HPP
