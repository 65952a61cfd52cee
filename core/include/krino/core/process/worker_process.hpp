#pragma once
// A persistent worker: a child process that answers one JSON line on stdout for each request line
// on its stdin, for as long as the run lasts. This class moves lines and watches the process; what
// the lines mean is its user's business (ExecTask, WorkerEvaluator check the id echo and the rest).
//
// Several requests may be in flight at once (pipelining): lines that are ready together go out in
// one write, and answers are read as they come. A request with an id takes the answer line whose
// leading "id" is that number (read by line_reply_id), so a worker may answer out of order; a
// request without one, or an answer whose id matches none in flight, takes the oldest request's
// place (its user then sees the wrong id and stops the worker).
//
// A request that times out (each its own timeout_ms, counted from when it was sent), is cancelled,
// or gets no line back (the worker died, closed stdout, or wrote more than max_output_bytes without
// a newline) stops the worker's whole process group, and the reply says how the process ended and
// how its stderr ended. The oldest request in flight is taken for the one the worker was on: it gets
// that outcome; the others in flight get `interrupted` (they did nothing wrong; ask another worker),
// or `not_sent` when the worker never read a byte of them. A write that finds the worker's stdin
// closed waits for its stdout to end (kill_grace at most) before failing anything, so answers it
// wrote before dying still reach their requests. A worker that dies or breaks while idle stops too
// and is reported through `on_idle_exit`.
//
// Threading: start() from any thread; usable(), gone() and pid() are [thread-safe]; request(),
// stop() and shutdown() from any thread, one at a time per worker, with their callback run once on
// the worker's strand, never inside the call.
#include "krino/core/process/child_process.hpp"
#include "krino/core/process/process_limits.hpp"

#include "krino/core/process/wake_timer.hpp"

#include <boost/asio/buffer.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

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
    interrupted,     // the worker was stopped (or died) over an older request in flight: ask another
  };
  Outcome outcome = Outcome::died;
  std::string line;  // without its newline
  WorkerExit exit;   // every outcome but `answered` and `not_sent`
  double elapsed_ms = 0;
};

// The non-negative integer "id" member of a JSON object line, or nothing. Quick when "id" comes
// first ({"id":17,...}, as the examples and krino-plugin-host write it); parses the line otherwise.
std::optional<uint64_t> line_reply_id(std::string_view line);

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

  // Sends `line` (which ends with a newline) and waits for one line back: the one carrying `id`
  // when given, else the next. Other requests may be in flight at the same time.
  void request(std::string line, std::function<void(WorkerReply)> done, std::optional<uint64_t> id = std::nullopt);
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
  struct InFlight {
    std::optional<uint64_t> id;
    uint64_t start = 0;  // where its line begins in the stream of bytes to the worker's stdin
    Clock::time_point sent;
    std::function<void(WorkerReply)> done;
    bool unread = false;  // the worker ended before reading any of it
  };
  void begin_request(std::string line, std::function<void(WorkerReply)> done, std::optional<uint64_t> id);
  void write_queued();
  void on_input_broken();
  void deliver_lines();
  std::deque<InFlight>::iterator taker_of(std::string_view line);
  void note_unread_in_pipe();
  void note_unread_from(uint64_t read_up_to);
  void fail(WorkerReply::Outcome why);
  void become_unusable_while_idle();
  void begin_stop(ExitCallback done, bool wait_for_exit_first);
  void arm_timer(bool only_if_sooner = false);
  void on_timer();
  void after_exit();
  WorkerExit exit_report() const;
  void complete(std::deque<InFlight>::iterator request, WorkerReply reply);
  // Every request in flight after a failure, once the process is gone; true when one of them is
  // told the exit was its failure.
  bool complete_all_failed();

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

  // The requests in flight, oldest first, and the bytes on their way to the worker's stdin.
  std::deque<InFlight> in_flight_;
  // Request lines not yet handed to a write, and those of the write in progress: written as they
  // are, several in one gathered write, so no line is copied into a growing buffer.
  std::vector<std::string> queued_;
  std::vector<std::string> writing_lines_;
  std::vector<boost::asio::const_buffer> writing_buffers_;
  bool writing_ = false;
  uint64_t bytes_queued_ = 0;   // in all, since the start
  uint64_t bytes_written_ = 0;  // of those, the ones whose write completed
  // What was still in the pipe when krino stopped writing to a worker that had a write in progress:
  // how far that write got is known only at its completion, which then marks what was never read.
  std::optional<uint64_t> unread_in_pipe_at_close_;
  std::optional<WorkerReply::Outcome> failure_;  // what happened to the oldest request in flight
  // When a write found the worker's stdin closed (EPIPE) while its stdout was still open: its last
  // answers are still read before the requests left fail.
  std::optional<Clock::time_point> input_broken_at_;
  Clock::time_point timer_wake_ = Clock::time_point::max();  // when the timer is armed for

  // stop() / shutdown() in progress.
  ExitCallback stop_done_;
  std::optional<Clock::time_point> voluntary_exit_deadline_;
};

}  // namespace krino::core
