#pragma once
// A persistent worker: a child process that answers one JSON line on stdout for each request line
// on its stdin, for as long as the run lasts. This class moves lines and watches the process; what
// the lines mean is the exec task's business (ExecTask checks the id echo and the envelope).
//
// A request that times out, is cancelled, or gets no line back (the worker died, closed stdout, or
// wrote more than max_output_bytes without a newline) stops the worker's whole process group, and
// the reply says how the process ended and how its stderr ended. A worker that dies or breaks while
// idle stops too and is reported through `on_idle_exit`.
//
// Threading: start() from any thread; usable(), gone() and pid() are [thread-safe]; request(),
// stop() and shutdown() from any thread, one at a time per worker, with their callback run once on
// the worker's strand, never inside the call.
#include "krino/core/process/child_process.hpp"
#include "krino/core/process/process_limits.hpp"

#include "krino/core/process/wake_timer.hpp"

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace krino::core {

// How a worker process ended, and the end of what it wrote to stderr.
struct WorkerExit {
  pid_t pid = 0;
  ExitStatus status;
  std::string stderr_tail;
  bool stderr_truncated = false;
  bool stopped = false;  // krino signalled its process group (a timeout, a failure, a shutdown)
};

struct WorkerReply {
  enum class Outcome {
    answered,        // `line` holds the reply; the worker is still running
    timed_out,       // no reply within ProcessLimits::timeout; the worker was stopped
    cancelled,       // the run was cancelled; the worker was stopped
    died,            // the worker exited or closed stdout before replying
    reply_too_long,  // more than max_output_bytes without a newline; the worker was stopped
    not_sent,        // the worker exited (or broke) without reading any of the request: ask another
  };
  Outcome outcome = Outcome::died;
  std::string line;  // without its newline
  WorkerExit exit;   // every outcome but `answered` and `not_sent`
  double elapsed_ms = 0;
};

class WorkerProcess : public std::enable_shared_from_this<WorkerProcess> {
 public:
  using Clock = std::chrono::steady_clock;
  using ExitCallback = std::function<void(const WorkerExit&)>;

  struct Started {
    std::shared_ptr<WorkerProcess> worker;  // null when the program could not be started
    std::string error;
  };
  // `limits` must outlive the worker. `on_idle_exit` (may be empty) is told when the worker exits
  // or breaks between requests.
  static Started start(const ChildProcess::Executor& strand, const ProcessSpec& spec, const ProcessLimits& limits,
                       ExitCallback on_idle_exit);

  pid_t pid() const noexcept { return pid_; }
  // False once the worker has exited, broken, or is being stopped: it must get no more requests.
  bool usable() const noexcept { return usable_.load(std::memory_order_acquire); }
  // True once the process is reaped and its pipes drained: nothing of it is left to wait for.
  bool gone() const noexcept { return gone_.load(std::memory_order_acquire); }

  // Sends `line` (which ends with a newline) and waits for one line back.
  void request(std::string line, std::function<void(WorkerReply)> done);
  // Stops the worker now (SIGTERM to its group, SIGKILL after kill_grace): for a worker that
  // answered something unusable.
  void stop(ExitCallback done);
  // The end of the run: closes stdin, gives the worker kill_grace to exit by itself, then stops it.
  void shutdown(ExitCallback done);

 private:
  WorkerProcess(std::shared_ptr<ChildProcess> child, const ProcessLimits& limits, ExitCallback on_idle_exit);
  void begin();
  void read_output();
  void on_output(std::string_view bytes);
  void on_output_end();
  void on_exit();
  void begin_request(std::string line, std::function<void(WorkerReply)> done);
  void deliver_if_line();
  void note_whether_request_unread();
  void fail(WorkerReply::Outcome why);
  void become_unusable_while_idle();
  void begin_stop(ExitCallback done, bool wait_for_exit_first);
  void arm_timer();
  void on_timer();
  void after_exit();
  WorkerExit exit_report() const;
  void complete_request(WorkerReply reply);

  std::shared_ptr<ChildProcess> child_;
  const ProcessLimits& limits_;
  ExitCallback on_idle_exit_;
  pid_t pid_;
  std::atomic<bool> usable_{true};
  std::atomic<bool> gone_{false};

  WakeTimer timer_;
  std::array<char, 65536> output_chunk_;
  std::string pending_output_;  // bytes of stdout not yet taken as a reply
  std::size_t scanned_ = 0;     // of pending_output_, bytes known to hold no newline
  bool output_open_ = true;
  bool exited_ = false;
  Clock::time_point exited_at_;

  // The request in flight.
  bool busy_ = false;
  bool writing_ = false;
  std::string request_line_;
  std::function<void(WorkerReply)> request_done_;
  Clock::time_point request_started_;
  std::optional<WorkerReply::Outcome> failure_;
  // The worker ended with the whole request still unread in its stdin pipe: it never saw it.
  bool request_unread_ = false;

  // stop() / shutdown() in progress.
  ExitCallback stop_done_;
  std::optional<Clock::time_point> voluntary_exit_deadline_;
};

}  // namespace krino::core
