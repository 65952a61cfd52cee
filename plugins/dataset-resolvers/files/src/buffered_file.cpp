#include "buffered_file.hpp"

#include <krino/plugin.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>

namespace krino::files {
namespace {

krino_status status_for_errno(int error) {
  switch (error) {
    case ENOENT:
    case ENOTDIR:
      return KRINO_NOT_FOUND;
    case EACCES:
    case EPERM:
      return KRINO_PERMISSION_DENIED;
    default:
      return KRINO_UNAVAILABLE;
  }
}

std::string os_reason(int error) { return std::generic_category().message(error); }

}  // namespace

BufferedFile::BufferedFile(const std::string& path, size_t chunk_size) : path_(path), chunk_size_(chunk_size) {
  do {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0) {
    const int error = errno;
    throw Error(status_for_errno(error), "cannot open '" + path + "': " + os_reason(error));
  }
  struct stat info {};
  if (::fstat(fd_, &info) != 0) {
    const int error = errno;
    ::close(fd_);
    throw Error(status_for_errno(error), "cannot read '" + path + "': " + os_reason(error));
  }
  if (S_ISDIR(info.st_mode)) {
    ::close(fd_);
    throw Error(KRINO_INVALID_ARGUMENT, "cannot open '" + path + "': " + os_reason(EISDIR));
  }
  size_on_open_ = static_cast<uint64_t>(info.st_size);
  rereadable_ = S_ISREG(info.st_mode);
  // The kernel reads further ahead for a file announced as sequential.
  ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  capacity_ = 2 * chunk_size_;
  buffer_.reset(new char[capacity_]);
}

BufferedFile::BufferedFile(BufferedFile&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(std::exchange(other.fd_, -1)),
      size_on_open_(other.size_on_open_),
      rereadable_(other.rereadable_),
      chunk_size_(other.chunk_size_),
      buffer_(std::move(other.buffer_)),
      capacity_(std::exchange(other.capacity_, 0)),
      begin_(std::exchange(other.begin_, 0)),
      end_(std::exchange(other.end_, 0)),
      eof_(other.eof_) {}

BufferedFile& BufferedFile::operator=(BufferedFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
    size_on_open_ = other.size_on_open_;
    rereadable_ = other.rereadable_;
    chunk_size_ = other.chunk_size_;
    buffer_ = std::move(other.buffer_);
    capacity_ = std::exchange(other.capacity_, 0);
    begin_ = std::exchange(other.begin_, 0);
    end_ = std::exchange(other.end_, 0);
    eof_ = other.eof_;
  }
  return *this;
}

BufferedFile::~BufferedFile() {
  if (fd_ >= 0) ::close(fd_);
}

// Ensures at least one chunk of free space after end_: first by moving the unconsumed bytes to
// the front (cheap: usually a fraction of one record), then by doubling when a record is longer
// than the buffer.
void BufferedFile::make_room() {
  if (capacity_ - end_ >= chunk_size_) return;
  const size_t kept = end_ - begin_;
  if (capacity_ - kept >= chunk_size_) {
    std::memmove(buffer_.get(), buffer_.get() + begin_, kept);
  } else {
    size_t grown = capacity_ * 2;
    while (grown - kept < chunk_size_) grown *= 2;
    std::unique_ptr<char[]> bigger(new char[grown]);
    std::memcpy(bigger.get(), buffer_.get() + begin_, kept);
    buffer_ = std::move(bigger);
    capacity_ = grown;
  }
  begin_ = 0;
  end_ = kept;
}

bool BufferedFile::read_more() {
  if (eof_) return false;
  make_room();
  for (;;) {
    const ssize_t got = ::read(fd_, buffer_.get() + end_, chunk_size_);
    if (got > 0) {
      end_ += static_cast<size_t>(got);
      return true;
    }
    if (got == 0) {
      eof_ = true;
      return false;
    }
    if (errno != EINTR) {
      const int error = errno;
      throw Error(KRINO_DATA_LOSS, "cannot read '" + path_ + "': " + os_reason(error));
    }
  }
}

}  // namespace krino::files
