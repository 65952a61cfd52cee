// Putting a file's data on the disk: fsync(2), retried when a signal interrupts it, and only for a
// regular file (a device, a FIFO or standard output on a terminal has nothing to sync, and fsync on
// some of them fails). Header-only; POSIX.
//
// Threads: any.
#ifndef KRINO_IO_FILE_SYNC_HPP
#define KRINO_IO_FILE_SYNC_HPP

#include <krino/io/errno_status.hpp>
#include <krino/plugin/error.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace krino::io {

// fsync(2) of `fd`, retried on EINTR: 0, or the errno it failed with.
inline int sync_descriptor(int fd) {
  int result = 0;
  do {
    result = ::fsync(fd);
  } while (result != 0 && errno == EINTR);
  return result == 0 ? 0 : errno;
}

// Syncs `fd` when it is a regular file. Throws krino::Error naming `what` when the disk reports a
// failure.
inline void sync_regular_file(int fd, const std::string& what) {
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return;
  if (const int error = sync_descriptor(fd); error != 0)
    throw Error(status_from_errno(error), "cannot write " + what + ": " + errno_text(error));
}

}  // namespace krino::io

#endif  // KRINO_IO_FILE_SYNC_HPP
