// The krino_status and the text of an errno value, for helpers that report the operating
// system's errors as krino::Error. Header-only.
//
// Threads: any.
#ifndef KRINO_IO_ERRNO_STATUS_HPP
#define KRINO_IO_ERRNO_STATUS_HPP

#include <krino/plugin.h>

#include <cerrno>
#include <string>
#include <system_error>

namespace krino::io {

// The status code that best describes an errno value.
inline krino_status status_from_errno(int error) {
  switch (error) {
    case EACCES:
    case EPERM:
    case EROFS:
      return KRINO_PERMISSION_DENIED;
    case ENOENT:
      return KRINO_NOT_FOUND;
    case EEXIST:
      return KRINO_ALREADY_EXISTS;
    case ENOSPC:
    case EDQUOT:
    case EFBIG:
    case EMFILE:
    case ENFILE:
      return KRINO_RESOURCE_EXHAUSTED;
    case EISDIR:
    case ENOTDIR:
    case ENAMETOOLONG:
    case ELOOP:
      return KRINO_FAILED_PRECONDITION;
    default:
      return KRINO_UNAVAILABLE;
  }
}

// The operating system's text for an errno value ("Permission denied").
inline std::string errno_text(int error) { return std::error_code(error, std::generic_category()).message(); }

}  // namespace krino::io

#endif  // KRINO_IO_ERRNO_STATUS_HPP
