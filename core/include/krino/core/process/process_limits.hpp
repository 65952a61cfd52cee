#pragma once
// The bounds every child process of a task runs under: time, output, and the host's cancellation.
#include <chrono>
#include <cstddef>
#include <functional>

namespace krino::core {

struct ProcessLimits {
  // How long one call may take (a per-example run, or one worker request); 0 means no limit.
  std::chrono::milliseconds timeout{60000};
  // Between SIGTERM and SIGKILL when a process group is stopped.
  std::chrono::milliseconds kill_grace{1000};
  // Bytes of stdout kept for one call (a per-example run's whole output, or one worker reply
  // line). A call that writes more is stopped: a runaway program must not eat krino's memory.
  std::size_t max_output_bytes = 16u << 20;
  // Bytes of stderr kept: the end of it, for the item error.
  std::size_t stderr_tail_bytes = 4096;
  // How long the pipes are read after the process has exited: a descendant that left the process
  // group (setsid) may hold them open for ever.
  std::chrono::milliseconds drain_after_exit{500};
  // How often `cancelled` is asked while a call is in flight.
  std::chrono::milliseconds cancellation_poll{100};
  // Polled while a call is in flight; true stops the call (Ctrl-C). May be empty. Thread-safe.
  std::function<bool()> cancelled;
};

}  // namespace krino::core
