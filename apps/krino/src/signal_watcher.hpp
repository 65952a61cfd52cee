#pragma once
// Turns SIGINT/SIGTERM into a cooperative cancellation. The signals are blocked in every thread
// (call install() before any thread starts) and received by one watcher thread with sigwait, so no
// code runs in a signal handler. A second signal ends the process at once.
#include "krino/core/common/cancellation.hpp"

namespace krino::cli {

class SignalWatcher {
 public:
  static void block_signals();
  explicit SignalWatcher(core::Cancellation& cancellation);
  bool interrupted() const;

 private:
  core::Cancellation& cancellation_;
};

}  // namespace krino::cli
