// A sequential reader over one file with a large, growable buffer. Readers scan the loaded bytes in
// place (memchr and friends) and copy out only what they keep, so nothing is allocated per record
// and a file of any size is read in bounded memory: the buffer grows only to hold the longest
// record that a reader asks to keep in view.
#ifndef KRINO_FILES_BUFFERED_FILE_HPP
#define KRINO_FILES_BUFFERED_FILE_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace krino::files {

class BufferedFile {
 public:
  // Bytes asked of the OS per read. Big enough that syscalls vanish from profiles.
  static constexpr size_t kDefaultChunkSize = size_t{1} << 20;

  // Opens `path` for reading. Throws krino::Error naming the path and the OS reason
  // (NOT_FOUND, PERMISSION_DENIED, ...); a directory is refused here, not at the first read.
  explicit BufferedFile(const std::string& path, size_t chunk_size = kDefaultChunkSize);
  BufferedFile(BufferedFile&& other) noexcept;
  BufferedFile& operator=(BufferedFile&& other) noexcept;
  BufferedFile(const BufferedFile&) = delete;
  BufferedFile& operator=(const BufferedFile&) = delete;
  ~BufferedFile();

  const std::string& path() const { return path_; }
  // Size when opened, for choosing whether a counting pass is cheap.
  uint64_t size_on_open() const { return size_on_open_; }
  // Whether opening the path again reads the same bytes again: a regular file. A pipe, a FIFO,
  // /dev/stdin or a socket gives its bytes once, to whoever reads first.
  bool rereadable() const { return rereadable_; }

  // The loaded bytes not consumed yet. Invalidated by read_more() and consume().
  std::string_view window() const { return {buffer_.get() + begin_, end_ - begin_}; }

  // Drops the first `count` bytes of the window.
  void consume(size_t count) { begin_ += count; }

  // Appends the next chunk of the file to the window, keeping everything in it. Returns false at
  // the end of the file (the window is unchanged then). Throws krino::Error on a read error.
  bool read_more();

 private:
  void make_room();

  std::string path_;
  int fd_ = -1;
  uint64_t size_on_open_ = 0;
  bool rereadable_ = false;
  size_t chunk_size_;
  std::unique_ptr<char[]> buffer_;
  size_t capacity_ = 0;
  size_t begin_ = 0;  // first unconsumed byte
  size_t end_ = 0;    // one past the last loaded byte
  bool eof_ = false;
};

}  // namespace krino::files

#endif  // KRINO_FILES_BUFFERED_FILE_HPP
