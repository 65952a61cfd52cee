#pragma once
// Turns SIGINT/SIGTERM into a cooperative cancellation. The signals are blocked in every thread
// (call install() before any thread starts) and received by one watcher thread with sigwait, so no
// code runs in a signal handler. A second signal ends the process at once.
#include "krino/core/common/cancellation.hpp"

namespace krino::cli {

class SignalWatcher {
 public:
  static void block_signals();
  // `notice` is printed on stderr at the first signal.
  explicit SignalWatcher(core::Cancellation& cancellation, const char* notice = kRunNotice);
  static constexpr const char* kRunNotice =
      "\nkrino: interrupted; finishing the items in flight and flushing reports (press Ctrl-C again to stop at once)\n";
  bool interrupted() const;

 private:
  core::Cancellation& cancellation_;
};

}  // namespace krino::cli
