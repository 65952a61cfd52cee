// krino C++ helper: errors. Plugin code throws krino::Error (a krino_status and a message); the
// trampolines catch every exception with detail::guarded, so none ever crosses the C boundary.
//
// Threads: any. Ownership: the message is copied into the host's error sink before the trampoline
// returns.
//
//   thrown                        status returned to the host
//   krino::Error(code, message)   code
//   std::bad_alloc                KRINO_RESOURCE_EXHAUSTED, "out of memory"
//   other std::exception          KRINO_INTERNAL, what()
//   anything else                 KRINO_INTERNAL, "unknown exception"
#ifndef KRINO_PLUGIN_ERROR_HPP
#define KRINO_PLUGIN_ERROR_HPP

#include <krino/plugin.h>
#include <krino/plugin/sink.hpp>

#include <exception>
#include <new>
#include <stdexcept>
#include <string>

namespace krino {

// Thrown by plugin code to report a non-OK status with a message.
class Error : public std::runtime_error {
 public:
  Error(krino_status code, const std::string& message) : std::runtime_error(message), code_(code) {}
  krino_status code() const noexcept { return code_; }

 private:
  krino_status code_;
};

inline Error invalid_argument(const std::string& message) { return Error(KRINO_INVALID_ARGUMENT, message); }

namespace detail {
// Runs `body` and turns every exception into a status plus a message in `error`.
template <class Body>
krino_status guarded(krino_sink* error, Body&& body) noexcept {
  try {
    return body();
  } catch (const Error& e) {
    write(error, e.what());
    return e.code();
  } catch (const std::bad_alloc&) {
    write(error, "out of memory");
    return KRINO_RESOURCE_EXHAUSTED;
  } catch (const std::exception& e) {
    write(error, e.what());
    return KRINO_INTERNAL;
  } catch (...) {
    write(error, "unknown exception");
    return KRINO_INTERNAL;
  }
}
}  // namespace detail

}  // namespace krino

#endif  // KRINO_PLUGIN_ERROR_HPP
