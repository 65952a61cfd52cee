#pragma once
// A child process in a process group of its own, with stdin, stdout and stderr on pipes.
//
// Started with posix_spawn: glibc runs it as clone+exec without copying the parent's memory, and its
// attributes do exactly what a task runner needs in one call: a new process group, so a timeout can
// kill everything the command started; an empty signal mask and default signal dispositions,
// because krino blocks SIGINT and SIGTERM in every thread and a child would inherit that; the
// working directory; and closefrom(3), so a descriptor another thread opened without O_CLOEXEC
// never leaks into the child. (Boost.Process 1.81 was not used: its v1 reaps through a
// process-wide SIGCHLD handler, and v2 is experimental and cannot start a process group.)
//
// The exit is watched through a pidfd on the I/O context, so waiting holds no thread. When the
// leader exits, whatever is left of its group is killed before the leader is reaped (the group's
// id is still held then, so no other process can be hit), and every child is reaped: no zombies.
//
// Threading: spawn() from any thread; every other member on the strand given to spawn(). Handlers
// keep the object alive; the destructor kills the group and reaps the leader if that has not
// happened yet.
#include "krino/core/process/exit_status.hpp"
#include "krino/core/process/process_spec.hpp"
#include "krino/core/process/tail_buffer.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

#include <sys/types.h>

#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace krino::core {

class ChildProcess : public std::enable_shared_from_this<ChildProcess> {
 public:
  using Executor = boost::asio::any_io_executor;
  using Pipe = boost::asio::posix::stream_descriptor;

  struct Spawned {
    std::shared_ptr<ChildProcess> process;  // null when the program could not be started
    std::string error;                      // why not
  };

  // Starts `spec` with `extra_environment` (NAME=value) appended to its environment. Every I/O
  // object of the child is bound to `strand`.
  static Spawned spawn(const Executor& strand, const ProcessSpec& spec,
                       const std::vector<std::string>& extra_environment = {});

  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const noexcept { return pid_; }
  const Executor& executor() const noexcept { return strand_; }

  Pipe& input() noexcept { return input_; }    // the child's stdin (write end)
  Pipe& output() noexcept { return output_; }  // the child's stdout (read end)
  Pipe& errors() noexcept { return errors_; }  // the child's stderr (read end)
  void close_input() noexcept;

  // Calls `handler(status)` on the strand once the process has exited and been reaped (at once,
  // posted, if it already was). One wait at a time.
  void async_wait_exit(std::function<void(const ExitStatus&)> handler);

  // Reads stderr until it ends, keeping its last `tail_bytes` (a child must never block on a full
  // stderr pipe, and an error report wants how it ended); `on_end` runs on the strand when the
  // pipe ends, unless close_errors() came first. Once per child.
  void capture_errors(std::size_t tail_bytes, std::function<void()> on_end);
  const TailBuffer& error_tail() const noexcept { return error_tail_; }
  bool errors_open() const noexcept { return errors_open_; }
  // Stops reading stderr (a descendant outside the group may hold it open for ever).
  void close_errors() noexcept;

  // SIGTERM to the whole group, then SIGKILL to it after `grace` unless the leader has exited by
  // then (0: SIGKILL at once). Does nothing once the leader is reaped.
  void terminate(std::chrono::milliseconds grace);
  bool terminating() const noexcept { return terminating_; }

  bool reaped() const noexcept { return reaped_; }
  // Whether the leader has exited by now, reaped or not (its exit may not have been handled yet).
  bool has_exited() const noexcept;
  const ExitStatus& status() const noexcept { return status_; }

 private:
  ChildProcess(const Executor& strand, pid_t pid, int pidfd, int input, int output, int errors);

  void read_errors(std::function<void()> on_end);
  void watch_exit(std::function<void(const ExitStatus&)> handler);
  void poll_exit(std::function<void(const ExitStatus&)> handler, std::chrono::milliseconds interval);
  // Reaps the leader if it has exited, killing what is left of its group first.
  bool try_reap();
  void signal_group(int signal) const noexcept;

  Executor strand_;
  pid_t pid_;
  Pipe input_;
  Pipe output_;
  Pipe errors_;
  // Readable once the process has exited. Without pidfd support (Linux < 5.3, or a seccomp
  // profile that refuses it) the exit is polled with a timer instead.
  std::optional<Pipe> exit_watch_;
  boost::asio::steady_timer poll_timer_;
  boost::asio::steady_timer kill_timer_;
  TailBuffer error_tail_{0};
  std::array<char, 8192> error_chunk_;
  bool errors_open_ = true;
  bool terminating_ = false;
  bool reaped_ = false;
  ExitStatus status_;
};

}  // namespace krino::core
