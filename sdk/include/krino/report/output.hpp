// Files for reporters that write a whole document at the end of an experiment (JUnit XML, HTML,
// CSV, Markdown), in bounded memory. Header-only; POSIX.
//
//  - ReportTarget: where the report goes (a file, replaced or appended to, or "-" for stdout),
//    checked when the reporter is created so a bad path stops the experiment before it starts.
//  - Spool: an anonymous temporary file that collects the bulk of a report (one entry per item)
//    while the run goes; it has no name, so nothing is left behind if the process dies.
//  - ReportFile: the document being written. A replaced file is an io::AtomicFile
//    (<krino/io/atomic_file.hpp>): written under a temporary name beside the target, synced and
//    renamed over it by commit(), so readers see the old file or the whole new one, never half of
//    one, even after a crash; an uncommitted file is removed.
//
// Every failure throws krino::Error with the path and the operating system's reason.
#ifndef KRINO_REPORT_OUTPUT_HPP
#define KRINO_REPORT_OUTPUT_HPP

#include <krino/io/atomic_file.hpp>
#include <krino/io/file_sync.hpp>
#include <krino/plugin.h>
#include <krino/plugin.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

namespace krino::report {

// Moved to <krino/io/errno_status.hpp>; kept here under their old names.
using io::errno_text;
using io::status_from_errno;

namespace detail {

using io::detail::write_all;

// A temporary file in `directory` made by mkstemp from `prefix`; returns its descriptor and name.
inline std::pair<int, std::string> make_temporary(const std::filesystem::path& directory, const std::string& prefix) {
  std::string pattern = (directory / (prefix + "XXXXXX")).string();
  int fd = -1;
  do {
    fd = ::mkostemp(pattern.data(), O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    const int error = errno;
    const std::string shown = directory.empty() ? std::string(".") : directory.string();
    throw Error(status_from_errno(error),
                "cannot create a temporary file in '" + shown + "': " + errno_text(error));
  }
  return {fd, pattern};
}

// Output through a buffer to a descriptor.
class BufferedWriter {
 public:
  static constexpr std::size_t kCapacity = 256 * 1024;

  BufferedWriter(int fd, std::string what) : fd_(fd), what_(std::move(what)) { buffer_.reserve(kCapacity); }

  void write(std::string_view bytes) {
    if (buffer_.size() + bytes.size() > kCapacity) {
      flush();
      if (bytes.size() >= kCapacity) {
        write_all(fd_, bytes, what_);
        return;
      }
    }
    buffer_.append(bytes.data(), bytes.size());
  }
  void flush() {
    if (buffer_.empty()) return;
    // Whatever the process printed through stdio comes first on a shared descriptor.
    if (fd_ == STDOUT_FILENO) std::fflush(stdout);
    write_all(fd_, buffer_, what_);
    buffer_.clear();
  }
  int fd() const { return fd_; }
  const std::string& what() const { return what_; }

 private:
  int fd_;
  std::string what_;
  std::string buffer_;
};

}  // namespace detail

// Where a report goes, checked up front.
class ReportTarget {
 public:
  enum class Mode { replace, append };

  // `path` "-" is standard output. Otherwise missing parent directories are created and the
  // directory is checked by creating (and removing) a file in it; a path that is a directory is
  // refused. In replace mode an earlier report at `path` is emptied at once (see
  // empty_previous_report). Throws krino::Error naming the path and the reason.
  ReportTarget(std::string path, Mode mode) : path_(std::move(path)), mode_(mode) {
    if (path_.empty()) throw invalid_argument("the output path is empty");
    if (path_ == "-") return;
    const std::filesystem::path target(path_);
    directory_ = target.parent_path();
    if (!directory_.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(directory_, ec);
      if (ec)
        throw Error(status_from_errno(ec.value()),
                    "cannot create directory '" + directory_.string() + "' for '" + path_ + "': " + ec.message());
    }
    struct stat info {};
    if (::stat(path_.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
      throw Error(KRINO_FAILED_PRECONDITION, "cannot write '" + path_ + "': " + errno_text(EISDIR));
    if (mode_ == Mode::append) {
      const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
      if (fd < 0) {
        const int error = errno;
        throw Error(status_from_errno(error), "cannot open '" + path_ + "' for writing: " + errno_text(error));
      }
      ::close(fd);
    } else {
      io::AtomicFile probe(target);  // removed uncommitted
      empty_previous_report();
    }
  }

  const std::string& path() const { return path_; }
  Mode mode() const { return mode_; }
  bool is_stdout() const { return path_ == "-"; }
  // The directory the report goes to ("" for the working directory); spools go there too, so a
  // large report needs no room in /tmp. For stdout, the system's temporary directory.
  std::filesystem::path spool_directory() const {
    if (is_stdout()) {
      std::error_code ec;
      auto temp = std::filesystem::temp_directory_path(ec);
      return ec ? std::filesystem::path("/tmp") : temp;
    }
    return directory_.empty() ? std::filesystem::path(".") : directory_;
  }

 private:
  // The report of an earlier run must not outlive this one looking current: were this run to die
  // before it writes its report, a CI step would read the earlier one as this run's. The file is
  // emptied now (through a symbolic link, the file it points to), so a run that dies leaves an
  // empty report, which no reader takes for a result.
  void empty_previous_report() const {
    struct stat info {};
    if (::stat(path_.c_str(), &info) != 0 || !S_ISREG(info.st_mode) || info.st_size == 0) return;
    if (::truncate(path_.c_str(), 0) != 0) {
      const int error = errno;
      throw Error(status_from_errno(error), "cannot empty the earlier report '" + path_ + "': " + errno_text(error));
    }
  }

  std::string path_;
  Mode mode_;
  std::filesystem::path directory_;
};

// An anonymous temporary file: written while the run goes, read back once at the end.
class Spool {
 public:
  explicit Spool(const std::filesystem::path& directory) {
    auto [fd, name] = detail::make_temporary(directory, ".krino-spool-");
    ::unlink(name.c_str());  // nameless from now on: the data goes when the descriptor closes
    fd_ = fd;
    writer_.emplace(fd_, "a temporary file in '" + directory.string() + "'");
  }
  ~Spool() {
    if (fd_ >= 0) ::close(fd_);
  }
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  void write(std::string_view bytes) {
    writer_->write(bytes);
    size_ += bytes.size();
  }
  // Appends everything `other` holds.
  void write(Spool& other) {
    other.read_all([this](std::string_view chunk) { write(chunk); });
  }
  uint64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Calls `sink(std::string_view)` with the content, in order, in chunks.
  template <class Sink>
  void read_all(Sink&& sink) {
    writer_->flush();
    std::string chunk(256 * 1024, '\0');
    uint64_t offset = 0;
    while (offset < size_) {
      const ssize_t n = ::pread(fd_, chunk.data(), chunk.size(), static_cast<off_t>(offset));
      if (n < 0) {
        if (errno == EINTR) continue;
        const int error = errno;
        throw Error(status_from_errno(error), "cannot read back " + writer_->what() + ": " + errno_text(error));
      }
      if (n == 0) throw Error(KRINO_DATA_LOSS, "a temporary file in use by the report was cut short");
      sink(std::string_view(chunk.data(), static_cast<std::size_t>(n)));
      offset += static_cast<uint64_t>(n);
    }
  }

  // Empties the spool for reuse.
  void clear() {
    writer_->flush();
    // Writes go to the descriptor's offset, which truncation leaves where it was.
    if (::ftruncate(fd_, 0) != 0 || ::lseek(fd_, 0, SEEK_SET) != 0) {
      const int error = errno;
      throw Error(status_from_errno(error), "cannot empty " + writer_->what() + ": " + errno_text(error));
    }
    size_ = 0;
  }

 private:
  int fd_ = -1;
  std::optional<detail::BufferedWriter> writer_;
  uint64_t size_ = 0;
};

// The report document being written to its target.
class ReportFile {
 public:
  explicit ReportFile(const ReportTarget& target) : target_(target.path()) {
    if (target.is_stdout()) {
      writer_.emplace(STDOUT_FILENO, "standard output");
      return;
    }
    if (target.mode() == ReportTarget::Mode::replace) {
      replacement_.emplace(target_);
      return;
    }
    int fd = -1;
    do {
      fd = ::open(target_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
      const int error = errno;
      throw Error(status_from_errno(error), "cannot open '" + target_ + "' for writing: " + errno_text(error));
    }
    fd_ = fd;
    writer_.emplace(fd_, "'" + target_ + "'");
  }
  ~ReportFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  ReportFile(const ReportFile&) = delete;
  ReportFile& operator=(const ReportFile&) = delete;

  void write(std::string_view bytes) {
    if (replacement_) replacement_->write(bytes);
    else writer_->write(bytes);
  }
  void write(Spool& spool) {
    spool.read_all([this](std::string_view chunk) { write(chunk); });
  }

  // Makes the document visible and durable: for a replaced file commits the io::AtomicFile (synced,
  // renamed over the target, the directory synced); an appended file is flushed and synced.
  void commit() {
    if (replacement_) {
      replacement_->commit();
      return;
    }
    writer_->flush();
    // Appended to a regular file: on the disk once this returns, as a replaced file is.
    if (fd_ >= 0) io::sync_regular_file(fd_, "'" + target_ + "'");
  }

 private:
  std::string target_;
  int fd_ = -1;
  std::optional<io::AtomicFile> replacement_;    // replace mode
  std::optional<detail::BufferedWriter> writer_;  // append mode and stdout
};

}  // namespace krino::report

#endif  // KRINO_REPORT_OUTPUT_HPP
