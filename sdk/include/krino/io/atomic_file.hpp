// Replacing a file so that readers, and the file system after a crash or a power cut, see the old
// content or the whole new content, never part of it. Header-only; POSIX.
//
//  - AtomicFile writes through a buffer to a temporary file it creates beside the target (same
//    directory, so the rename is atomic), named ".<target name>.krino-<random>".
//  - commit() flushes the buffer, fsyncs the file, renames it over the target and fsyncs the
//    directory: once it returns, the new content and the new name are on disk.
//  - An AtomicFile destroyed without commit() (an exception, an early return) removes its temporary
//    file and leaves the target as it was. A process that dies before commit() leaves the target as
//    it was too (and, at worst, the hidden temporary file).
//  - A target that is a symbolic link keeps being one: the file it points to is replaced. A target
//    that exists but is not a regular file (a device such as /dev/null, a FIFO) is written in
//    place, since a rename would put a regular file where it was.
//  - The new file has the mode any newly created file gets (`mode`, 0666 unless given, less the
//    umask, with the directory's default ACL), not the mode of the file it replaces. The directory
//    must exist.
//
// Threads: one AtomicFile is used by one thread at a time. Any number of AtomicFiles, in any
// processes, may replace the same target at once: each has its own temporary file, and the last
// commit wins. Ownership: the AtomicFile owns its descriptor and its temporary file.
//
// Every failure throws krino::Error with a status from the errno (status_from_errno,
// <krino/io/errno_status.hpp>), the target's path and the operating system's reason.
#ifndef KRINO_IO_ATOMIC_FILE_HPP
#define KRINO_IO_ATOMIC_FILE_HPP

#include <krino/io/errno_status.hpp>
#include <krino/io/file_sync.hpp>
#include <krino/plugin.h>
#include <krino/plugin/error.hpp>

#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <string_view>
#include <utility>

namespace krino::io {

namespace detail {

// Writes all of `bytes` to `fd`; `what` names the file in the error.
inline void write_all(int fd, std::string_view bytes, const std::string& what) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      throw Error(status_from_errno(error), "cannot write to " + what + ": " + errno_text(error));
    }
    written += static_cast<std::size_t>(n);
  }
}

}  // namespace detail

// A file being written under a temporary name, to replace `target` on commit().
class AtomicFile {
 public:
  // Writes reach the file in pieces of this size (the buffer grows to it as needed).
  static constexpr std::size_t kBufferSize = 256 * 1024;

  // Creates the temporary file. Throws krino::Error (with the path and the reason) when the
  // directory of `target` does not exist or cannot be written.
  explicit AtomicFile(std::filesystem::path target, mode_t mode = 0666)
      : target_(std::move(target)), written_(target_) {
    // A symbolic link stays a link: the file it points to is the one replaced. A target that is
    // not a regular file (a device such as /dev/null, a FIFO) cannot be replaced by renaming
    // without turning it into a regular file, so it is written in place instead.
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(target_, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
        !std::filesystem::is_directory(status)) {
      open_in_place();
      return;
    }
    if (std::filesystem::is_symlink(std::filesystem::symlink_status(target_, ec)) && !ec) {
      written_ = std::filesystem::weakly_canonical(target_, ec);
      if (ec) written_ = target_;
    }
    const std::filesystem::path directory = written_.parent_path();
    // Keep the name within NAME_MAX whatever the target's length.
    const std::string stem = "." + written_.filename().string().substr(0, 200) + ".krino-";
    std::random_device random;
    for (int attempt = 0; fd_ < 0; ++attempt) {
      const uint64_t nonce = (static_cast<uint64_t>(random()) << 32) ^ random();
      char suffix[17];
      std::snprintf(suffix, sizeof suffix, "%016llx", static_cast<unsigned long long>(nonce));
      temporary_ = (directory / (stem + suffix)).string();
      // open(2) with O_CREAT applies the umask and the default ACL: the mode a new file gets.
      fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
      if (fd_ >= 0) break;
      const int error = errno;
      if (error == EINTR || (error == EEXIST && attempt < 100)) continue;
      temporary_.clear();
      throw Error(status_from_errno(error),
                  "cannot create a temporary file beside '" + target_.string() + "': " + errno_text(error));
    }
  }

  ~AtomicFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_ && !temporary_.empty()) ::unlink(temporary_.c_str());
  }
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  const std::filesystem::path& target() const noexcept { return target_; }

  void write(std::string_view bytes) {
    if (fd_ < 0) closed();
    if (buffer_.size() + bytes.size() > kBufferSize) {
      flush();
      if (bytes.size() >= kBufferSize) {
        detail::write_all(fd_, bytes, "'" + target_.string() + "'");
        return;
      }
    }
    buffer_.append(bytes.data(), bytes.size());
  }

  // Flushes, fsyncs the file, renames it over the target and fsyncs the directory. Once it
  // returns, the target holds everything written. On failure the target is unchanged, except when
  // only the directory's sync failed: the message then says the file was replaced.
  void commit() {
    if (fd_ < 0) closed();
    flush();
    if (in_place_) {
      // A device or a FIFO: nothing to sync or rename.
      const int fd = std::exchange(fd_, -1);
      if (::close(fd) != 0 && errno != EINTR) fail(errno, "cannot write");
      committed_ = true;
      return;
    }
    if (const int error = sync_descriptor(fd_); error != 0) fail(error, "cannot write");
    // close can report a deferred write error (NFS); EINTR still closes the descriptor on Linux.
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0 && errno != EINTR) fail(errno, "cannot write");
    if (::rename(temporary_.c_str(), written_.c_str()) != 0) fail(errno, "cannot replace");
    committed_ = true;
    sync_directory();
  }

 private:
  [[noreturn]] void closed() const {
    throw Error(KRINO_FAILED_PRECONDITION, "'" + target_.string() + "' is closed: commit() was called");
  }
  [[noreturn]] void fail(int error, const char* doing) const {
    throw Error(status_from_errno(error), std::string(doing) + " '" + target_.string() + "': " + errno_text(error));
  }

  void flush() {
    if (buffer_.empty()) return;
    detail::write_all(fd_, buffer_, "'" + target_.string() + "'");
    buffer_.clear();
  }

  void open_in_place() {
    in_place_ = true;
    do {
      fd_ = ::open(target_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    } while (fd_ < 0 && errno == EINTR);
    if (fd_ < 0) fail(errno, "cannot open");
  }

  // The rename is durable only once the directory that holds the name is synced.
  void sync_directory() const {
    const std::filesystem::path parent = written_.parent_path();
    const std::string directory = parent.empty() ? std::string(".") : parent.string();
    int fd = -1;
    do {
      fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    int error = fd < 0 ? errno : 0;
    if (fd >= 0) {
      error = sync_descriptor(fd);
      ::close(fd);
    }
    // Some file systems cannot sync a directory; there is nothing more to do on them.
    if (error == 0 || error == EINVAL || error == ENOTSUP) return;
    throw Error(status_from_errno(error), "replaced '" + target_.string() + "' but cannot sync its directory '" +
                                              directory + "': " + errno_text(error));
  }

  std::filesystem::path target_;   // as the caller named it; errors show this name
  std::filesystem::path written_;  // the file replaced: the target, or where its symbolic link points
  std::string temporary_;
  int fd_ = -1;
  bool in_place_ = false;
  std::string buffer_;
  bool committed_ = false;
};

}  // namespace krino::io

#endif  // KRINO_IO_ATOMIC_FILE_HPP
